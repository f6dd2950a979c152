package io.fleetkit.autoscale.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Container;
import io.fleetkit.api.core.EnvVar;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.scheduling.NodeInclusionPolicy;
import io.fleetkit.api.scheduling.TopologySpreadConstraint;
import io.fleetkit.api.scheduling.UnsatisfiableConstraintAction;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.time.ManualClock;
import io.fleetkit.autoscale.cluster.simulator.SimulatedCluster;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

/**
 * Ported from kubernetes/autoscaler cluster-autoscaler/estimator/binpacking_estimator_test.go (branch
 * cluster-autoscaler-release-1.37, commit a16f0ae8; the file last changed in 6427281f), TestBinpackingEstimate: every
 * case (upstream runs each single-group case again with its fast path on and expects the same; FleetKit has no fast
 * path, its "fastpath" case is the simple one again). Memory is in MiB on nodes and bytes on pods, as upstream's
 * helpers build them. Then FleetKit's own: the searches among the new nodes go on from the shared search position.
 */
final class BinpackingEstimatorTest {
  private static final OwnerReference OWNER = new OwnerReference("apps/v1", "ReplicaSet", "estimatee", "rs-1", true,
      true);

  record Case(String name, long millicores, long memoryMi, int maxNodes, List<Pod> pods, int expectNodes,
      int expectPods) {
    @Override
    public String toString() {
      return name;
    }
  }

  private static Node node(long cpu, long memMi, long pods, String name, String zone) {
    return Node.builder().name(name).label("kubernetes.io/hostname", name).label("topology.kubernetes.io/zone", zone)
        .capacity(CaFixtures.resources(cpu, memMi * CaFixtures.MI, pods)).ready().build();
  }

