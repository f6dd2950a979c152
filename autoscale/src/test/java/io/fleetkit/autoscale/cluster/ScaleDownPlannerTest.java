package io.fleetkit.autoscale.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.apps.ReplicaSet;
import io.fleetkit.api.apps.ReplicaSetStatus;
import io.fleetkit.api.autoscaling.NodePool;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.scheduling.Taint;
import io.fleetkit.api.scheduling.TaintEffect;
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

  /** A node {@code BuildTestNode(name, milliCpu, 10)}, or with {@code deleting} upstream's {@code nodeUndergoingDeletion}. */
  record N(String name, long milliCpu, boolean deleting) {
    N(String name, long milliCpu) {
      this(name, milliCpu, false);
    }
  }

  /**
   * A pod {@code BuildScheduledTestPod(name, milliCpu, 1, node)}, made by {@code owner}: a ReplicaSet's name
   * ({@code SetRSPodSpec}), {@code ""} for none ({@code BuildTestPod}), or {@code static}, {@code mirror}, {@code ds}.
   */
  record P(String name, long milliCpu, String node, String owner) {
    P(String name, long milliCpu, String node) {
      this(name, milliCpu, node, "rs");
    }
  }

  /** A ReplicaSet {@code generateReplicaSetWithReplicas(name, spec, status)}. */
  record RS(String name, int spec, int status) {}

  /** Upstream's {@code generateReplicaSets("rs", 5)}: the default of every case. */
  static final List<RS> DEFAULT_RS = List.of(new RS("rs", 5, 0));

  record Case(String name, List<N> nodes, List<P> pods, List<P> evicted, List<RS> replicaSets, Set<String> eligible,
      Set<String> wantUnneeded, Set<String> wantUnremovable, boolean simulationTimeout) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Case c(String name, List<N> nodes, List<P> pods, Set<String> eligible, Set<String> wantUnneeded,
      Set<String> wantUnremovable) {
    return new Case(name, nodes, pods, List.of(), DEFAULT_RS, eligible, wantUnneeded, wantUnremovable, false);
  }

  static Case evicted(String name, List<N> nodes, List<P> pods, List<P> evicted, List<RS> rs, Set<String> eligible,
      Set<String> wantUnneeded, Set<String> wantUnremovable) {
    return new Case(name, nodes, pods, evicted, rs, eligible, wantUnneeded, wantUnremovable, false);
  }

  static N deleting(String name, long milliCpu) {
    return new N(name, milliCpu, true);
  }

  static List<RS> rs1(int status) {
    return List.of(new RS("rs1", 2, status), new RS("rs", 5, 0));
  }

  static Stream<Case> updateClusterState() {
    return Stream.of(
        c("empty nodes, all eligible", List.of(new N("n1", 1000), new N("n2", 1000), new N("n3", 1000)),
            List.of(), Set.of("n1", "n2", "n3"), Set.of("n1", "n2", "n3"), Set.of()),
        c("empty nodes, some eligible", List.of(new N("n1", 1000), new N("n2", 1000), new N("n3", 1000)),
            List.of(), Set.of("n1", "n2"), Set.of("n1", "n2"), Set.of("n3")),
        c("empty nodes, none eligible", List.of(new N("n1", 1000), new N("n2", 1000), new N("n3", 1000)),
            List.of(), Set.of(), Set.of(), Set.of("n1", "n2", "n3")),
        c("single utilised node, not eligible", List.of(new N("n1", 1000)),
            List.of(new P("p1", 500, "n1")), Set.of("n1"), Set.of(), Set.of("n1")),
        c("pods cannot schedule on node undergoing deletion, not eligible",
            List.of(new N("n1", 1000), deleting("n2", 1000)),
            List.of(new P("p1", 500, "n1"), new P("p2", 500, "n1")), Set.of("n1"), Set.of(), Set.of("n1", "n2")),
        c("pods can schedule on non-eligible node, eligible", List.of(new N("n1", 1000), new N("n2", 1000)),
            List.of(new P("p1", 500, "n1"), new P("p2", 500, "n1")), Set.of("n1"), Set.of("n1"), Set.of("n2")),
        c("pods can schedule on eligible node, eligible", List.of(new N("n1", 1000), new N("n2", 1000)),
            List.of(new P("p1", 500, "n1"), new P("p2", 500, "n1")), Set.of("n1", "n2"), Set.of("n1"),
            Set.of("n2")),
        c("pods cannot schedule anywhere, not eligible",
            List.of(new N("n1", 2000), new N("n2", 1000), new N("n3", 500)),
            List.of(new P("p1", 1000, "n1"), new P("p2", 1000, "n1"), new P("p3", 1000, "n2")),
            Set.of("n1", "n2"), Set.of(), Set.of("n1", "n2", "n3")),
        c("all pods from multiple nodes can schedule elsewhere, all eligible",
            List.of(new N("n1", 1000), new N("n2", 1000), new N("n3", 2000)),
            List.of(new P("p1", 500, "n1"), new P("p2", 500, "n1"), new P("p3", 500, "n2"), new P("p4", 500, "n2")),
            Set.of("n1", "n2"), Set.of("n1", "n2"), Set.of("n3")),
        c("some pods from multiple nodes can schedule elsewhere, some eligible",
            List.of(new N("n1", 2000), new N("n2", 1000), new N("n3", 1000)),
            List.of(new P("p1", 1000, "n1"), new P("p2", 1000, "n1"), new P("p3", 500, "n2"),
                new P("p4", 500, "n2")),
            Set.of("n1", "n2"), Set.of("n2"), Set.of("n1", "n3")),
        c("no pods from multiple nodes can schedule elsewhere, no eligible",
            List.of(new N("n1", 1000), new N("n2", 1000), new N("n3", 500)),
            List.of(new P("p1", 500, "n1"), new P("p2", 500, "n1"), new P("p3", 500, "n2"), new P("p4", 500, "n2")),
            Set.of("n1", "n2"), Set.of(), Set.of("n1", "n2", "n3")),
        evicted("recently evicted RS pod, not eligible", List.of(new N("n1", 1000), deleting("n2", 2000)), List.of(),
            List.of(new P("p1", 500, "n2")), DEFAULT_RS, Set.of("n1"), Set.of(), Set.of("n1", "n2")),
        evicted("recently evicted pod without owner, not eligible", List.of(new N("n1", 1000)), List.of(),
            List.of(new P("p1", 1000, "", "")), DEFAULT_RS, Set.of("n1"), Set.of(), Set.of("n1")),
        evicted("recently evicted static pod, eligible", List.of(new N("n1", 1000), deleting("n2", 2000)), List.of(),
            List.of(new P("p1", 500, "n2", "static")), DEFAULT_RS, Set.of("n1"), Set.of("n1"), Set.of("n2")),
        evicted("recently evicted mirror pod, eligible", List.of(new N("n1", 1000), deleting("n2", 2000)), List.of(),
            List.of(new P("p1", 500, "n2", "mirror")), DEFAULT_RS, Set.of("n1"), Set.of("n1"), Set.of("n2")),
        evicted("recently evicted DS pod, eligible", List.of(new N("n1", 1000), deleting("n2", 2000)), List.of(),
            List.of(new P("p1", 500, "n2", "ds")), DEFAULT_RS, Set.of("n1"), Set.of("n1"), Set.of("n2")),
        evicted("recently evicted pod can schedule on non-eligible node, eligible",
            List.of(new N("n1", 1000), new N("n2", 1000), deleting("n3", 1000)), List.of(),
            List.of(new P("p1", 500, "n3")), DEFAULT_RS, Set.of("n1"), Set.of("n1"), Set.of("n2", "n3")),
        evicted("recently evicted pod can schedule on eligible node, eligible",
            List.of(new N("n1", 1000), new N("n2", 1000), deleting("n3", 1000)), List.of(),
            List.of(new P("p1", 500, "n3")), DEFAULT_RS, Set.of("n1", "n2"), Set.of("n1"), Set.of("n2", "n3")),
        evicted("recently evicted pod too large to schedule anywhere, all eligible",
            List.of(new N("n1", 1000), new N("n2", 1000), deleting("n3", 2000)), List.of(),
            List.of(new P("p1", 2000, "n3")), DEFAULT_RS, Set.of("n1", "n2"), Set.of("n1", "n2"), Set.of("n3")),
        evicted("all recently evicted pod got rescheduled, all eligible",
            List.of(new N("n1", 1000), new N("n2", 1000), deleting("n3", 2000)), List.of(),
            List.of(new P("p1", 1000, "n3", "rs1"), new P("p2", 1000, "n3", "rs1")), rs1(2), Set.of("n1", "n2"),
            Set.of("n1", "n2"), Set.of("n3")),
        evicted("some recently evicted pod got rescheduled, some eligible",
            List.of(new N("n1", 1000), new N("n2", 1000), deleting("n3", 2000)), List.of(),
            List.of(new P("p1", 1000, "n3", "rs1"), new P("p2", 1000, "n3", "rs1")), rs1(1), Set.of("n1", "n2"),
            Set.of("n1"), Set.of("n2", "n3")),
        evicted("no recently evicted pod got rescheduled, no eligible",
            List.of(new N("n1", 1000), new N("n2", 1000), deleting("n3", 2000)), List.of(),
            List.of(new P("p1", 1000, "n3", "rs1"), new P("p2", 1000, "n3", "rs1")), rs1(0), Set.of("n1", "n2"),
            Set.of(), Set.of("n1", "n2", "n3")),
        evicted("all scheduled and recently evicted pods can schedule elsewhere, all eligible",
            List.of(new N("n1", 1000), new N("n2", 1000), new N("n3", 1000), deleting("n4", 2000)),
            List.of(new P("p1", 250, "n1")), List.of(new P("p2", 250, "n4"), new P("p3", 250, "n4")), DEFAULT_RS,
            Set.of("n1", "n2"), Set.of("n1", "n2"), Set.of("n3", "n4")),
        evicted("some scheduled and recently evicted pods can schedule elsewhere, some eligible",
            List.of(new N("n1", 1000), new N("n2", 1000), new N("n3", 1000), deleting("n4", 2000)),
            List.of(new P("p1", 500, "n1")), List.of(new P("p2", 500, "n4"), new P("p3", 500, "n4")), DEFAULT_RS,
            Set.of("n1", "n2"), Set.of("n1"), Set.of("n2", "n3", "n4")),
        evicted("scheduled and recently evicted pods take all capacity, no eligible",
            List.of(new N("n1", 1000), new N("n2", 1000), new N("n3", 1000), deleting("n4", 2000)),
            List.of(new P("p1", 1000, "n1")), List.of(new P("p2", 1000, "n4"), new P("p3", 1000, "n4")),
            DEFAULT_RS, Set.of("n1", "n2"), Set.of(), Set.of("n1", "n2", "n3", "n4")),
        new Case("Simulation timeout is hitted", List.of(new N("n1", 1000), new N("n2", 1000), new N("n3", 1000)),
            List.of(), List.of(), DEFAULT_RS, Set.of("n1", "n2", "n3"), Set.of("n1"), Set.of(), true));
  }

  static Pod pod(P p) {
    Pod.Builder b = Pod.builder().name(p.name()).nodeName(p.node())
        .container("app", "pause", ResourceList.ofCpuMemory(p.milliCpu(), 1));
    switch (p.owner()) {
      case "" -> { }
      case "static" -> b.annotation(ActuationStatus.CONFIG_SOURCE_ANNOTATION, "file");
      case "mirror" -> b.annotation(Drainability.MIRROR_ANNOTATION, "mirror");
      case "ds" -> b.ownerReference(new OwnerReference("apps/v1", "DaemonSet", "ds", "ds", true, true));
      default -> b.ownerReference(new OwnerReference("apps/v1", "ReplicaSet", p.owner(), p.owner(), true, true));
    }
    return b.build();
  }

  /**
   * Upstream runs one {@code UpdateClusterState} with the case's nodes as candidates, in the order given (no sorting
   * processor), the case's actuation status ({@code fakeActuationStatus}: recent evictions, no deletions in
   * progress), {@code ScaleDownSimulationTimeout} 1 s, and for the timeout case a removal simulator that takes 2 s a
   * node: here a hook advances the clock by 2 s after each node's simulation.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource
  void updateClusterState(Case tc) {
    ManualClock clock = ManualClock.atEpoch2026();
    try (ObjectStore store = ObjectStore.builder().clock(clock).directDelivery().build()) {
      store.create(CaFixtures.pool("ng1", 1000, 1, 0, 100));
      for (RS rs : tc.replicaSets()) {
        store.create(ReplicaSet.builder().name(rs.name()).replicas(rs.spec()).matchLabels(java.util.Map.of("app", "rs"))
            .podSpec(Pod.builder().name("t").container("app", "pause", ResourceList.ofCpuMemory(1, 1)).build().spec())
            .status(new ReplicaSetStatus(rs.status(), 0, 0, 0, 0)).build());
      }
      for (N n : tc.nodes()) {
        Node.Builder b = Node.builder().name(n.name()).label(NodePool.POOL_LABEL, "ng1")
            .capacity(CaFixtures.resources(n.milliCpu(), 10, 100));
        if (n.deleting()) {
          b.taint(Taint.of(ClusterAutoscaler.TO_BE_DELETED_TAINT,
              Long.toString(clock.instant().getEpochSecond()), TaintEffect.NoSchedule));
        }
        store.create(b.build());
      }
      for (P p : tc.pods()) {
        store.create(pod(p));
      }
      ClusterAutoscaler.Builder b = ClusterAutoscaler.builder(store).clock(clock)
          .options(AutoscalerOptions.defaults().withScaleDownSimulationTimeout(Duration.ofSeconds(1)))
          .eligibility(n -> tc.eligible().contains(n.name())).candidatesInNameOrder()
          .actuationStatus(new ActuationStatus(Set.of(), tc.evicted().stream().map(ScaleDownPlannerTest::pod)
              .toList()));
      if (tc.simulationTimeout()) {
        b.afterNodeSimulation(n -> clock.advance(Duration.ofSeconds(2)));
      }
      LoopResult r = b.build().runOnce();
      for (N n : tc.nodes()) {
        assertThat(r.unneededNodes().contains(n.name())).as(n.name() + " unneeded")
            .isEqualTo(tc.wantUnneeded().contains(n.name()));
        assertThat(r.unremovableNodes().containsKey(n.name())).as(n.name() + " unremovable")
            .isEqualTo(tc.wantUnremovable().contains(n.name()));
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
    assertThat(Math.min(100, ScaleDownPlanner.unneededNodesLimit(previouslyUnneeded, maxParallelism, unneededTime,
        updateInterval))).isEqualTo(wantUnneeded);
  }

  /**
   * {@code TestUpdateClusterStatUnneededNodesLimit} as upstream runs it, through one planner update: empty, eligible
   * nodes in one pool ({@code atomic}: {@code ZeroOrMaxNodeScaling}), the first {@code previouslyUnneeded} of them
   * unneeded before and the shortest update interval set (upstream sets {@code unneededNodes} and
   * {@code minUpdateInterval}). The nodes of an atomic pool do not count toward the limit, so all of them are found
   * unneeded.
   */
  static Stream<Arguments> unneededNodesLimitThroughThePlanner() {
    Duration min = Duration.ofMinutes(1);
    return Stream.of(
        Arguments.of("no unneeded, default settings", 0, 100, 10, min, Duration.ofSeconds(10), false, 20),
        Arguments.of("some unneeded, default settings", 3, 100, 10, min, Duration.ofSeconds(10), false, 23),
        Arguments.of("max unneeded, default settings", 70, 100, 10, min, Duration.ofSeconds(10), false, 70),
        Arguments.of("too many unneeded, default settings", 77, 100, 10, min, Duration.ofSeconds(10), false, 70),
        Arguments.of("instant kill nodes", 0, 100, 10, Duration.ZERO, Duration.ofSeconds(10), false, 20),
        Arguments.of("quick loops", 13, 100, 10, min, Duration.ofSeconds(1), false, 33),
        Arguments.of("slow loops", 13, 100, 10, min, Duration.ofSeconds(30), false, 30),
        Arguments.of("atomic sclale down - default settings", 5, 100, 10, min, Duration.ofSeconds(10), true, 100),
        Arguments.of("atomic sclale down - quick loops", 5, 100, 10, min, Duration.ofSeconds(1), true, 100),
        Arguments.of("atomic sclale down - slow loops", 5, 100, 10, min, Duration.ofSeconds(30), true, 100),
        Arguments.of("atomic sclale down - too many unneeded", 77, 100, 10, min, Duration.ofSeconds(30), true, 100),
        Arguments.of("atomic sclale down - no uneeded", 0, 100, 10, min, Duration.ofSeconds(30), true, 100),
        Arguments.of("atomic sclale down - short uneeded time and short update interval", 0, 500, 1,
            Duration.ofSeconds(1), Duration.ofSeconds(1), true, 500));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  void unneededNodesLimitThroughThePlanner(String name, int previouslyUnneeded, int nodes, int maxParallelism,
      Duration unneededTime, Duration updateInterval, boolean atomic, int wantUnneeded) {
    ManualClock clock = ManualClock.atEpoch2026();
    try (ObjectStore store = ObjectStore.builder().clock(clock).directDelivery().build()) {
      NodePool pool = NodePool.builder().name("ng1").capacity(CaFixtures.resources(1000, 10, 100)).maxSize(nodes)
          .zeroOrMaxNodeScaling(atomic).build();
      store.create(pool);
      List<String> previous = new ArrayList<>();
      for (int i = 0; i < nodes; i++) {
        store.create(CaFixtures.poolNode(pool, "n" + i));
        if (i < previouslyUnneeded) {
          previous.add("n" + i);
        }
      }
      ClusterAutoscaler ca = ClusterAutoscaler.builder(store).clock(clock)
          .options(AutoscalerOptions.defaults().withScaleDownUnneededTime(unneededTime)
              .withMaxEmptyBulkDelete(maxParallelism))
          .eligibility(n -> true).candidatesInNameOrder().build();
      ca.plannerState(previous, updateInterval);
      assertThat(ca.runOnce().unneededNodes()).hasSize(wantUnneeded);
    }
  }

  /**
   * An atomic pool ({@code zeroOrMaxNodeScaling}) loses all its nodes in one loop once all are unneeded for the
   * unneeded time, even past the parallelism budget (upstream's CropNodes lets the first atomic group overflow it),
   * and none while one of them stays needed (upstream's AtomicResizeFilteringProcessor).
   */
  @ParameterizedTest(name = "one node blocked: {0}")
  @org.junit.jupiter.params.provider.ValueSource(booleans = {false, true})
  void atomicPool_removedWholeOrNotAtAll(boolean oneBlocked) {
    ManualClock clock = ManualClock.atEpoch2026();
    try (ObjectStore store = ObjectStore.builder().clock(clock).directDelivery().build()) {
      NodePool pool = NodePool.builder().name("slice").capacity(CaFixtures.resources(1000, 10, 100)).maxSize(3)
          .zeroOrMaxNodeScaling(true).build();
      store.create(pool);
      for (int i = 0; i < 3; i++) {
        store.create(CaFixtures.poolNode(pool, "s" + i));
      }
      if (oneBlocked) { // a pod without controller: s0 cannot be drained
        store.create(CaFixtures.barePod("bare", 100, 1).withNodeName("s0"));
      }
      // deletions in the loop that decides them (the delay after the taint is ClusterAutoscalerDeleteDelayTest's)
      ClusterAutoscaler ca = ClusterAutoscaler.builder(store).clock(clock)
          .options(AutoscalerOptions.defaults().withScaleDownUnneededTime(Duration.ofMinutes(1))
              .withMaxEmptyBulkDelete(2).withNodeDeleteDelayAfterTaint(Duration.ZERO))
          .build();
      assertThat(ca.runOnce().deletedNodes()).isEmpty();
      clock.advance(Duration.ofMinutes(1));
      LoopResult r = ca.runOnce();
      if (oneBlocked) {
        assertThat(r.unneededNodes()).containsExactlyInAnyOrder("s1", "s2");
        assertThat(r.deletedNodes()).isEmpty();
        assertThat(store.list(Node.class).items()).hasSize(3);
      } else {
        assertThat(r.deletedNodes()).containsExactlyInAnyOrder("s0", "s1", "s2");
        assertThat(store.list(Node.class).items()).isEmpty();
      }
    }
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
