package io.fleetkit.scheduler.internal;

import static io.fleetkit.scheduler.internal.QueueHarness.S;
import static io.fleetkit.scheduler.internal.QueueHarness.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.events.EventRecorder;
import io.fleetkit.api.tracing.Tracing;
import io.fleetkit.observability.micrometer.MicrometerMetrics;
import io.fleetkit.observability.prometheus.Exposition;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * {@code scheduler_queue_incoming_pods_total} {queue, event}: {@code TestIncomingPodsMetrics} (5 of 5) from
 * {@code kubernetes/kubernetes pkg/scheduler/backend/queue/scheduling_queue_test.go} (commit
 * 0113538e59bdee8f21d1948e27360427cfb349f8). Each operation runs for the three pods {@code test-pod-1..3}; a new pod's
 * event is FleetKit's documented {@code PodAdd} where upstream now says {@code UnschedulablePodAdd}.
 */
final class SchedulingQueueIncomingPodsUpstreamTest {
  private static final List<Pod> PODS = List.of(pod("test-pod-1", "ns1", 0), pod("test-pod-2", "ns2", 0),
      pod("test-pod-3", "ns3", 0));
  private final PrometheusMeterRegistry prometheus = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private final QueueHarness h = new QueueHarness().build();
  private final SchedulerInstruments instruments =
      SchedulerInstruments.of(MicrometerMetrics.of(prometheus), EventRecorder.NOOP, Tracing.NOOP, 1, 100);

  SchedulingQueueIncomingPodsUpstreamTest() {
    h.q.observe(instruments);
  }

  private static final Consumer<QueueHarness> ADD = t -> PODS.forEach(t::add);
  private static final Consumer<QueueHarness> POP_AND_REQUEUE_AS_UNSCHEDULABLE = t -> PODS.forEach(p -> {
    t.add(p);
    t.requeue(t.pop(p), "unschedulable_plugin");
  });
  private static final Consumer<QueueHarness> POP_AND_REQUEUE_AS_BACKOFF = t -> PODS.forEach(p -> {
    t.add(p);
    t.requeue(t.pop(p)); // no rejecting plugin
  });
  private static final Consumer<QueueHarness> MOVE_ALL = t -> t.q.moveAllToActiveOrBackoff(t.now);
  private static final Consumer<QueueHarness> MOVE_CLOCK_FORWARD = t -> t.now += 3 * S;
  private static final Consumer<QueueHarness> FLUSH_BACKOFF = t -> {
    t.now += 3 * S;
    t.q.flushBackoffCompleted(t.now);
  };

  private Map<String, Double> run(List<Consumer<QueueHarness>> ops) {
    ops.forEach(op -> op.accept(h));
    instruments.flush(); // as the engine lock's release does
    Map<String, Double> out = new TreeMap<>();
    for (Exposition.Sample s : Exposition.parse(prometheus.scrape()).samples("scheduler_queue_incoming_pods_total")) {
      if (s.value() != 0) {
        out.put(s.labels().get("event") + "/" + s.labels().get("queue"), s.value());
      }
    }
    return out;
  }

  /** "add pods to activeQ". */
  @Test
  void addPodsToActiveQ() {
    assertThat(run(List.of(ADD))).isEqualTo(Map.of("PodAdd/active", 3.0));
  }

  /** "add pods to unschedulablePods". */
  @Test
  void addPodsToUnschedulablePods() {
    assertThat(run(List.of(POP_AND_REQUEUE_AS_UNSCHEDULABLE)))
        .isEqualTo(Map.of("PodAdd/active", 3.0, "ScheduleAttemptFailure/unschedulable", 3.0));
  }

  /** "add pods to unschedulablePods and then move all to backoffQ". */
  @Test
  void addPodsToUnschedulablePods_thenMoveAllToBackoffQ() {
    assertThat(run(List.of(POP_AND_REQUEUE_AS_UNSCHEDULABLE, MOVE_ALL))).isEqualTo(Map.of("PodAdd/active", 3.0,
        "ScheduleAttemptFailure/unschedulable", 3.0, "UnschedulableTimeout/backoff", 3.0));
  }

  /** "add pods to unschedulablePods and then move all to activeQ". */
  @Test
  void addPodsToUnschedulablePods_thenMoveAllToActiveQ() {
    assertThat(run(List.of(POP_AND_REQUEUE_AS_UNSCHEDULABLE, MOVE_CLOCK_FORWARD, MOVE_ALL))).isEqualTo(Map.of(
        "PodAdd/active", 3.0, "ScheduleAttemptFailure/unschedulable", 3.0, "UnschedulableTimeout/active", 3.0));
  }

  /** "make some pods subject to backoff and add them to backoffQ, then flush backoffQ". */
  @Test
  void backoff_thenFlush() {
    assertThat(run(List.of(POP_AND_REQUEUE_AS_BACKOFF, MOVE_CLOCK_FORWARD, FLUSH_BACKOFF))).isEqualTo(Map.of(
        "PodAdd/active", 3.0, "BackoffComplete/active", 3.0, "ScheduleAttemptFailure/backoff", 3.0));
  }
}
