package io.fleetkit.autoscale.cluster.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.PodInfos;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.scheduler.DefaultPlugins;
import io.fleetkit.scheduler.PluginRegistry;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The drain simulation's placement with hints, as cluster-autoscaler's {@code HintingSimulator}: cases of
 * {@code simulator/scheduling/hinting_simulator_test.go} (kubernetes/autoscaler commit 30156580), TestTrySchedulePods
 * 6/6 and TestPodSchedulesOnHintedNode 4/4. Upstream's {@code isNodeAcceptable} is FleetKit's excluded slot (the
 * node being drained); {@code placeAll} is {@code TrySchedulePods} with {@code breakOnFailure}, all or nothing as its
 * caller {@code findPlaceFor} uses it: in the two cases where a pod fits nowhere upstream's statuses (run without
 * {@code breakOnFailure}) list the pods placed before it, which here are the pods hinted, their placements undone.
 */
final class SimulatedClusterHintsTest {
  private static SimulatedCluster cluster() {
    return SimulatedCluster.create(DefaultPlugins.profile(), PluginRegistry.defaults(),
        Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC), Map.of());
  }

  /** Upstream's {@code BuildTestNode(name, cpu, mem)}: cpu in millicores, memory in bytes, 100 pods. */
  private static Node node(String name, long cpu, long mem) {
    return Node.builder().name(name).capacity(ResourceList.builder().put("cpu", cpu + "m").put("memory",
        String.valueOf(mem)).put("pods", "100").build()).build();
  }

  /** Upstream's {@code BuildTestPod(name, cpu, mem)} (its UID is its name), on {@code node} ("" for none). */
  private static Pod pod(String name, long cpu, long mem, String node) {
    return Pod.builder().namespace("default").name(name).uid(name).nodeName(node)
        .container("c", "img", ResourceList.ofCpuMemory(cpu, mem)).build();
  }

  private static List<PodInfo> infos(Pod... pods) {
    List<PodInfo> out = new ArrayList<>();
    for (Pod p : pods) {
      out.add(PodInfos.of(p));
    }
    return out;
  }

  private static String nodeOf(SimulatedCluster sim, String pod) {
    for (NodeInfo n : sim.nodes()) {
      for (PodInfo pi : n.pods()) {
        if (pi.pod().metadata().name().equals(pod)) {
          return n.name();
        }
      }
    }
    return "";
  }

  private static int podCount(SimulatedCluster sim) {
    return sim.nodes().stream().mapToInt(n -> n.pods().size()).sum();
  }

  static Stream<Arguments> trySchedulePods() {
    Pod p1 = pod("p1", 300, 500_000, "n1");
    return Stream.of(
        Arguments.of("two new pods, two nodes", List.of(pod("p2", 800, 500_000, ""), pod("p3", 500, 500_000, "")),
            Map.of(), "", true, Map.of("p2", "n2", "p3", "n1"), p1),
        Arguments.of("hinted Node no longer in the cluster doesn't cause an error",
            List.of(pod("p2", 800, 500_000, ""), pod("p3", 500, 500_000, "")), Map.of("p2", "non-existing-node"), "",
            true, Map.of("p2", "n2", "p3", "n1"), p1),
        Arguments.of("three new pods, two nodes, no fit", List.of(pod("p2", 800, 500_000, ""),
            pod("p3", 500, 500_000, ""), pod("p4", 700, 500_000, "")), Map.of(), "", false,
            Map.of("p2", "n2", "p3", "n1"), p1),
        Arguments.of("no new pods, two nodes", List.of(), Map.of(), "", true, Map.of(), p1),
        Arguments.of("two nodes, but only one acceptable", List.of(pod("p2", 500, 500_000, ""),
            pod("p3", 500, 500_000, "")), Map.of(), "n1", true, Map.of("p2", "n2", "p3", "n2"), p1),
        Arguments.of("two nodes, but only one acceptable, no fit", List.of(pod("p2", 500, 500_000, ""),
            pod("p3", 500, 500_000, "")), Map.of(), "n2", false, Map.of("p2", "n1"), p1));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  void trySchedulePods(String desc, List<Pod> newPods, Map<String, String> hinted, String notAcceptable,
      boolean allPlaced, Map<String, String> want, Pod existing) {
    SimulatedCluster sim = cluster();
    sim.load(List.of(node("n1", 1000, 2_000_000), node("n2", 1000, 2_000_000)), List.of(existing));
    SchedulingHints hints = new SchedulingHints();
    hinted.forEach(hints::set);
    boolean placed = sim.placeAll(infos(newPods.toArray(Pod[]::new)), new int[] {0},
        notAcceptable.isEmpty() ? -1 : sim.slot(notAcceptable), hints);
    assertThat(placed).isEqualTo(allPlaced);
    if (allPlaced) {
      assertThat(podCount(sim)).isEqualTo(1 + want.size());
      want.forEach((p, n) -> assertThat(nodeOf(sim, p)).as(p).isEqualTo(n));
    } else {
      assertThat(podCount(sim)).as("undone").isEqualTo(1);
    }
    hints.dropOld();
    // the new hints are the nodes the pods were placed on
    want.forEach((p, n) -> assertThat(hints.get(p)).as(p).isEqualTo(n));
  }

  static Stream<Arguments> podSchedulesOnHintedNode() {
    return Stream.of(
        Arguments.of("single hint", ordered("p1", "n2")),
        Arguments.of("all on one node", ordered("p1", "n2", "p2", "n2", "p3", "n2")),
        Arguments.of("spread across nodes", ordered("p1", "n1", "p2", "n2", "p3", "n3")),
        Arguments.of("lots of pods", ordered("p1", "n1", "p2", "n1", "p3", "n1", "p4", "n2", "p5", "n2", "p6", "n2",
            "p7", "n3", "p8", "n3", "p9", "n3")));
  }

  private static Map<String, String> ordered(String... kv) {
    Map<String, String> m = new LinkedHashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put(kv[i], kv[i + 1]);
    }
    return m;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  void podSchedulesOnHintedNode(String desc, Map<String, String> podNodes) {
    SimulatedCluster sim = cluster();
    sim.load(List.of(node("n1", 9999, 9999), node("n2", 9999, 9999), node("n3", 9999, 9999)), List.of());
    SchedulingHints hints = new SchedulingHints();
    List<Pod> pods = new ArrayList<>();
    podNodes.forEach((p, n) -> {
      pods.add(pod(p, 1, 1, ""));
      hints.set(p, n);
    });
    assertThat(sim.placeAll(infos(pods.toArray(Pod[]::new)), new int[] {0}, -1, hints)).isTrue();
    podNodes.forEach((p, n) -> assertThat(nodeOf(sim, p)).as(p).isEqualTo(n));
  }

  @Test
  void hintedPlacement_leavesTheCursor_searchMovesIt() {
    SimulatedCluster sim = cluster();
    sim.load(List.of(node("n1", 1000, 2_000_000), node("n2", 1000, 2_000_000), node("n3", 1000, 2_000_000)),
        List.of());
    SchedulingHints hints = new SchedulingHints();
    hints.set("a", "n3");
    int[] cursor = {0};
    assertThat(sim.placeAll(infos(pod("a", 100, 0, "")), cursor, -1, hints)).isTrue();
    assertThat(nodeOf(sim, "a")).isEqualTo("n3");
    assertThat(cursor[0]).isZero();
    assertThat(sim.placeAll(infos(pod("b", 100, 0, "")), cursor, -1, hints)).isTrue();
    assertThat(nodeOf(sim, "b")).isEqualTo("n1");
    assertThat(cursor[0]).isEqualTo(1);
    assertThat(hints.get("b")).isEqualTo("n1");
  }

  @Test
  void hintedNodeFull_orTheExcludedOne_searchedInstead() {
    SimulatedCluster sim = cluster();
    sim.load(List.of(node("n1", 1000, 2_000_000), node("n2", 1000, 2_000_000)),
        List.of(pod("big", 900, 0, "n2")));
    SchedulingHints hints = new SchedulingHints();
    hints.set("a", "n2");
    hints.set("b", "n1");
    assertThat(sim.placeAll(infos(pod("a", 200, 0, "")), new int[] {0}, -1, hints)).isTrue();
    assertThat(nodeOf(sim, "a")).as("n2 has 100m left").isEqualTo("n1");
    assertThat(sim.placeAll(infos(pod("b", 50, 0, "")), new int[] {0}, sim.slot("n1"), hints)).isTrue();
    assertThat(nodeOf(sim, "b")).as("n1 is the node drained").isEqualTo("n2");
    assertThat(hints.get("a")).isEqualTo("n1");
    assertThat(hints.get("b")).isEqualTo("n2");
  }

  @Test
  void hintedSlot_freedByARollbackAndTakenByAnotherNode_isNotTheHint() {
    SimulatedCluster sim = cluster();
    sim.load(List.of(node("small", 100, 2_000_000)), List.of());
    sim.checkpoint();
    sim.addNode(node("n2", 1000, 2_000_000));
    SchedulingHints hints = new SchedulingHints();
    assertThat(sim.placeAll(infos(pod("a", 500, 0, "")), new int[] {0}, -1, hints)).isTrue();
    assertThat(hints.get("a")).isEqualTo("n2");
    sim.rollback(); // n2's slot is free again
    sim.addNode(node("n3", 1000, 2_000_000));
    assertThat(sim.slot("n3")).as("n3 takes n2's slot").isEqualTo(1);
    int[] cursor = {0};
    assertThat(sim.placeAll(infos(pod("a", 500, 0, "")), cursor, -1, hints)).isTrue();
    assertThat(nodeOf(sim, "a")).isEqualTo("n3");
    assertThat(cursor[0]).as("searched, not placed on the hint").isEqualTo(2);
    assertThat(hints.get("a")).isEqualTo("n3");
  }

  @Test
  void hints_liveForTwoGenerations() {
    SchedulingHints hints = new SchedulingHints();
    hints.set("a", "n1");
    hints.dropOld();
    assertThat(hints.get("a")).isEqualTo("n1");
    hints.set("b", "n2");
    hints.dropOld();
    assertThat(hints.get("a")).as("set two generations ago").isNull();
    assertThat(hints.get("b")).isEqualTo("n2");
    hints.set("b", "n3");
    assertThat(hints.get("b")).as("the current generation first").isEqualTo("n3");
  }

  @Test
  void key_isTheUid_elseNamespaceAndName() {
    assertThat(SchedulingHints.key(pod("p", 1, 1, ""))).isEqualTo("p");
    assertThat(SchedulingHints.key(Pod.builder().namespace("ns").name("q").container("c", "img", ResourceList.EMPTY)
        .build())).isEqualTo("ns/q");
  }
}