  private static List<Pod> group(String name, long cpu, long memBytes, int count,
      @org.jspecify.annotations.Nullable TopologySpreadConstraint spread) {
    List<Pod> out = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      Pod.Builder b = Pod.builder().name(name + "-" + i).namespace("universe").label("app", "estimatee")
          .ownerReference(OWNER).container("c", "pause", ResourceList.ofCpuMemory(cpu, memBytes));
      if (spread != null) {
        b.topologySpreadConstraint(spread);
      }
      out.add(b.build());
    }
    return out;
  }

  /** Upstream's {@code makePods} with a host port: every pod binds {@code hostPort} on its node. */
  private static List<Pod> withHostPort(List<Pod> pods, int hostPort) {
    List<Pod> out = new ArrayList<>();
    for (Pod p : pods) {
      io.fleetkit.api.core.Container c = p.spec().containers().get(0);
      out.add(p.withSpec(p.spec().toBuilder().containers(List.of(new io.fleetkit.api.core.Container(c.name(),
          c.image(), c.resources(), List.of(new io.fleetkit.api.core.ContainerPort("", hostPort, "TCP", hostPort)),
          List.of(), null))).build()));
    }
    return out;
  }

  private static TopologySpreadConstraint skew(int maxSkew, String key, int minDomains) {
    return new TopologySpreadConstraint(maxSkew, key, UnsatisfiableConstraintAction.DoNotSchedule,
        LabelSelector.of(Map.of("app", "estimatee")), minDomains, NodeInclusionPolicy.Honor,
        NodeInclusionPolicy.Ignore, List.of());
  }

  static List<Case> cases() {
    List<Pod> decreasing = new ArrayList<>(group("small", 50, 1000, 10, null));
    decreasing.addAll(group("high", 500, 1000, 10, null));
    return List.of(
        new Case("simple resource-based binpacking", 350 * 3 - 50, 2 * 1000, 0, group("e", 350, 1000, 10, null), 5, 10),
        new Case("pods-per-node bound binpacking", 10000, 20000, 0, group("e", 10, 100, 20, null), 2, 20),
        new Case("hostport conflict forces pod-per-node", 1000, 5000, 0,
            withHostPort(group("e", 200, 1000, 8, null), 5555), 8, 8),
        new Case("limiter cuts binpacking", 1000, 5000, 5, group("e", 500, 1000, 20, null), 5, 10),
        new Case("decreasing ordered pods are processed first", 1000, 5000, 5, decreasing, 5, 10),
        new Case("hostname topology spreading with maxSkew=2 forces 2 pods/node", 1000, 5000, 0,
            group("e", 200, 200, 8, skew(2, "kubernetes.io/hostname", 1)), 4, 8),
        new Case("zonal topology spreading with maxSkew=2 only allows 2 pods to schedule", 1000, 5000, 0,
            group("e", 20, 100, 8, skew(2, "topology.kubernetes.io/zone", 1)), 1, 2),
        new Case("hostname topology spreading with maxSkew=1 with a large scaleup handles scheduling pods "
            + "retroactively", 1000, 5000, 0, group("e", 20, 100, 12, skew(1, "kubernetes.io/hostname", 3)), 3, 12),
        new Case("fastpath - simple resource-based binpacking", 350 * 3 - 50, 2 * 1000, 0,
            group("e", 350, 1000, 10, null), 5, 10));
  }

  @ParameterizedTest
  @MethodSource("cases")
  void estimate_upstreamTestBinpackingEstimate_matchesExpectedCounts(Case c) {
    SimulatedCluster sim = SimulatedCluster.withDefaults(ManualClock.atEpoch2026());
    // upstream: one node in a different zone, to trigger topology spread constraints
    sim.addNode(node(100, 100, 10, "oldnode", "zone-jupiter"));
    BinpackingEstimator.Estimate e = BinpackingEstimator.estimate(sim, c.pods(),
        i -> node(c.millicores(), c.memoryMi(), 10, "template-" + i, "zone-mars"),
        c.maxNodes() == 0 ? Integer.MAX_VALUE : c.maxNodes());
    assertThat(e.nodeCount()).isEqualTo(c.expectNodes());
    assertThat(e.pods()).hasSize(c.expectPods());
    if (c.name().startsWith("decreasing")) {
      assertThat(e.pods()).allSatisfy(p -> assertThat(p.metadata().name()).startsWith("high-"));
    }
    assertThat(sim.size()).as("the simulation is left as found").isEqualTo(1);
  }

  @Test
  void estimate_podTooBigForTemplate_needsNoNode() {
    SimulatedCluster sim = SimulatedCluster.withDefaults(ManualClock.atEpoch2026());
    BinpackingEstimator.Estimate e = BinpackingEstimator.estimate(sim, group("big", 5000, 1000, 3, null),
        i -> node(4000, 8000, 110, "t-" + i, "z"), 10);
    assertThat(e.nodeCount()).isZero();
    assertThat(e.pods()).isEmpty();
  }

  @Test
  void estimate_podLevelRequests_packedByThePodBudget() {
    // Containers ask 100m each, the pod level 500m (KEP-2837): a 1-cpu template holds two pods, not ten.
    List<Pod> pods = new ArrayList<>();
    for (Pod p : group("budget", 100, 1000, 10, null)) {
      pods.add(p.withSpec(p.spec().toBuilder().resources(ResourceList.ofCpuMemory(500, 1000), ResourceList.EMPTY)
          .build()));
    }
    assertThat(pods.get(0).effectiveRequests().milliCpu()).isEqualTo(500);
    SimulatedCluster sim = SimulatedCluster.withDefaults(ManualClock.atEpoch2026());
    BinpackingEstimator.Estimate e = BinpackingEstimator.estimate(sim, pods,
        i -> node(1000, 5000, 110, "t-" + i, "z"), Integer.MAX_VALUE);
    assertThat(e.nodeCount()).isEqualTo(5);
    assertThat(e.pods()).hasSize(10);
  }

  /**
   * Upstream's {@code tryToScheduleOnExistingNodes} searches with {@code SchedulePodOnAnyNodeMatching}, from the plugin
   * runner's {@code lastIndex} that all the autoscaler's searches share: two 600m pods take a new 1-CPU node each,
   * then a 300m pod is searched for among them from the position, which the node found moves. The node list is the
   * existing node {@code old} and the new nodes {@code t-0}, {@code t-1}.
   */
  @Test
  void estimate_searchesAmongTheNewNodesFromTheSharedPosition_andMovesIt() {
    // a fresh position (index 1: t-0) finds t-0, index 1; from index 2, t-1 (index 2); an index past the list is
    // taken modulo its 3 nodes (5 -> 2: t-1), and one on the existing node (index 0) starts at the first new node
    assertThat(positionAfterSmallPod(null)).isEqualTo(2);
    assertThat(positionAfterSmallPod(1)).isEqualTo(3);
    assertThat(positionAfterSmallPod(4)).isEqualTo(3);
    assertThat(positionAfterSmallPod(2)).isEqualTo(2);
  }

  /** The position after the estimate, started after a search found index {@code lastFound} (null: a new one). */
  private static int positionAfterSmallPod(@org.jspecify.annotations.Nullable Integer lastFound) {
    SimulatedCluster sim = SimulatedCluster.withDefaults(ManualClock.atEpoch2026());
    sim.addNode(node(4000, 8000, 110, "old", "z"));
    SearchPosition position = new SearchPosition();
    if (lastFound != null) {
      position.found(lastFound);
    }
    List<Pod> pods = new ArrayList<>(group("big", 600, 1000, 2, null));
    pods.add(Pod.builder().name("small").namespace("universe").container("c", "pause",
        ResourceList.ofCpuMemory(300, 1000)).build());
    BinpackingEstimator.Estimate e = BinpackingEstimator.estimate(sim, BinpackingEstimator.PodGroups.of(pods),
        i -> node(1000, 5000, 110, "t-" + i, "z"), n -> List.of(), n -> List.of(), 10, position);
    assertThat(e.nodeCount()).isEqualTo(2);
    assertThat(e.pods()).extracting(p -> p.metadata().name()).containsExactly("big-0", "big-1", "small");
    return position.next();
  }
  /**
   * Upstream's {@code groupPodsBySchedulingProperties} groups by controller, labels and {@code PodSpecSemanticallyEqual}
   * specs, and a group's pods are placed together. Pods of one controller whose specs differ only in hostname and
   * {@code env} are one group (placed before a pod between them in the list); a pod with other labels is a group of its
   * own (placed after it). All pods are alike in size, so the sort keeps first appearances.
   */
  @Test
  void podsDifferingInHostnameAndEnv_groupTogether_unlessTheirLabelsDiffer() {
    Pod lone = Pod.builder().name("lone").namespace("universe").container("c", "pause",
        ResourceList.ofCpuMemory(300, 1000)).build();
    assertThat(placementOrder(List.of(variant("x1", "w", "h1", "1"), lone, variant("x2", "w", "h2", "2"))))
        .containsExactly("x1", "x2", "lone");
    assertThat(placementOrder(List.of(variant("x1", "w", "h1", "1"), lone, variant("x2", "other", "h1", "1"))))
        .containsExactly("x1", "lone", "x2");
  }

  private static List<String> placementOrder(List<Pod> pods) {
    SimulatedCluster sim = SimulatedCluster.withDefaults(ManualClock.atEpoch2026());
    BinpackingEstimator.Estimate e = BinpackingEstimator.estimate(sim, pods,
        i -> node(1000, 5000, 110, "t-" + i, "z"), 10);
    return e.pods().stream().map(p -> p.metadata().name()).toList();
  }

  private static Pod variant(String name, String app, String hostname, String env) {
    Container c = Container.of("c", "pause", ResourceList.ofCpuMemory(300, 1000))
        .withEnv(List.of(new EnvVar("INDEX", env)));
    return Pod.builder().name(name).namespace("universe").label("app", app).ownerReference(OWNER)
        .spec(PodSpec.builder().container(c).hostname(hostname).build()).build();
  }
}
