package io.fleetkit.scheduler.internal;

import static io.fleetkit.scheduler.internal.QueueHarness.S;
import static io.fleetkit.scheduler.internal.QueueHarness.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.events.EventRecorder;
import io.fleetkit.api.framework.Status;
import io.fleetkit.api.tracing.Tracing;
import io.fleetkit.observability.micrometer.MicrometerMetrics;
import io.fleetkit.observability.prometheus.Exposition;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * {@code scheduler_pending_pods} {queue}: {@code TestPendingPodsMetric} from {@code kubernetes/kubernetes
 * pkg/scheduler/backend/queue/scheduling_queue_test.go} (commit 0113538e59bdee8f21d1948e27360427cfb349f8). 50 pods
 * {@code x-1..50} carry the label a PreEnqueue plugin admits, 10 pods {@code y-1..10} do not (upstream marks them
 * gated by hand; here PreEnqueue gates them). Upstream
 * puts pods straight into a queue; FleetKit's pods get there as in a scheduler: unschedulablePods and backoffQ
 * through a popped attempt (rejected by a plugin, or failed by an error) at the pod's timestamp, and those steps run
 * before the activeQ ones so that each pop takes the pod meant.
 */
final class SchedulingQueuePendingPodsUpstreamTest {
  private static final long T = 100 * S;
  private final PrometheusMeterRegistry prometheus = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private final QueueHarness h = new QueueHarness().preEnqueue("preEnqueuePlugin", "queueable").build();
  private final SchedulerInstruments instruments =
      SchedulerInstruments.of(MicrometerMetrics.of(prometheus), EventRecorder.NOOP, Tracing.NOOP, 1, 100);
  private final List<Pod> pods = new ArrayList<>();

  SchedulingQueuePendingPodsUpstreamTest() {
    h.q.observe(instruments);
    h.now = T;
    for (int i = 1; i <= 50; i++) {
      pods.add(pod("x-" + i, "ns" + i, 0).toBuilder().label("queueable", "").build());
    }
    for (int i = 1; i <= 10; i++) {
      pods.add(pod("y-" + i, "ns" + i, 0).toBuilder().label("failme", "").build());
    }
  }

  private void addActiveQ(List<Pod> ps) {
    ps.forEach(h::add);
  }

  /** Upstream's {@code addPodUnschedulablePods}: a rejected attempt at {@code timestamp}, or gated. */
  private void addUnschedulable(List<Pod> ps) {
    for (Pod p : ps) {
      h.add(p);
      if (h.where(p) == QueuedPod.Where.ACTIVE) {
        h.q.requeueAfterFailure(h.pop(p), Status.Code.UNSCHEDULABLE, "x", Set.of("plugin"), h.now);
      }
    }
  }

  /** Upstream's {@code addPodBackoffQ}. */
  private void addBackoffQ(List<Pod> ps) {
    for (Pod p : ps) {
      h.add(p);
      h.q.requeueAfterFailure(h.pop(p), Status.Code.ERROR, "x", Set.of(), h.now);
    }
  }

  private void moveAll() {
    h.q.moveAllToActiveOrBackoff(h.now);
  }

  private void flushBackoffQ() {
    h.now += 3 * S;
    h.q.flushBackoffCompleted(h.now);
  }

  /** The gauge as {active, backoff, gated, unschedulable}. */
  private List<Double> gauge() {
    instruments.publishSizes(h.q, new SchedulerCache(S));
    Exposition e = Exposition.parse(prometheus.scrape());
    List<Double> out = new ArrayList<>();
    for (String queue : List.of("active", "backoff", "gated", "unschedulable")) {
      out.add(e.value("scheduler_pending_pods", Map.of("queue", queue)).orElse(0.0));
    }
    return out;
  }

  /** "add pods to activeQ and unschedulablePods". */
  @Test
  void activeAndUnschedulable() {
    addUnschedulable(pods.subList(30, 60));
    addActiveQ(pods.subList(0, 30));
    assertThat(gauge()).containsExactly(30.0, 0.0, 10.0, 20.0);
  }

  /** "add pods to all kinds of queues". */
  @Test
  void allKindsOfQueues() {
    addBackoffQ(pods.subList(15, 40));
    addUnschedulable(pods.subList(40, 60));
    addActiveQ(pods.subList(0, 15));
    assertThat(gauge()).containsExactly(15.0, 25.0, 10.0, 10.0);
  }

  /** "add pods to unschedulablePods and then move all to activeQ". */
  @Test
  void unschedulable_thenMoveAllToActiveQ() {
    addUnschedulable(pods);
    h.now += 3 * S;
    moveAll();
    assertThat(gauge()).containsExactly(50.0, 0.0, 10.0, 0.0);
  }

  /**
   * "make some pods subject to backoff, add pods to unschedulablePods/activeQ, move all to activeQ, and finally flush
   * backoffQ". Upstream's gated pods are not operands of this row (it names pods 0 to 50), so gated is 0.
   */
  @Test
  void backoff_thenFlush() {
    addUnschedulable(pods.subList(0, 40));
    addActiveQ(pods.subList(40, 50));
    moveAll();
    flushBackoffQ();
    assertThat(gauge()).containsExactly(50.0, 0.0, 0.0, 0.0);
  }

  /** "add pods to activeQ/unschedulablePods and then delete some Pods". */
  @Test
  void deleteSomePods() {
    addUnschedulable(pods.subList(30, 60));
    addActiveQ(pods.subList(0, 30));
    for (List<Pod> gone : List.of(pods.subList(0, 2), pods.subList(30, 33), pods.subList(50, 54))) {
      gone.forEach(h::delete);
    }
    assertThat(gauge()).containsExactly(28.0, 0.0, 6.0, 17.0);
  }

  /** "add pods to activeQ/unschedulablePods and then update some Pods as queueable". */
  @Test
  void updateSomePodsAsQueueable() {
    addUnschedulable(pods.subList(30, 60));
    addActiveQ(pods.subList(0, 30));
    for (Pod p : pods.subList(50, 55)) {
      h.update(p.toBuilder().labels(Map.of("queueable", "")).build());
    }
    assertThat(gauge()).containsExactly(35.0, 0.0, 5.0, 20.0);
  }
}
