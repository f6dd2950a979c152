package io.fleetkit.lab.gpu;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Pod;
import io.fleetkit.scheduler.PluginRegistry;
import io.fleetkit.scheduler.ScheduleResult;
import io.fleetkit.scheduler.Scheduler;
import io.fleetkit.scheduler.plugins.gpu.GpuPlugins;
import io.fleetkit.scheduler.plugins.gpu.GpuPolicy;
import io.fleetkit.scheduler.plugins.gpu.GpuWorkload;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The recipe "add a GPU policy" of docs/architecture.md: a policy is one {@code GpuScorer} class plus one
 * {@link GpuPolicy} constant, and the constant alone wires it into both hosts. For every constant: the engine
 * registers its score plugin and schedules GPU pods with it as the only score, and the trace replay runs it.
 */
final class GpuPolicyRecipeTest {
  private static final List<TraceNode> NODES = List.of(new TraceNode("n1", 32000, 1 << 20, 2, "T4"),
      new TraceNode("n2", 32000, 1 << 20, 4, "T4"), new TraceNode("n3", 96000, 1 << 20, 8, "V100M32"));
  private static final List<TracePod> PODS = List.of(new TracePod("a", 4000, 1024, 1, 500, List.of()),
      new TracePod("b", 8000, 1024, 2, 1000, List.of()), new TracePod("c", 2000, 1024, 1, 1000, List.of("T4")),
      new TracePod("d", 1000, 1024, 0, 0, List.of()), new TracePod("e", 4000, 1024, 1, 250, List.of()));

  @ParameterizedTest
  @EnumSource(GpuPolicy.class)
  void recipe_everyPolicy_runsInTheEngine(GpuPolicy policy) {
    List<Pod> pods = PODS.stream().map(EngineTraceReplay::pod).toList();
    GpuPlugins gpu = GpuPlugins.builder().policy(policy).workload(GpuWorkload.typicalOf(pods)).seed(1).build();
    assertThat(gpu.registry(PluginRegistry.defaults()).names()).contains(policy.pluginName());
    try (Scheduler s = Scheduler.builder().registry(gpu.registry(PluginRegistry.defaults()))
        .profile(gpu.policyOnlyProfile()).binder(gpu.binder(new EngineTraceReplay.RecordingBinder()))
        .parallelism(1).seed(1).build()) {
      NODES.forEach(n -> s.addNode(EngineTraceReplay.node(n)));
      pods.forEach(s::addPod);
      assertThat(s.runUntilIdle()).as(policy.displayName()).hasSize(PODS.size())
          .allMatch(ScheduleResult::isBound);
    }
  }

  @ParameterizedTest
  @EnumSource(GpuPolicy.class)
  void recipe_everyPolicy_runsInTheTraceReplay(GpuPolicy policy) {
    ReplayResult r = TraceReplay.run(NODES, PODS, policy, 1, 1.0);
    assertThat(r.policy()).isEqualTo(policy.displayName());
    assertThat(r.placed()).as(policy.displayName()).isPositive();
    assertThat(GpuPolicy.of(policy.displayName())).isEqualTo(policy);
  }
}
