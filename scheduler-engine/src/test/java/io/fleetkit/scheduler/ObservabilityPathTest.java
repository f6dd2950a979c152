package io.fleetkit.scheduler;

import static io.fleetkit.scheduler.testing.Fixtures.node;
import static io.fleetkit.scheduler.testing.Fixtures.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.framework.CycleState;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.SchedulerProfile;
import io.fleetkit.api.framework.Status;
import io.fleetkit.api.tracing.TraceSpan;
import io.fleetkit.api.tracing.Tracing;
import io.fleetkit.observability.micrometer.MicrometerMetrics;
import io.fleetkit.scheduler.nodetable.NodeTable;
import io.fleetkit.scheduler.nodetable.TableFilter;
import io.fleetkit.scheduler.nodetable.TableScore;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * Observability never changes the path a cycle takes: with no registry and no tracing, with both, and with every
 * cycle sampled, the Filter plugins run over the node table in batches ({@link TableFilter#filterAll}) the same number
 * of times over the same nodes, never node by node through a node view, Score keeps the weighted sum of its keyed,
 * non-normalising plugins across cycles (such a plugin is asked for the same nodes), and the placements are the same.
 */
final class ObservabilityPathTest {
  private static final String PROBE = "PathProbe";

  /** A Filter plugin that passes every node and counts how the engine called it. */
  private static final class PathProbe implements TableFilter {
    final AtomicInteger batches = new AtomicInteger();
    final AtomicInteger batchedPositions = new AtomicInteger();
    final AtomicInteger tableCalls = new AtomicInteger();
    final AtomicInteger viewCalls = new AtomicInteger();

    @Override
    public String name() {
      return PROBE;
    }

    @Override
    public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
      viewCalls.incrementAndGet();
      return Status.success();
    }

    @Override
    public Status filter(CycleState state, PodInfo pod, NodeTable table, int node) {
      tableCalls.incrementAndGet();
      return Status.success();
    }

    @Override
    public void filterAll(CycleState state, PodInfo pod, NodeTable table, int[] nodes, int from, int to, int[] failed,
        int mark, Status[] statuses) {
      batches.incrementAndGet();
      batchedPositions.addAndGet(to - from);
    }

    List<Integer> counts() {
      return List.of(batches.get(), batchedPositions.get(), tableCalls.get(), viewCalls.get());
    }
  }

  private static final String SCORE_PROBE = "ScoreProbe";

  /**
   * A keyed Score plugin without NormalizeScore (so a member of the weighted sum Score keeps per node) that gives every
   * node the same score and counts the nodes it is asked for: with the kept sum, only the nodes whose sum is not kept.
   */
  private static final class ScoreProbe implements TableScore {
    final AtomicInteger scored = new AtomicInteger();

    @Override
    public String name() {
      return SCORE_PROBE;
    }

    @Override
    public long score(CycleState state, PodInfo pod, NodeInfo node) {
      scored.incrementAndGet();
      return 50;
    }

    @Override
    public long score(CycleState state, PodInfo pod, NodeTable table, int node) {
      scored.incrementAndGet();
      return 50;
    }

    @Override
    public long[] scoreKey(CycleState state, PodInfo pod) {
      return new long[] {1};
    }
  }

  /** A tracer whose every span records (so the attempt opens its extension-point children). */
  private static final Tracing RECORDING = new Tracing() {
    @Override
    public TraceSpan start(String name, @Nullable TraceSpan parent) {
      return new TraceSpan() {
        @Override
        public TraceSpan attribute(String key, String value) {
          return this;
        }

        @Override
        public TraceSpan attribute(String key, long value) {
          return this;
        }

        @Override
        public void error(String message) { }

        @Override
        public void end() { }

        @Override
        public Map<String, String> context() {
          return Map.of();
        }
      };
    }

    @Override
    public TraceSpan start(String name, Map<String, String> remoteParent) {
      return start(name, (TraceSpan) null);
    }
  };

  private record Run(List<Integer> counts, List<ScheduleResult> results) { }

  private static Run run(Consumer<SchedulerBuilder> observability) {
    PathProbe probe = new PathProbe();
    PluginRegistry defaults = PluginRegistry.defaults();
    PluginRegistry.Builder reg = PluginRegistry.builder();
    for (String name : defaults.names()) {
      reg.register(name, defaults.factory(name));
    }
    reg.register(PROBE, h -> probe);
    SchedulerProfile profile = DefaultPlugins.profile().toBuilder().plugin(PROBE).build();
    SchedulerBuilder b = Scheduler.builder().registry(reg.build()).profile(profile).seed(7);
    observability.accept(b);
    List<ScheduleResult> results = new ArrayList<>();
    try (Scheduler s = b.build()) {
      for (int i = 0; i < 400; i++) {
        s.addNode(node("n" + i, 4000, 8192, 110));
      }
      for (int i = 0; i < 60; i++) {
        s.addPod(pod("p" + i, 100 + (i % 5) * 100, 256));
      }
      results.addAll(s.runUntilIdle());
    }
    return new Run(probe.counts(), results);
  }

  @Test
  void filter_sameBatchedTablePath_withoutAndWithMetricsAndTracing() {
    Run off = run(b -> { });
    Run on = run(b -> b.metrics(MicrometerMetrics.of(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT)))
        .tracing(RECORDING));
    Run everyCycle = run(b -> b.metrics(MicrometerMetrics.of(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT)))
        .tracing(RECORDING).metricsSamplePercent(100));

    // batches, positions in batches, per-node table calls, per-node view calls
    assertThat(off.counts().get(0)).as("filterAll batches").isGreaterThanOrEqualTo(60);
    assertThat(off.counts().get(1)).as("positions filtered in batches").isGreaterThanOrEqualTo(60 * 100);
    assertThat(off.counts().subList(2, 4)).as("node-by-node calls").containsExactly(0, 0);
    assertThat(on.counts()).as("metrics and tracing, 10 %% of cycles sampled").isEqualTo(off.counts());
    assertThat(everyCycle.counts()).as("metrics and tracing, every cycle sampled").isEqualTo(off.counts());
    assertThat(off.results()).hasSize(60).allMatch(ScheduleResult::isBound);
    assertThat(on.results()).isEqualTo(off.results());
    assertThat(everyCycle.results()).isEqualTo(off.results());
  }

  private record ScoreRun(int scored, List<ScheduleResult> results) { }

  /** 150 equal nodes, 30 equal pods: Score examines 100 nodes a cycle, most of them with a kept sum. */
  private static ScoreRun scoreRun(Consumer<SchedulerBuilder> observability) {
    ScoreProbe probe = new ScoreProbe();
    PluginRegistry defaults = PluginRegistry.defaults();
    PluginRegistry.Builder reg = PluginRegistry.builder();
    for (String name : defaults.names()) {
      reg.register(name, defaults.factory(name));
    }
    reg.register(SCORE_PROBE, h -> probe);
    SchedulerProfile profile = DefaultPlugins.profile().toBuilder().plugin(SCORE_PROBE, 1).build();
    SchedulerBuilder b = Scheduler.builder().registry(reg.build()).profile(profile).seed(7).parallelism(1);
    observability.accept(b);
    List<ScheduleResult> results = new ArrayList<>();
    try (Scheduler s = b.build()) {
      for (int i = 0; i < 150; i++) {
        s.addNode(node("n" + i, 4000, 8192, 110));
      }
      for (int i = 0; i < 30; i++) {
        s.addPod(pod("p" + i, 200, 256));
      }
      results.addAll(s.runUntilIdle());
    }
    return new ScoreRun(probe.scored.get(), results);
  }

  @Test
  void score_keepsTheWeightedSum_withoutAndWithMetricsAndTracing_evenInSampledCycles() {
    ScoreRun off = scoreRun(b -> { });
    ScoreRun on = scoreRun(b -> b.metrics(MicrometerMetrics.of(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT)))
        .tracing(RECORDING));
    ScoreRun everyCycle = scoreRun(b -> b.metrics(MicrometerMetrics.of(new PrometheusMeterRegistry(
        PrometheusConfig.DEFAULT))).tracing(RECORDING).metricsSamplePercent(100));

    // 30 cycles of 100 nodes: scoring every node in every cycle would ask for 3000; the kept sums leave the first
    // visit of each node and the nodes whose row changed (those that took a pod)
    assertThat(off.scored()).as("nodes the probe scored").isPositive().isLessThan(1000);
    assertThat(on.scored()).as("metrics and tracing, 10 %% of cycles sampled").isEqualTo(off.scored());
    assertThat(everyCycle.scored()).as("metrics and tracing, every cycle sampled").isEqualTo(off.scored());
    assertThat(off.results()).hasSize(30).allMatch(ScheduleResult::isBound);
    assertThat(on.results()).isEqualTo(off.results());
    assertThat(everyCycle.results()).isEqualTo(off.results());
  }
}
