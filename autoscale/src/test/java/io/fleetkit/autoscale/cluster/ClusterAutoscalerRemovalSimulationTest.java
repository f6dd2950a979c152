package io.fleetkit.autoscale.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.autoscaling.NodePool;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.scheduling.NodeInclusionPolicy;
import io.fleetkit.api.scheduling.TopologySpreadConstraint;
import io.fleetkit.api.scheduling.UnsatisfiableConstraintAction;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * One node's removal simulation in a scale-down evaluation: cluster-autoscaler {@code simulator/cluster_test.go}
 * TestSimulateNodeRemoval (branch cluster-autoscaler-release-1.37, commit a16f0ae8), 7 of 8 cases. Each case's node is
 * the only scale-down candidate (eligible as upstream's test calls {@code SimulateNodeRemoval} on it alone), every node
 * is a destination, no budgets; upstream's {@code NodeToBeRemoved} is the node found unneeded, its
 * {@code UnremovableNode} the node's reason. Nodes are upstream's {@code BuildTestNode(name, 1000, 2000000)} with the
 * hostname label, pods its {@code BuildTestPod(name, 100, 100000)}; names are lower-cased. Skipped: "candidate not in
 * clusterSnapshot should be marked unremovable" ({@code NoNodeInfo}): FleetKit's candidates are the simulation's own
 * nodes.
 *
 * <p>The two topology spread cases need upstream's ghost ({@code replaceWithTaintedGhostNode}): the node stays in the
 * cluster, pod-less and tainted {@code ToBeDeletedByClusterAutoscaler:NoSchedule}, while its pods look for a place.
 */
final class ClusterAutoscalerRemovalSimulationTest {
  private static final LabelSelector TOPO = LabelSelector.of(Map.of("app", "topo-app"));

  private static Node node(String name) {
    return Node.builder().name(name).label(NodePool.POOL_LABEL, "ng1").label("kubernetes.io/hostname", name)
        .capacity(CaFixtures.resources(1000, 2_000_000, 100)).build();
  }

  /** {@code BuildTestPod(name, cpu, 100000)} on {@code node}, of the ReplicaSet when {@code replicated}. */
  private static Pod.Builder pod(String name, long cpu, String node, boolean replicated) {
    Pod.Builder b = Pod.builder().name(name).nodeName(node).terminationGracePeriodSeconds(0)
        .container("app", "pause", ResourceList.ofCpuMemory(cpu, 100_000));
    return replicated ? b.ownerReference(CaFixtures.RS) : b;
  }

  private static Pod topoPod(String name, String node, NodeInclusionPolicy taints) {
    TopologySpreadConstraint c = new TopologySpreadConstraint(1, "kubernetes.io/hostname",
        UnsatisfiableConstraintAction.DoNotSchedule, TOPO, 2, NodeInclusionPolicy.Honor, taints, List.of());
    return pod(name, 100, node, true).label("app", "topo-app").topologySpreadConstraint(c).build();
  }

  static Stream<Arguments> simulateNodeRemoval() {
    Pod drainableA = pod("drainable-rs-pod-a", 100, "n2", true).build();
    Pod drainableB = pod("drainable-rs-pod-b", 100, "n2", true).build();
    Pod standalone = pod("standalone-on-non-drainable", 100, "n3", false).build();
    Pod large = pod("large-pod-on-full", 1000, "n4", false).build();
    NodeInclusionPolicy ignore = NodeInclusionPolicy.Ignore;
    NodeInclusionPolicy honor = NodeInclusionPolicy.Honor;
    return Stream.of(
        Arguments.of("just an empty node, should be removed", List.of("n1"), List.of(), "n1", null),
        Arguments.of("just a drainable node, but nowhere for pods to go to", List.of("n2"),
            List.of(drainableA, drainableB), "n2", ClusterAutoscaler.NO_PLACE_TO_MOVE_PODS),
        Arguments.of("drainable node, and a mostly empty node that can take its pods", List.of("n2", "n3"),
            List.of(drainableA, drainableB, standalone), "n2", null),
        Arguments.of("drainable node, and a full node that cannot fit anymore pods", List.of("n2", "n4"),
            List.of(drainableA, drainableB, large), "n2", ClusterAutoscaler.NO_PLACE_TO_MOVE_PODS),
        Arguments.of("4 nodes, 1 empty, 1 drainable", List.of("n1", "n2", "n4", "n3"),
            List.of(drainableA, drainableB, standalone, large), "n1", null),
        Arguments.of("topology spread constraint test - node unremovable due to phantom zone",
            List.of("topo-n1", "topo-n2", "topo-n3"), List.of(topoPod("default-tsc-pod-n1", "topo-n1", ignore),
                topoPod("default-tsc-pod-n2", "topo-n2", ignore), topoPod("default-tsc-pod-n3", "topo-n3", ignore),
                pod("blocker-n2", 100, "topo-n2", false).build(), pod("blocker-n3", 100, "topo-n3", false).build()),
            "topo-n1", ClusterAutoscaler.NO_PLACE_TO_MOVE_PODS),
        Arguments.of("topology spread constraint test - node removable with nodeTaintsPolicy Honor",
            List.of("topo-n1", "topo-n2", "topo-n3"), List.of(topoPod("honor-tsc-pod-n1", "topo-n1", honor),
                topoPod("honor-tsc-pod-n2", "topo-n2", honor), topoPod("honor-tsc-pod-n3", "topo-n3", honor)),
            "topo-n1", null));
  }

  /**
   * @param unremovable the reason the node is unremovable ({@code null}: it is removable, i.e. unneeded)
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource
  void simulateNodeRemoval(String desc, List<String> nodes, List<Pod> pods, String candidate,
      @Nullable String unremovable) {
    ManualClock clock = ManualClock.atEpoch2026();
    try (ObjectStore store = ObjectStore.builder().clock(clock).directDelivery().build()) {
      store.create(CaFixtures.pool("ng1", 1000, 1, 0, 100));
      for (String n : nodes) {
        store.create(node(n));
      }
      for (Pod p : pods) {
        store.create(p);
      }
      LoopResult r = ClusterAutoscaler.builder(store).clock(clock).eligibility(n -> n.name().equals(candidate))
          .candidatesInNameOrder().build().runOnce();
      if (unremovable == null) {
        assertThat(r.unneededNodes()).containsExactly(candidate);
      } else {
        assertThat(r.unneededNodes()).isEmpty();
        assertThat(r.unremovableNodes()).containsEntry(candidate, unremovable);
      }
      assertThat(r.deletionsStarted()).isEmpty();
    }
  }
}
