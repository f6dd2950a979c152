package io.fleetkit.scheduler.internal;

import static io.fleetkit.scheduler.testing.Fixtures.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.events.EventRecorder;
import io.fleetkit.api.framework.ClusterEvent;
import io.fleetkit.api.framework.PreEnqueuePlugin;
import io.fleetkit.api.framework.SchedulerProfile;
import io.fleetkit.api.framework.Status;
import io.fleetkit.api.framework.WaitingPods;
import io.fleetkit.api.tracing.Tracing;
import io.fleetkit.observability.micrometer.MicrometerMetrics;
import io.fleetkit.observability.prometheus.Exposition;
import io.fleetkit.scheduler.PluginRegistry;
import io.fleetkit.scheduler.plugins.prioritysort.PrioritySortPlugin;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code scheduler_unschedulable_pods} {plugin, profile} as the scheduling queue moves it. Cases ported from
 * {@code kubernetes/kubernetes pkg/scheduler/backend/queue/scheduling_queue_test.go} {@code TestUnschedulablePodsMetric}
 * (8 of 8): two PreEnqueue plugins that admit only pods labelled {@code queueable} listed in their allow lists; each
 * step is the upstream step (its pod {@code namespaceA/podA} is {@code namespace-a/pod-a} here, as FleetKit validates
 * names); the expected values are upstream's for {@code plugin1} and {@code plugin2}.
 */
final class UnschedulablePodsMetricTest {
  private static final String QUEUEABLE = "queueable";
  private final Map<String, List<String>> allowLists = new HashMap<>();
  private final PrometheusMeterRegistry prometheus = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private final SchedulingQueue q;
  private final Framework fw;

  UnschedulablePodsMetricTest() {
    PluginRegistry reg = PluginRegistry.defaults().with("plugin1", h -> gate("plugin1"))
        .with("plugin2", h -> gate("plugin2"));
    SchedulerProfile p = SchedulerProfile.builder("default-scheduler").plugin(PrioritySortPlugin.NAME)
        .plugin("plugin1").plugin("plugin2").build();
    fw = new Framework(p, reg, Clock.systemUTC(), new ClusterSnapshot(), WaitingPods.NONE, new ClusterObjects());
    q = new SchedulingQueue(fw.queueSort, 1, 10, 300);
    q.observe(SchedulerInstruments.of(MicrometerMetrics.of(prometheus), EventRecorder.NOOP, Tracing.NOOP, 1,
        100));
    allowLists.put("plugin1", List.of(QUEUEABLE));
    allowLists.put("plugin2", List.of(QUEUEABLE));
  }

  /** upstream's {@code preEnqueuePlugin}: admits a pod carrying one of the allow list's labels. */
  private PreEnqueuePlugin gate(String name) {
    return new PreEnqueuePlugin() {
      @Override
      public String name() {
        return name;
      }

      @Override
      public Status preEnqueue(Pod pod) {
        for (String label : allowLists.get(name)) {
          if (pod.metadata().labels().containsKey(label)) {
            return Status.success();
          }
        }
        return Status.unresolvable("pod not in allow list");
      }
    };
  }

  private static Consumer<UnschedulablePodsMetricTest> allow(String plugin, String... labels) {
    return t -> t.allowLists.put(plugin, List.of(labels));
  }

  private static final Consumer<UnschedulablePodsMetricTest> ADD = t -> t.q.add(new QueuedPod(
      EnginePodInfo.of(pod("pod-a", 100, 10).toBuilder().namespace("namespace-a").label(QUEUEABLE, "").build()),
      t.fw, 0));
  private static final Consumer<UnschedulablePodsMetricTest> DELETE = t -> t.q.remove("namespace-a/pod-a");
  private static final Consumer<UnschedulablePodsMetricTest> POP = t -> assertThat(t.q.pop(0)).isNotNull();
  private static final Consumer<UnschedulablePodsMetricTest> MOVE_ALL =
      t -> t.q.moveAllToActiveOrBackoff(ClusterEvent.NODE_ADD, 0);

