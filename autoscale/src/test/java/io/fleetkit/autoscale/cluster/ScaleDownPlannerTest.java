package io.fleetkit.autoscale.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.autoscaling.NodePool;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The scale-down planner's cases from upstream's {@code cluster-autoscaler/core/scaledown/planner/planner_test.go}
 * ({@code TestUpdateClusterState}, {@code TestUpdateClusterStatUnneededNodesLimit}); which are ported and why the
 * others are not is listed in docs/conformance.md. Nodes are {@code BuildTestNode(name, milliCpu, 10)} (memory 10
 * bytes, 100 pods) and pods {@code SetRSPodSpec(BuildScheduledTestPod(name, milliCpu, 1, node), "rs")}; eligibility
 * is the case's list, as upstream's {@code fakeEligibilityChecker}.
 */
final class ScaleDownPlannerTest {

  record N(String name, long milliCpu) {}

  record P(String name, long milliCpu, String node) {}

  static Stream<Arguments> updateClusterState() {
    return Stream.of(
        Arguments.of("empty nodes, all eligible", List.of(new N("n1", 1000), new N("n2", 1000), new N("n3", 1000)),
            List.of(), Set.of("n1", "n2", "n3"), Set.of("n1", "n2", "n3"), Set.of()),
        Arguments.of("empty nodes, some eligible", List.of(new N("n1", 1000), new N("n2", 1000), new N("n3", 1000)),
            List.of(), Set.of("n1", "n2"), Set.of("n1", "n2"), Set.of("n3")),
        Arguments.of("empty nodes, none eligible", List.of(new N("n1", 1000), new N("n2", 1000), new N("n3", 1000)),
            List.of(), Set.of(), Set.of(), Set.of("n1", "n2", "n3")),
        Arguments.of("single utilised node, not eligible", List.of(new N("n1", 1000)),
            List.of(new P("p1", 500, "n1")), Set.of("n1"), Set.of(), Set.of("n1")),
        Arguments.of("pods can schedule on non-eligible node, eligible", List.of(new N("n1", 1000), new N("n2", 1000)),
            List.of(new P("p1", 500, "n1"), new P("p2", 500, "n1")), Set.of("n1"), Set.of("n1"), Set.of("n2")),
        Arguments.of("pods cannot schedule anywhere, not eligible",
            List.of(new N("n1", 2000), new N("n2", 1000), new N("n3", 500)),
            List.of(new P("p1", 1000, "n1"), new P("p2", 1000, "n1"), new P("p3", 1000, "n2")),
            Set.of("n1", "n2"), Set.of(), Set.of("n1", "n2", "n3")),
        Arguments.of("all pods from multiple nodes can schedule elsewhere, all eligible",
            List.of(new N("n1", 1000), new N("n2", 1000), new N("n3", 2000)),
            List.of(new P("p1", 500, "n1"), new P("p2", 500, "n1"), new P("p3", 500, "n2"), new P("p4", 500, "n2")),
            Set.of("n1", "n2"), Set.of("n1", "n2"), Set.of("n3")),
        Arguments.of("some pods from multiple nodes can schedule elsewhere, some eligible",
            List.of(new N("n1", 2000), new N("n2", 1000), new N("n3", 1000)),
            List.of(new P("p1", 1000, "n1"), new P("p2", 1000, "n1"), new P("p3", 500, "n2"),
                new P("p4", 500, "n2")),
            Set.of("n1", "n2"), Set.of("n2"), Set.of("n1", "n3")),
        Arguments.of("no pods from multiple nodes can schedule elsewhere, no eligible",
            List.of(new N("n1", 1000), new N("n2", 1000), new N("n3", 500)),
            List.of(new P("p1", 500, "n1"), new P("p2", 500, "n1"), new P("p3", 500, "n2"), new P("p4", 500, "n2")),
            Set.of("n1", "n2"), Set.of(), Set.of("n1", "n2", "n3")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  void updateClusterState(String name, List<N> nodes, List<P> pods, Set<String> eligible, Set<String> wantUnneeded,
      Set<String> wantUnremovable) {
    ManualClock clock = ManualClock.atEpoch2026();
    try (ObjectStore store = ObjectStore.builder().clock(clock).directDelivery().build()) {
      store.create(CaFixtures.pool("ng1", 1000, 1, 0, 100));
      for (N n : nodes) {
        store.create(Node.builder().name(n.name()).label(NodePool.POOL_LABEL, "ng1")
            .capacity(CaFixtures.resources(n.milliCpu(), 10, 100)).build());
      }
      for (P p : pods) {
        store.create(Pod.builder().name(p.name()).ownerReference(CaFixtures.RS).nodeName(p.node())
            .container("app", "pause", ResourceList.ofCpuMemory(p.milliCpu(), 1)).build());
      }
      ClusterAutoscaler ca = ClusterAutoscaler.builder(store).clock(clock)
          .eligibility(n -> eligible.contains(n.name())).build();
      LoopResult r = ca.runOnce();
      for (N n : nodes) {
        assertThat(r.unneededNodes().contains(n.name())).as(n.name() + " unneeded")
            .isEqualTo(wantUnneeded.contains(n.name()));
        assertThat(r.unremovableNodes().containsKey(n.name())).as(n.name() + " unremovable")
            .isEqualTo(wantUnremovable.contains(n.name()));
      }
      assertThat(r.deletedNodes()).isEmpty();
    }
  }

  /**
   * {@code TestUpdateClusterStatUnneededNodesLimit}: 100 empty, eligible nodes, some of them unneeded before; the
   * number unneeded after one update is the limit (at most the 100 nodes).
   */
  static Stream<Arguments> unneededNodesLimit() {
    return Stream.of(
        Arguments.of("no unneeded, default settings", 0, 10, Duration.ofMinutes(1), Duration.ofSeconds(10), 20),
        Arguments.of("some unneeded, default settings", 3, 10, Duration.ofMinutes(1), Duration.ofSeconds(10), 23),
        Arguments.of("max unneeded, default settings", 70, 10, Duration.ofMinutes(1), Duration.ofSeconds(10), 70),
        Arguments.of("too many unneeded, default settings", 77, 10, Duration.ofMinutes(1), Duration.ofSeconds(10),
            70),
        Arguments.of("instant kill nodes", 0, 10, Duration.ZERO, Duration.ofSeconds(10), 20),
        Arguments.of("quick loops", 13, 10, Duration.ofMinutes(1), Duration.ofSeconds(1), 33),
        Arguments.of("slow loops", 13, 10, Duration.ofMinutes(1), Duration.ofSeconds(30), 30));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  void unneededNodesLimit(String name, int previouslyUnneeded, int maxParallelism, Duration unneededTime,
      Duration updateInterval, int wantUnneeded) {
    assertThat(Math.min(100, ClusterAutoscaler.unneededNodesLimit(previouslyUnneeded, maxParallelism, unneededTime,
        updateInterval))).isEqualTo(wantUnneeded);
  }

  /**
   * The same limit through the autoscaler's loops (the first case above, then further loops): 100 empty nodes,
   * unneeded time 1 minute, 10 s loops. The first loop knows no interval yet (upstream starts from the unneeded
   * time: limit 2 × 10); then the unneeded nodes grow by 20 a loop up to 10 × (60 s / 10 s) + 10 = 70.
   */
  @org.junit.jupiter.api.Test
  void unneededNodesGrowByTwiceTheParallelismPerLoopUpToTheBound() {
    ManualClock clock = ManualClock.atEpoch2026();
    try (ObjectStore store = ObjectStore.builder().clock(clock).directDelivery().build()) {
      NodePool pool = CaFixtures.pool("ng1", 1000, 10, 0, 200);
      store.create(pool);
      for (int i = 0; i < 100; i++) {
        store.create(CaFixtures.poolNode(pool, "n" + i));
      }
      ClusterAutoscaler ca = ClusterAutoscaler.builder(store).clock(clock)
          .options(AutoscalerOptions.defaults().withScaleDownUnneededTime(Duration.ofMinutes(1))).build();
      List<Integer> counts = new ArrayList<>();
      for (int loop = 0; loop < 5; loop++) {
        LoopResult r = ca.runOnce();
        assertThat(r.deletedNodes()).isEmpty();
        counts.add(r.unneededNodes().size());
        clock.advance(Duration.ofSeconds(10));
      }
      assertThat(counts).containsExactly(20, 40, 60, 70, 70);
    }
  }
}
