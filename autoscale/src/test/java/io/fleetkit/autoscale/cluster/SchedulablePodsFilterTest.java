package io.fleetkit.autoscale.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Container;
import io.fleetkit.api.core.EnvVar;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.scheduling.Affinity;
import io.fleetkit.api.scheduling.PodAffinity;
import io.fleetkit.api.scheduling.PodAffinityTerm;
import io.fleetkit.autoscale.cluster.simulator.SimulatedCluster;
import io.fleetkit.scheduler.DefaultPlugins;
import io.fleetkit.scheduler.PluginRegistry;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Scale-up's filter of the pods that fit ({@link SchedulablePodsFilter}); its order of hints and searches is
 * {@link #hintsFirst}. The table is TestFilterOutSchedulable of
 * cluster-autoscaler's {@code core/podlistprocessor/filter_out_schedulable_test.go} (kubernetes/autoscaler commit
 * 0ace148d), 8 of its 9 cases: "single empty node, various pods, node should not be considered" is skipped, as its
 * node filter rejects every node and FleetKit's filter has no node filter (upstream's autoscaler builds the processor
 * with {@code ScheduleAnywhere}). As upstream's, each case checks the pods left unschedulable and every pod on the
 * simulated nodes afterwards (the node's own pods and the ones placed).
 */
final class SchedulablePodsFilterTest {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  private static SimulatedCluster cluster(List<Node> nodes, List<Pod> bound) {
    SimulatedCluster sim = SimulatedCluster.create(DefaultPlugins.profile(), PluginRegistry.defaults(),
        Clock.fixed(T0, ZoneOffset.UTC), Map.of());
    sim.load(nodes, bound);
    return sim;
  }

  /** Upstream's {@code buildReadyTestNode(name, cpu, mem)}: cpu in millicores, memory in bytes, 100 pods. */
  private static Node node(String name, long cpu, long mem) {
    return Node.builder().name(name).label("kubernetes.io/hostname", name).capacity(ResourceList.builder()
        .put("cpu", cpu + "m").put("memory", String.valueOf(mem)).put("pods", "100").build()).build();
  }

  /** Upstream's {@code BuildTestPod(name, cpu, mem)} (its UID is its name), or {@code buildPriorityTestPod}. */
  private static Pod pod(String name, long cpu, long mem, @Nullable Integer priority) {
    return Pod.builder().metadata(meta(name, T0)).priority(priority)
        .container("c", "img", ResourceList.ofCpuMemory(cpu, mem)).build();
  }

  private static ObjectMeta meta(String name, Instant created) {
    return ObjectMeta.builder().namespace("default").name(name).uid(name).creationTimestamp(created).build();
  }

  private static Pod pod(String name, long cpu) {
    return pod(name, cpu, 10, null);
  }

  private static List<String> names(List<Pod> pods) {
    return pods.stream().map(p -> p.metadata().name()).toList();
  }

  private static List<String> podsOn(SimulatedCluster sim) {
    List<String> out = new ArrayList<>();
    for (NodeInfo n : sim.nodes()) {
      for (PodInfo pi : n.pods()) {
        out.add(pi.pod().metadata().name());
      }
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

  static Stream<Arguments> filterOutSchedulable() {
    return Stream.of(
        Arguments.of("single empty node, no pods", List.of(), List.of(), List.of(), List.of()),
        Arguments.of("single empty node, single schedulable pod", List.of(), List.of(pod("pod", 500)),
            List.of("pod"), List.of()),
        Arguments.of("single empty node, many schedulable pods", List.of(),
            List.of(pod("pod1", 200), pod("pod2", 500), pod("pod3", 800)), List.of("pod1", "pod2", "pod3"),
            List.of()),
        Arguments.of("single empty node, single unschedulable pod", List.of(), List.of(pod("pod1", 3000)), List.of(),
            List.of("pod1")),
        Arguments.of("single empty node, various pods", List.of(),
            List.of(pod("pod1", 200), pod("pod2", 500), pod("pod3", 1800)), List.of("pod1", "pod2"),
            List.of("pod3")),
        Arguments.of("single empty node, some priority pods", List.of(),
            List.of(pod("pod1", 200), pod("pod2", 500, 10, 10), pod("pod3", 1800, 10, 20)), List.of("pod3", "pod1"),
            List.of("pod2")),
        Arguments.of("non-empty node with a single pods scheduled", List.of(pod("pod1", 500)),
            List.of(pod("pod2", 1000), pod("pod3", 300), pod("pod4", 300)), List.of("pod2", "pod3"),
            List.of("pod4")),
        Arguments.of("non-empty node with many pods scheduled", List.of(pod("pod1", 500), pod("pod2", 1000)),
            List.of(pod("pod3", 1000), pod("pod4", 300), pod("pod5", 300)), List.of("pod4"),
            List.of("pod3", "pod5")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  void filterOutSchedulable(String desc, List<Pod> onNode, List<Pod> candidates, List<String> scheduled,
      List<String> unscheduled) {
    List<Pod> bound = onNode.stream().map(p -> p.withNodeName("node")).toList();
    SimulatedCluster sim = cluster(List.of(node("node", 2000, 100)), bound);
    // a new autoscaler's position (upstream's fresh runner: last match 0, offset 1); one node, so any start is the same
    List<Pod> left = new SchedulablePodsFilter().unschedulable(sim, candidates, new int[] {1});
    assertThat(names(left)).as("unschedulable pods").containsExactlyInAnyOrderElementsOf(unscheduled);
    List<String> all = new ArrayList<>(scheduled);
    all.addAll(names(onNode));
    assertThat(podsOn(sim)).as("scheduled pods").containsExactlyInAnyOrderElementsOf(all);
  }

  /**
   * The cases added to TestTrySchedulePods of cluster-autoscaler's {@code simulator/scheduling/hinting_simulator_test.go}
   * by commit 7b3544fc (branch cluster-autoscaler-release-1.37, commit a16f0ae8), run as the filter runs
   * {@code TrySchedulePods}: without {@code breakOnFailure}, every node acceptable. Each priority's pods with a hint
   * that fits are placed first, then the others of that priority are searched for, in the order given (the pods are
   * created in that order, the filter's tie-break). Upstream's fourth added case, "no simulations when context
   * exceeded", is its scheduling deadline (graceful degradation), which FleetKit does not have.
   */
  static Stream<Arguments> hintsFirst() {
    return Stream.of(
        Arguments.of("hinted pods are prioritized", List.of(node("n1", 1000, 2_000_000)),
            List.of(pod("p1-high", 1100, 1_000_000, 100), pod("p2-low-not-hinted", 800, 1_000_000, 10),
                pod("p2-low-hinted", 800, 1_000_000, 10)),
            Map.of("p2-low-hinted", "n1"), Map.of("p2-low-hinted", "n1"),
            List.of("p1-high", "p2-low-not-hinted")),
        Arguments.of("higher priority pods are prioritized",
            List.of(node("n1", 1000, 2_000_000), node("n2", 1000, 2_000_000), node("n3", 1500, 2_000_000)),
            List.of(pod("p1-low", 800, 1_000_000, null), pod("p2-high", 800, 1_000_000, 100),
                pod("p3-highest", 1100, 1_000_000, 1000)),
            Map.of("p1-low", "n1", "p2-high", "n1", "p3-highest", "n1"),
            Map.of("p3-highest", "n3", "p2-high", "n1", "p1-low", "n2"), List.of()),
        Arguments.of("first schedule pods with working hints and next schedule pods without hints for the remaining "
                + "capacity while preserving the input pod order", List.of(node("n1", 2100, 4_000_000)),
            List.of(pod("p1", 500, 1_000_000, null), pod("p2", 500, 1_000_000, null),
                pod("p3", 500, 1_000_000, null), pod("p4", 500, 1_000_000, null), pod("p5", 500, 1_000_000, null),
                pod("p6", 500, 1_000_000, null)),
            Map.of("p2", "n1", "p5", "n1", "p6", "n2"),
            Map.of("p2", "n1", "p5", "n1", "p1", "n1", "p3", "n1"), List.of("p4", "p6")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  void hintsFirst(String desc, List<Node> nodes, List<Pod> candidates, Map<String, String> hinted,
      Map<String, String> placed, List<String> unschedulable) {
    List<Pod> created = new ArrayList<>();
    for (int i = 0; i < candidates.size(); i++) { // created in the order given: the filter keeps it within a priority
      Pod p = candidates.get(i);
      created.add(p.toBuilder().metadata(p.metadata().toBuilder().creationTimestamp(T0.plusSeconds(i)).build())
          .build());
    }
    SimulatedCluster sim = cluster(nodes, List.of());
    SchedulablePodsFilter filter = new SchedulablePodsFilter();
    hinted.forEach(filter.hints()::set);
    // a new autoscaler's position (upstream's fresh runner: last match 0, offset 1)
    List<Pod> left = filter.unschedulable(sim, created, new int[] {1});
    assertThat(names(left)).as("unschedulable pods").containsExactlyElementsOf(unschedulable);
    assertThat(podsOn(sim)).as("scheduled pods").hasSize(placed.size());
    placed.forEach((p, n) -> assertThat(nodeOf(sim, p)).as(p).isEqualTo(n));
    placed.forEach((p, n) -> assertThat(filter.hints().get(p)).as("hint of " + p).isEqualTo(n));
  }

  @Test
  void aPodKeepsItsHintedNode_whereTheSearchWouldChooseAnother() {
    List<Node> nodes = List.of(node("n1", 1000, 1000), node("n2", 1000, 1000));
    SchedulablePodsFilter filter = new SchedulablePodsFilter();
    SimulatedCluster first = cluster(nodes, List.of());
    assertThat(filter.unschedulable(first, List.of(pod("a", 100), pod("b", 100)), fromFirstNode())).isEmpty();
    assertThat(nodeOf(first, "a")).isEqualTo("n1");
    assertThat(nodeOf(first, "b")).as("round-robin: the search goes on past n1").isEqualTo("n2");

    // the next loop: a was bound elsewhere; a search from the first node would put b on n1
    SimulatedCluster second = cluster(nodes, List.of());
    assertThat(filter.unschedulable(second, List.of(pod("b", 100)), fromFirstNode())).isEmpty();
    assertThat(nodeOf(second, "b")).as("its hint").isEqualTo("n2");
    SimulatedCluster fresh = cluster(nodes, List.of());
    assertThat(new SchedulablePodsFilter().unschedulable(fresh, List.of(pod("b", 100)), fromFirstNode())).isEmpty();
    assertThat(nodeOf(fresh, "b")).as("without hints").isEqualTo("n1");

    // a hinted node without room: searched instead, and the node found becomes the hint
    SimulatedCluster full = cluster(nodes, List.of(pod("big", 950).withNodeName("n2")));
    assertThat(filter.unschedulable(full, List.of(pod("b", 100)), fromFirstNode())).isEmpty();
    assertThat(nodeOf(full, "b")).isEqualTo("n1");
    SimulatedCluster after = cluster(nodes, List.of());
    assertThat(filter.unschedulable(after, List.of(pod("a0", 100), pod("b", 100)), fromFirstNode())).isEmpty();
    assertThat(nodeOf(after, "a0")).isEqualTo("n1");
    assertThat(nodeOf(after, "b")).as("hinted n1 since the last loop; the search would go on to n2").isEqualTo("n1");
  }

  @Test
  void aHintIsForgotten_afterALoopWithoutItsPod() {
    List<Node> nodes = List.of(node("n1", 1000, 1000), node("n2", 1000, 1000));
    SchedulablePodsFilter filter = new SchedulablePodsFilter();
    assertThat(filter.unschedulable(cluster(nodes, List.of()), List.of(pod("a", 100), pod("b", 100)),
        fromFirstNode())).isEmpty();
    filter.noCandidates(); // a loop without pending pods ends a generation too
    SimulatedCluster third = cluster(nodes, List.of());
    assertThat(filter.unschedulable(third, List.of(pod("b", 100)), fromFirstNode())).isEmpty();
    assertThat(nodeOf(third, "b")).as("set two generations ago: searched from the first node").isEqualTo("n1");

    SchedulablePodsFilter kept = new SchedulablePodsFilter();
    assertThat(kept.unschedulable(cluster(nodes, List.of()), List.of(pod("a", 100), pod("b", 100)),
        fromFirstNode())).isEmpty();
    assertThat(kept.unschedulable(cluster(nodes, List.of()), List.of(pod("a", 100)), fromFirstNode())).isEmpty();
    SimulatedCluster later = cluster(nodes, List.of());
    assertThat(kept.unschedulable(later, List.of(pod("b", 100)), fromFirstNode())).isEmpty();
    assertThat(nodeOf(later, "b")).as("a loop with other pods ends a generation as well").isEqualTo("n1");
  }

  /** A round-robin position at the first node: each call searches as a loop whose searches start there. */
  private static int[] fromFirstNode() {
    return new int[] {0};
  }

  private static final OwnerReference RS = new OwnerReference("apps/v1", "ReplicaSet", "web", "rs-uid", true, true);

  /** A pod of {@code RS} requiring, on its node, a pod labelled {@code app=cache}. */
  private static Pod needsCache(String name, Instant created, String tier) {
    PodAffinityTerm term = PodAffinityTerm.of(LabelSelector.of(Map.of("app", "cache")), "kubernetes.io/hostname");
    return Pod.builder().metadata(meta(name, created)).ownerReference(RS)
        .label("tier", tier).affinity(new Affinity(null, new PodAffinity(List.of(term), List.of()), null))
        .container("c", "img", ResourceList.ofCpuMemory(100, 10)).build();
  }

  @Test
  void aPodSimilarToOneThatFitNowhere_isNotSearched_onlyForEqualControllerLabelsAndSpec() {
    SimulatedCluster sim = cluster(List.of(node("n1", 1000, 1000)), List.of());
    Pod first = needsCache("first", T0, "a");
    Pod cache = Pod.builder().metadata(meta("cache", T0.plusSeconds(1)))
        .label("app", "cache").container("c", "img", ResourceList.ofCpuMemory(100, 10)).build();
    Pod twin = needsCache("twin", T0.plusSeconds(2), "a");
    Pod otherLabels = needsCache("other", T0.plusSeconds(3), "b");
    List<Pod> left = new SchedulablePodsFilter().unschedulable(sim, List.of(twin, cache, otherLabels, first),
        fromFirstNode());
    // first fails (no cache pod yet); twin would fit once cache is placed, but its similar pod failed
    assertThat(names(left)).containsExactly("first", "twin");
    assertThat(nodeOf(sim, "cache")).isEqualTo("n1");
    assertThat(nodeOf(sim, "other")).as("different labels: searched").isEqualTo("n1");
  }
  @Test
  void aPodDifferingOnlyInHostnameAndEnv_fromOneThatFitNowhere_isNotSearched() {
    SimulatedCluster sim = cluster(List.of(node("n1", 1000, 1000)), List.of());
    Pod first = needsCache("first", T0, "a");
    Pod cache = Pod.builder().metadata(meta("cache", T0.plusSeconds(1)))
        .label("app", "cache").container("c", "img", ResourceList.ofCpuMemory(100, 10)).build();
    Pod base = needsCache("twin", T0.plusSeconds(2), "a");
    Container c = base.spec().containers().get(0).withEnv(List.of(new EnvVar("INDEX", "1")));
    Pod twin = base.toBuilder().spec(base.spec().toBuilder().containers(List.of(c)).hostname("twin").build()).build();
    List<Pod> left = new SchedulablePodsFilter().unschedulable(sim, List.of(twin, cache, first), fromFirstNode());
    // twin would fit once cache is placed, but first, similar as upstream's PodSpecSemanticallyEqual sees it, failed
    assertThat(names(left)).containsExactly("first", "twin");
    assertThat(nodeOf(sim, "cache")).isEqualTo("n1");
  }
}
