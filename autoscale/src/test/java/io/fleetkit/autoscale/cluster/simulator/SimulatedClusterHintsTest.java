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
 * {@code simulator/scheduling/hinting_simulator_test.go} (kubernetes/autoscaler branch cluster-autoscaler-release-1.37,
 * commit a16f0ae8), TestTrySchedulePods 9 of 10 and TestPodSchedulesOnHintedNode 4/4. Upstream's
 * {@code isNodeAcceptable} is FleetKit's excluded slot (the node being drained); {@code placeAll} is
 * {@code TrySchedulePods} with {@code breakOnFailure}, all or nothing as its caller {@code findPlaceFor} uses it: in
 * the cases where a pod fits nowhere upstream's statuses (run without {@code breakOnFailure}) list the pods placed
 * before it, which here are the pods hinted, their placements undone. The three cases added at 1.37 (hints of a
 * priority first, priorities highest first) are {@link #hintsFirst}, with what {@code breakOnFailure} makes of them
 * (scale-up's filter runs them without it: {@code SchedulablePodsFilterTest}). Skipped: "no simulations when context
 * exceeded" (upstream's scheduling deadline, its graceful degradation, which FleetKit does not have), and
 * TestNewResult (8 cases of the bookkeeping of pods left unprocessed at that deadline).
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

  /** Upstream's {@code BuildTestPod(name, cpu, mem, WithPodPriority(priority))}. */
  private static Pod pod(String name, long cpu, long mem, int priority) {
    return pod(name, cpu, mem, "").toBuilder().priority(priority).build();
  }

  /**
   * The cases added to TestTrySchedulePods with upstream commit 7b3544fc, run with {@code breakOnFailure}: the pods
   * placed, {@code null} when a pod fits nowhere (the placements undone), and the hints afterwards (a hint set before
   * the failure stays).
   */
  static Stream<Arguments> hintsFirst() {
    return Stream.of(
        // upstream places p2-low-hinted (without breakOnFailure); here p1-high fits nowhere and ends the placing
        Arguments.of("hinted pods are prioritized", List.of(node("n1", 1000, 2_000_000)),
            List.of(pod("p1-high", 1100, 1_000_000, 100), pod("p2-low-not-hinted", 800, 1_000_000, 10),
                pod("p2-low-hinted", 800, 1_000_000, 10)),
            Map.of("p2-low-hinted", "n1"), null, Map.of("p2-low-hinted", "n1")),
        Arguments.of("higher priority pods are prioritized",
            List.of(node("n1", 1000, 2_000_000), node("n2", 1000, 2_000_000), node("n3", 1500, 2_000_000)),
            List.of(pod("p1-low", 800, 1_000_000, 0), pod("p2-high", 800, 1_000_000, 100),
                pod("p3-highest", 1100, 1_000_000, 1000)),
            Map.of("p1-low", "n1", "p2-high", "n1", "p3-highest", "n1"),
            Map.of("p3-highest", "n3", "p2-high", "n1", "p1-low", "n2"),
            Map.of("p3-highest", "n3", "p2-high", "n1", "p1-low", "n2")),
        // upstream places p2, p5 (hints), then p1, p3 (searched); p4 and p6 fit nowhere. Here p4 ends the placing
        Arguments.of("first schedule pods with working hints and next schedule pods without hints for the remaining "
                + "capacity while preserving the input pod order", List.of(node("n1", 2100, 4_000_000)),
            List.of(pod("p1", 500, 1_000_000, 0), pod("p2", 500, 1_000_000, 0), pod("p3", 500, 1_000_000, 0),
                pod("p4", 500, 1_000_000, 0), pod("p5", 500, 1_000_000, 0), pod("p6", 500, 1_000_000, 0)),
            Map.of("p2", "n1", "p5", "n1", "p6", "n2"), null,
            Map.of("p2", "n1", "p5", "n1", "p1", "n1", "p3", "n1", "p6", "n2")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  void hintsFirst(String desc, List<Node> nodes, List<Pod> newPods, Map<String, String> hinted,
      @org.jspecify.annotations.Nullable Map<String, String> placed, Map<String, String> hintsAfter) {
    SimulatedCluster sim = cluster();
    sim.load(nodes, List.of());
    SchedulingHints hints = new SchedulingHints();
    hinted.forEach(hints::set);
    // a new autoscaler's position: upstream's fresh runner (last match 0, offset 1) starts at the second node
    boolean all = sim.placeAll(infos(newPods.toArray(Pod[]::new)), new int[] {1}, -1, hints);
    assertThat(all).isEqualTo(placed != null);
    if (placed != null) {
      assertThat(podCount(sim)).isEqualTo(placed.size());
      placed.forEach((p, n) -> assertThat(nodeOf(sim, p)).as(p).isEqualTo(n));
    } else {
      assertThat(podCount(sim)).as("undone").isZero();
    }
    hints.dropOld();
    hintsAfter.forEach((p, n) -> assertThat(hints.get(p)).as(p).isEqualTo(n));
    for (Pod p : newPods) {
      if (!hintsAfter.containsKey(p.metadata().name())) {
        assertThat(hints.get(p.metadata().name())).as(p.metadata().name() + ": not placed in this call").isNull();
      }
    }
  }

  @Test
  void placeUntilFailure_keepsThePlacementsBeforeAPodThatFitsNowhere() {
    SimulatedCluster sim = cluster();
    sim.load(List.of(node("n1", 2100, 4_000_000)), List.of());
    SchedulingHints hints = new SchedulingHints();
    hints.set("p2", "n1");
    hints.set("p5", "n1");
    List<Pod> pods = new ArrayList<>();
    for (int i = 1; i <= 6; i++) {
      pods.add(pod("p" + i, 500, 1_000_000, ""));
    }
    int[] cursor = {0};
    assertThat(sim.placeUntilFailure(infos(pods.toArray(Pod[]::new)), cursor, hints)).isFalse();
    assertThat(podCount(sim)).as("p2, p5 on their hints, then p1 and p3 searched; p4 fits nowhere").isEqualTo(4);
    for (String p : List.of("p1", "p2", "p3", "p5")) {
      assertThat(nodeOf(sim, p)).as(p).isEqualTo("n1");
    }
    assertThat(nodeOf(sim, "p6")).as("after the pod that fits nowhere: not tried").isEmpty();
    assertThat(cursor[0]).as("past n1, the last node a search found").isEqualTo(1);
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
