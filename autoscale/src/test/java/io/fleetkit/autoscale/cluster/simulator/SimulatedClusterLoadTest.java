package io.fleetkit.autoscale.cluster.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.PodInfos;
import io.fleetkit.scheduler.DefaultPlugins;
import io.fleetkit.scheduler.PluginRegistry;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Loading nodes and pods at once: the same views as adding them one by one, and reuse through a ViewCache. */
final class SimulatedClusterLoadTest {
  private static final ResourceList CAP = ResourceList.builder().put("cpu", "4").put("memory", "8Gi")
      .put("pods", "110").build();

  private static SimulatedCluster cluster() {
    return SimulatedCluster.create(DefaultPlugins.profile(), PluginRegistry.defaults(),
        Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC), Map.of());
  }

  private static Node node(String name, String zone) {
    return Node.builder().name(name).label("zone", zone).capacity(CAP).build();
  }

  private static Pod pod(String name, String node, long milli) {
    return Pod.builder().namespace("default").name(name).uid("uid-" + name)
        .spec(PodSpec.builder().container("c", "img", ResourceList.ofCpuMemory(milli, 0)).nodeName(node).build())
        .build();
  }

  private static List<String> describe(SimulatedCluster c) {
    List<String> out = new ArrayList<>();
    for (NodeInfo n : c.nodes()) {
      out.add(n.name() + " " + n.requested().milliCpu() + "m " + n.podCount() + " pods "
          + n.pods().stream().map(p -> p.key()).toList() + " " + n.nonZeroRequestedMilliCpu());
    }
    return out;
  }

  @Test
  void load_sameViewsAsAddingOneByOne() {
    List<Node> nodes = List.of(node("n1", "a"), node("n2", "b"), node("n3", "a"));
    List<Pod> pods = List.of(pod("p1", "n1", 100), pod("p2", "n2", 200), pod("p3", "n1", 300), pod("p4", "", 50),
        pod("p5", "gone", 10));
    SimulatedCluster bulk = cluster();
    bulk.load(nodes, pods);
    SimulatedCluster single = cluster();
    for (Node n : nodes) {
      single.addNode(n);
    }
    for (Pod p : pods) {
      if (p.isBound() && single.hasNode(p.spec().nodeName())) {
        single.addPod(p.spec().nodeName(), PodInfos.of(p));
      }
    }
    assertThat(describe(bulk)).isEqualTo(describe(single))
        .containsExactly("n1 400m 2 pods [default/p1, default/p3] 400", "n2 200m 1 pods [default/p2] 200",
            "n3 0m 0 pods [] 0");
  }

  @Test
  void viewCache_reusesUnchangedNodes_rebuildsChangedOnes() {
    SimulatedCluster.ViewCache cache = new SimulatedCluster.ViewCache();
    List<Node> nodes = new ArrayList<>(List.of(node("n1", "a"), node("n2", "b"), node("n3", "a")));
    List<Pod> pods = new ArrayList<>(List.of(pod("p1", "n1", 100), pod("p2", "n2", 200)));
    SimulatedCluster first = cluster();
    first.load(nodes, pods, PodInfos::of, cache);
    SimulatedCluster second = cluster();
    second.load(nodes, pods, PodInfos::of, cache);
    for (String n : List.of("n1", "n2", "n3")) {
      assertThat(second.nodeInfo(n)).as(n).isSameAs(first.nodeInfo(n));
    }
    // a pod moves onto n3, n2 gets a new label: n1 keeps its view, n2 and n3 are rebuilt
    pods.set(1, pod("p2", "n3", 200));
    nodes.set(1, Node.builder().name("n2").label("zone", "c").capacity(CAP).build());
    SimulatedCluster third = cluster();
    third.load(nodes, pods, PodInfos::of, cache);
    assertThat(third.nodeInfo("n1")).isSameAs(first.nodeInfo("n1"));
    assertThat(third.nodeInfo("n2")).isNotSameAs(first.nodeInfo("n2"));
    assertThat(third.nodeInfo("n2").labels()).containsEntry("zone", "c");
    assertThat(third.nodeInfo("n2").podCount()).isZero();
    assertThat(third.nodeInfo("n3").requested().milliCpu()).isEqualTo(200);
    // changes made to one simulated cluster never reach the cached views
    third.removePod("n3", "default/p2");
    SimulatedCluster fourth = cluster();
    fourth.load(nodes, pods, PodInfos::of, cache);
    assertThat(fourth.nodeInfo("n3").requested().milliCpu()).isEqualTo(200);
  }

  @Test
  void loadByNode_sameViewsAsLoadingTheList_andReusesUnchangedLists() {
    List<Node> nodes = List.of(node("n1", "a"), node("n2", "b"), node("n3", "a"));
    List<Pod> pods = List.of(pod("p1", "n1", 100), pod("p2", "n2", 200), pod("p3", "n1", 300));
    SimulatedCluster fromList = cluster();
    fromList.load(nodes, pods);
    Map<String, List<io.fleetkit.api.framework.PodInfo>> byNode = Map.of(
        "n1", List.of(PodInfos.of(pods.get(0)), PodInfos.of(pods.get(2))), "n2", List.of(PodInfos.of(pods.get(1))));
    SimulatedCluster.ViewCache cache = new SimulatedCluster.ViewCache();
    SimulatedCluster first = cluster();
    first.load(nodes, n -> byNode.getOrDefault(n, List.of()), cache);
    assertThat(describe(first)).isEqualTo(describe(fromList));
    SimulatedCluster second = cluster();
    second.load(nodes, n -> byNode.getOrDefault(n, List.of()), cache);
    assertThat(second.nodeInfo("n1")).isSameAs(first.nodeInfo("n1"));
    assertThat(second.nodeInfo("n3")).isSameAs(first.nodeInfo("n3"));
  }

  @Test
  void removeNode_keepsTheOrderAndLaterChangesFindTheirNode() {
    SimulatedCluster c = cluster();
    for (String n : List.of("a", "b", "c", "d", "e", "f")) {
      c.addNode(node(n, "z"));
    }
    c.removeNode("d");
    c.removeNode("b");
    c.addNode(node("g", "z"));
    c.addPod("e", PodInfos.of(pod("p1", "e", 100)));
    c.addPod("g", PodInfos.of(pod("p2", "g", 200)));
    c.addPod("a", PodInfos.of(pod("p3", "a", 300)));
    c.removeNode("a");
    c.addPod("f", PodInfos.of(pod("p4", "f", 400)));
    assertThat(describe(c)).containsExactly("c 0m 0 pods [] 0", "e 100m 1 pods [default/p1] 100",
        "f 400m 1 pods [default/p4] 400", "g 200m 1 pods [default/p2] 200");
    for (NodeInfo n : c.nodes()) {
      assertThat(c.nodeInfo(n.name())).isSameAs(n);
    }
  }

  /**
   * The profile's per-point settings hold in the simulation as in the scheduler: TaintToleration disabled at
   * {@code filter} (kept for scoring) lets a pod without a toleration onto a tainted node; NodeResourcesFit disabled
   * at {@code score} only still filters.
   */
  @Test
  void create_perPointSettings_decideTheFilters() {
    Node tainted = Node.builder().name("t1").capacity(CAP)
        .taint(new io.fleetkit.api.scheduling.Taint("dedicated", "gpu", io.fleetkit.api.scheduling.TaintEffect.NoSchedule, null))
        .build();
    Pod small = pod("small", "", 100);
    Pod huge = pod("huge", "", 8000);
    Clock clock = Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC);

    SimulatedCluster defaults = cluster();
    defaults.addNode(tainted);
    assertThat(defaults.check(PodInfos.of(small), "t1").isSuccess()).as("kube's default profile").isFalse();

    var profile = DefaultPlugins.profile().toBuilder()
        .disableAt(io.fleetkit.api.framework.ExtensionPoint.FILTER, "TaintToleration")
        .disableAt(io.fleetkit.api.framework.ExtensionPoint.SCORE, "NodeResourcesFit").build();
    SimulatedCluster perPoint = SimulatedCluster.create(profile, PluginRegistry.defaults(), clock, Map.of());
    perPoint.addNode(tainted);
    assertThat(perPoint.check(PodInfos.of(small), "t1").isSuccess()).as("taints not filtered").isTrue();
    assertThat(perPoint.check(PodInfos.of(huge), "t1").isSuccess()).as("resources still filtered").isFalse();
  }
}