  static Stream<Arguments> cases() {
    return Stream.of(
        Arguments.of("Unschedulable pods metric must be 0 after a pod is gated, ungated, re-queued, and eventually"
            + " popped from the scheduling queue",
            List.of(allow("plugin1"), ADD, MOVE_ALL, allow("plugin1", QUEUEABLE), MOVE_ALL, POP), 0, 0),
        Arguments.of("Unschedulable pods metric must be 0 after pod is gated and then deleted",
            List.of(allow("plugin1"), ADD, MOVE_ALL, DELETE), 0, 0),
        Arguments.of("Unschedulable pods metric must be 1 after pod is gated multiple time by the same plugin",
            List.of(allow("plugin1"), ADD, MOVE_ALL), 1, 0),
        Arguments.of("Unschedulable pods metric must be 0 after non gated pods is added and then deleted",
            List.of(ADD, DELETE), 0, 0),
        // upstream adds a copy already marked gated by plugin1; its queue.Add takes only the pod, as ADD does
        Arguments.of("Unschedulable pods metric should not be duplicate if gated pods added and then gated with the"
            + " same plugin again", List.of(allow("plugin1"), ADD, MOVE_ALL), 1, 0),
        Arguments.of("Unschedulable pods metric should be 0 if pod was gated by two plugins sequentially and then"
            + " ungated and popped", List.of(allow("plugin1"), ADD, allow("plugin1", QUEUEABLE), allow("plugin2"),
            MOVE_ALL, allow("plugin2", QUEUEABLE), MOVE_ALL, POP), 0, 0),
        Arguments.of("Unschedulable pods metric should be 0 if pod was gated by two plugins sequentially and then"
            + " deleted", List.of(allow("plugin1"), ADD, allow("plugin1", QUEUEABLE), allow("plugin2"), MOVE_ALL,
            DELETE), 0, 0),
        Arguments.of("Unschedulable pods metric should be 1 for both plugins if pod was gated by two plugins"
            + " sequentially", List.of(allow("plugin1"), ADD, allow("plugin1", QUEUEABLE), allow("plugin2"),
            MOVE_ALL), 1, 1));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void unschedulablePods_followsUpstream(String name, List<Consumer<UnschedulablePodsMetricTest>> steps,
      int plugin1, int plugin2) {
    for (Consumer<UnschedulablePodsMetricTest> step : steps) {
      step.accept(this);
    }
    Exposition e = Exposition.parse(prometheus.scrape());
    assertThat(value(e, "plugin1")).as("plugin1").isEqualTo(plugin1);
    assertThat(value(e, "plugin2")).as("plugin2").isEqualTo(plugin2);
  }

  /** The gauge's value; a series never touched counts as 0, as upstream resets both to 0 first. */
  private static double value(Exposition e, String plugin) {
    return e.value("scheduler_unschedulable_pods", Map.of("plugin", plugin, "profile", "default-scheduler"))
        .orElse(0.0);
  }

  @org.junit.jupiter.api.Test
  void rejectedAttempt_countsEveryRejectingPluginUntilTheNextPop() {
    ADD.accept(this);
    QueuedPod p = q.pop(0);
    q.requeueAfterFailure(p, Status.Code.UNSCHEDULABLE, "no fit", Set.of("plugin1", "plugin2"), 0);
    Exposition e = Exposition.parse(prometheus.scrape());
    assertThat(value(e, "plugin1")).isEqualTo(1);
    assertThat(value(e, "plugin2")).isEqualTo(1);
    q.moveAllToActiveOrBackoff(ClusterEvent.NODE_ADD, 100);
    assertThat(q.pop(100)).isNotNull();
    e = Exposition.parse(prometheus.scrape());
    assertThat(value(e, "plugin1")).isZero();
    assertThat(value(e, "plugin2")).isZero();
  }
}
