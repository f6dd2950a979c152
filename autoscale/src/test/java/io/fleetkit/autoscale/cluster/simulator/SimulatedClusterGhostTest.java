package io.fleetkit.autoscale.cluster.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.PodInfos;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.scheduling.Affinity;
import io.fleetkit.api.scheduling.NodeInclusionPolicy;
import io.fleetkit.api.scheduling.PodAffinity;
import io.fleetkit.api.scheduling.PodAffinityTerm;
import io.fleetkit.api.scheduling.Taint;
import io.fleetkit.api.scheduling.TaintEffect;
import io.fleetkit.api.scheduling.TopologySpreadConstraint;
import io.fleetkit.api.scheduling.UnsatisfiableConstraintAction;
import io.fleetkit.scheduler.DefaultPlugins;
import io.fleetkit.scheduler.PluginRegistry;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@link SimulatedCluster#placeElsewhere}: pods moved off a node whose removal is simulated go elsewhere while the
 * node is upstream's ghost (cluster-autoscaler {@code simulator/cluster.go} {@code findPlaceFor} and
 * {@code replaceWithTaintedGhostNode}, branch cluster-autoscaler-release-1.37, commit a16f0ae8): its pods taken off,
 * the node left in the cluster tainted {@code ToBeDeletedByClusterAutoscaler:NoSchedule}.
 *
 * <p>Ported: {@code simulator/cluster_scheduling_test.go} TestTopologySpreadTaintScheduling (2 of 2 cases, the
 * scheduler-side premise of the ghost: with a tainted node and the default {@code nodeTaintsPolicy} the node is a
 * topology domain with no pods, with {@code Honor} it is left out).
 */
final class SimulatedClusterGhostTest {
  private static final Taint GHOST = new Taint("ToBeDeletedByClusterAutoscaler", "1767225600",
      TaintEffect.NoSchedule, null);
  private static final OwnerReference RS = new OwnerReference("apps/v1", "ReplicaSet", "rs", "rs-uid", true, true);

  private static SimulatedCluster cluster() {
    return SimulatedCluster.create(DefaultPlugins.profile(), PluginRegistry.defaults(),
        Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC), Map.of());
  }

  /** Upstream's {@code BuildTestNode(name, 1000, 2000000)} with its hostname label, ready. */
  private static Node node(String name) {
    return node(name, "zone-a");
  }

  private static Node node(String name, String zone) {
    return Node.builder().name(name).label("kubernetes.io/hostname", name).label("topology.kubernetes.io/zone", zone)
        .capacity(ResourceList.builder().put("cpu", "1000m").put("memory", "2000000").put("pods", "100").build())
        .build();
  }

  /** Upstream's {@code BuildTestPod(name, 100, 100000)} of a ReplicaSet, on {@code node} ("" for none). */
  private static Pod.Builder pod(String name, String node) {
    return Pod.builder().namespace("default").name(name).uid(name).nodeName(node).ownerReference(RS)
        .container("c", "img", ResourceList.ofCpuMemory(100, 100_000));
  }

  /** The constraint of the upstream tests: maxSkew 1 over hostnames, DoNotSchedule, pods labelled app=topo-app. */
  private static TopologySpreadConstraint spread(NodeInclusionPolicy taints, Integer minDomains) {
    return new TopologySpreadConstraint(1, "kubernetes.io/hostname", UnsatisfiableConstraintAction.DoNotSchedule,
        LabelSelector.of(Map.of("app", "topo-app")), minDomains, NodeInclusionPolicy.Honor, taints, List.of());
  }

  private static Pod topoPod(String name, String node, TopologySpreadConstraint c) {
    return pod(name, node).label("app", "topo-app").topologySpreadConstraint(c).build();
  }

  private static List<PodInfo> unbound(Pod... pods) {
    List<PodInfo> out = new ArrayList<>();
    for (Pod p : pods) {
      out.add(PodInfos.of(p.withNodeName("")));
    }
    return out;
  }

  private static String nodeOf(SimulatedCluster sim, String pod) {
    String found = "";
    for (NodeInfo n : sim.nodes()) {
      for (PodInfo pi : n.pods()) {
        if (pi.pod().metadata().name().equals(pod) && pi.pod().spec().nodeName().isEmpty()) {
          found = n.name();
        }
      }
    }
    return found;
  }

  /**
   * TestTopologySpreadTaintScheduling: node1 tainted ToBeDeleted with no pods (its pod evicted), one pod on each of
   * node2 and node3; the replacement pod fits nowhere with the default policy (node1 a domain with 0 pods, skew 2 on
   * node2 and node3; node1 itself refused by TaintToleration), and on node2 or node3 with Honor.
   */
  @ParameterizedTest(name = "nodeTaintsPolicy {0}")
  @EnumSource(NodeInclusionPolicy.class)
  void topologySpreadTaintScheduling(NodeInclusionPolicy policy) {
    TopologySpreadConstraint c = spread(policy, null);
    SimulatedCluster sim = cluster();
    Node tainted = node("node1").toBuilder().taint(GHOST).build();
    sim.load(List.of(tainted, node("node2"), node("node3")),
        List.of(topoPod("tsc-pod-node2", "node2", c), topoPod("tsc-pod-node3", "node3", c)));
    String found = sim.findFit(PodInfos.of(topoPod("replacement-pod", "", c)), n -> true);
    if (policy == NodeInclusionPolicy.Ignore) {
      assertThat(found).as("post-taint scheduling fails with default nodeTaintsPolicy").isNull();
    } else {
      assertThat(found).as("post-taint scheduling succeeds with nodeTaintsPolicy Honor").isIn("node2", "node3");
    }
  }

  /**
   * The ghost is a topology domain without pods (upstream's TestSimulateNodeRemoval "node unremovable due to phantom
   * zone"): the moved pod's own copy on the node no longer counts, so with the default policy the minimum is 0 and
   * the pod fits nowhere; with the node left in place, its pods counted, the pod would fit on node2.
   */
  @Test
  void ghost_isADomainWithoutPods_withTheDefaultTaintsPolicy() {
    TopologySpreadConstraint c = spread(NodeInclusionPolicy.Ignore, 2);
    SimulatedCluster sim = cluster();
    Pod moving = topoPod("default-tsc-pod-n1", "topo-n1", c);
    sim.load(List.of(node("topo-n1"), node("topo-n2"), node("topo-n3")), List.of(moving,
        topoPod("default-tsc-pod-n2", "topo-n2", c), topoPod("default-tsc-pod-n3", "topo-n3", c),
        pod("blocker-n2", "topo-n2").build(), pod("blocker-n3", "topo-n3").build()));
    NodeInfo before = sim.nodeInfoAt(0);

    assertThat(sim.placeElsewhere(unbound(moving), new int[] {0}, 0, null, GHOST)).isFalse();
    assertThat(sim.nodeInfoAt(0)).as("the node as it was").isSameAs(before);
    assertThat(sim.nodes().stream().mapToInt(n -> n.pods().size()).sum()).isEqualTo(5);

    // the node with its pods, as FleetKit simulated it before the ghost: the pod's original still counts there
    assertThat(sim.placeAll(unbound(moving), new int[] {0}, 0)).isTrue();
  }

  /**
   * With {@code nodeTaintsPolicy: Honor} the ghost's taint, which the pod does not tolerate, leaves it out of the
   * domains (upstream's "node removable with nodeTaintsPolicy Honor"): the pod moves to node2 or node3. A ghost
   * without the taint would be a domain with no pods and the pod would fit nowhere.
   */
  @Test
  void ghost_isLeftOutOfTheDomains_whenTheConstraintHonorsTaints() {
    TopologySpreadConstraint c = spread(NodeInclusionPolicy.Honor, 2);
    SimulatedCluster sim = cluster();
    Pod moving = topoPod("honor-tsc-pod-n1", "topo-n1", c);
    sim.load(List.of(node("topo-n1"), node("topo-n2"), node("topo-n3")), List.of(moving,
        topoPod("honor-tsc-pod-n2", "topo-n2", c), topoPod("honor-tsc-pod-n3", "topo-n3", c)));

    assertThat(sim.placeElsewhere(unbound(moving), new int[] {0}, 0, null, GHOST)).isTrue();
    assertThat(nodeOf(sim, "honor-tsc-pod-n1")).isIn("topo-n2", "topo-n3");
    assertThat(sim.nodeInfoAt(0).node().spec().taints()).as("the node is back, untainted").isEmpty();
    assertThat(sim.nodeInfoAt(0).pods()).hasSize(1);
  }

  /**
   * The ghost has no pods: a pod with zone anti-affinity against its own label, moved off the only node of its zone
   * with such a pod, may go to another node of that zone (upstream unschedules the pods to move first, and its ghost
   * holds none); with its original still on the node the zone is closed to it.
   */
  @Test
  void ghost_hasNoPods_soAMovedPodDoesNotRepelItself() {
    PodAffinityTerm zone = PodAffinityTerm.of(LabelSelector.of(Map.of("app", "web")), "topology.kubernetes.io/zone");
    Pod moving = pod("web-0", "n1").label("app", "web")
        .affinity(new Affinity(null, null, new PodAffinity(List.of(zone), List.of()))).build();
    SimulatedCluster sim = cluster();
    sim.load(List.of(node("n1", "zone-a"), node("n2", "zone-a"), node("n3", "zone-b")),
        List.of(moving, pod("web-1", "n3").label("app", "web").build()));

    assertThat(sim.placeAll(unbound(moving), new int[] {0}, 0)).as("its original repels it").isFalse();
    assertThat(sim.placeElsewhere(unbound(moving), new int[] {0}, 0, null, GHOST)).isTrue();
    assertThat(nodeOf(sim, "web-0")).isEqualTo("n2");
  }

  /** A pod that tolerates every taint still never goes back to the node it leaves. */
  @Test
  void ghost_isNoDestination_evenForAPodToleratingEveryTaint() {
    Pod moving = pod("tolerant", "n1").toleration(io.fleetkit.api.scheduling.Toleration.exists("", null)).build();
    SimulatedCluster sim = cluster();
    Pod big = Pod.builder().namespace("default").name("big").nodeName("n2").ownerReference(RS)
        .container("c", "img", ResourceList.ofCpuMemory(950, 100_000)).build();
    sim.load(List.of(node("n1"), node("n2")), List.of(moving, big));
    assertThat(sim.placeElsewhere(unbound(moving), new int[] {0}, 0, null, GHOST)).isFalse();
  }

  /**
   * Pods whose Filter reads only their destination (no affinity, no spread constraint) are placed without a ghost
   * being made: the node's view is the same object afterwards, and the placements are those with a ghost.
   */
  @Test
  void podsDecidedOnTheDestinationAlone_needNoGhost() {
    SimulatedCluster sim = cluster();
    Pod a = pod("a", "n1").build();
    Pod b = pod("b", "n1").build();
    sim.load(List.of(node("n1"), node("n2"), node("n3")), List.of(a, b));
    NodeInfo before = sim.nodeInfoAt(0);
    int[] cursor = {1};
    assertThat(sim.placeElsewhere(unbound(a, b), cursor, 0, null, GHOST)).isTrue();
    assertThat(sim.nodeInfoAt(0)).isSameAs(before);
    assertThat(nodeOf(sim, "a")).isEqualTo("n2");
    assertThat(nodeOf(sim, "b")).isEqualTo("n3");
    assertThat(cursor[0]).isEqualTo(3);
  }
}
