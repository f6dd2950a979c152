package io.fleetkit.scheduler.plugins.podtopologyspread;

import static io.fleetkit.scheduler.plugins.podtopologyspread.PodTopologySpreadPreFilterStateTest.counts;
import static io.fleetkit.scheduler.plugins.podtopologyspread.PodTopologySpreadPreFilterStateTest.ep;
import static io.fleetkit.scheduler.plugins.podtopologyspread.PodTopologySpreadPreFilterStateTest.zn;
import static io.fleetkit.scheduler.plugins.podtopologyspread.SpreadFixtures.BAR;
import static io.fleetkit.scheduler.plugins.podtopologyspread.SpreadFixtures.FOO;
import static io.fleetkit.scheduler.plugins.podtopologyspread.SpreadFixtures.HARD;
import static io.fleetkit.scheduler.plugins.podtopologyspread.SpreadFixtures.TAINTS;
import static io.fleetkit.scheduler.plugins.podtopologyspread.SpreadFixtures.node;
import static io.fleetkit.scheduler.plugins.podtopologyspread.SpreadFixtures.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.framework.CycleState;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.PodInfos;
import io.fleetkit.api.framework.PreFilterPlugin.PreFilterExtensions;
import io.fleetkit.api.framework.Status;
import io.fleetkit.scheduler.plugins.podtopologyspread.SpreadFixtures.Cluster;
import io.fleetkit.scheduler.plugins.podtopologyspread.SpreadFixtures.MapCycleState;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Ported from kubernetes/kubernetes {@code pkg/scheduler/framework/plugins/podtopologyspread/filtering_test.go},
 * {@code TestPreFilterStateAddPod} (16 cases) and {@code TestPreFilterStateRemovePod} (9 cases): the domain counts
 * after one dry-run add or removal on a node. Upstream's gate-off variants ("... with NodeInclusionPolicy disabled")
 * expect the same counts as the gate-on ones, so they are ported too.
 */
final class PodTopologySpreadAddRemovePodTest {

  /** One dry-run update: {@code other} added to (delta 1) or removed from (delta -1) node {@code node}. */
  record Case(String name, Pod preemptor, List<Node> nodes, List<Pod> existing, Pod other, String node, int delta,
      List<String> want) {}

  static Pod foo1(String... keys) {
    SpreadFixtures.PodW p = pod("p");
    for (String k : keys) {
      p.label(k, "");
    }
    return p.spread(1, "zone", HARD, FOO).obj();
  }

  static Pod zoneNode() {
    return pod("p").label("foo", "").spread(1, "zone", HARD, FOO).spread(1, "node", HARD, FOO).obj();
  }

  static Pod nodeOnly() {
    return pod("p").label("foo", "").spread(1, "node", HARD, FOO).obj();
  }

  /** Existing pod with labels foo and zone=zone (upstream's inclusion-policy cases). */
  static Pod zp(String name, String node, String zone, boolean foo) {
    SpreadFixtures.PodW p = pod(name).node(node).label("zone", zone);
    if (foo) {
      p.label("foo", "");
    }
    return p.obj();
  }

  /** Upstream's node-a (zone1, foo=bar) / node-b (zone2, foo="") pair. */
  static List<Node> fooBarNodes() {
    return List.of(node("node-a").label("zone", "zone1").label("node", "node-a").label("foo", "bar").obj(),
        node("node-b").label("zone", "zone2").label("node", "node-b").label("foo", "").obj());
  }

  static Pod unmatchedAffinityPreemptor() {
    return pod("p").label("foo", "").nodeAffinityNotIn("foo", "bar").spread(1, "zone", HARD, FOO).obj();
  }

  static List<Case> addCases() {
    List<Node> ab = List.of(zn("node-a", "zone1"), zn("node-b", "zone1"));
    List<Node> ax = List.of(zn("node-a", "zone1"), zn("node-x", "zone2"));
    List<Node> abx = List.of(zn("node-a", "zone1"), zn("node-b", "zone1"), zn("node-x", "zone2"));
    List<Node> tainted = List.of(node("node-a").label("zone", "zone1").label("node", "node-a").taints(TAINTS).obj(),
        zn("node-b", "zone2"));
    List<Case> cs = new ArrayList<>();
    cs.add(new Case("node a and b both impact current min match", nodeOnly(), ab, List.of(),
        ep("p-a1", "node-a", "foo"), "node-a", 1, List.of("node-a=1,node-b=0")));
    cs.add(new Case("only node a impacts current min match", nodeOnly(), ab, List.of(ep("p-b1", "node-b", "foo")),
        ep("p-a1", "node-a", "foo"), "node-a", 1, List.of("node-a=1,node-b=1")));
    cs.add(new Case("add a pod in a different namespace doesn't change topologyKeyToMinPodsMap", nodeOnly(), ab,
        List.of(ep("p-b1", "node-b", "foo")), pod("p-a1").ns("ns1").node("node-a").label("foo", "").obj(), "node-a",
        1, List.of("node-a=0,node-b=1")));
    cs.add(new Case("add pod on non-critical node won't trigger re-calculation", nodeOnly(), ab,
        List.of(ep("p-b1", "node-b", "foo")), ep("p-b2", "node-b", "foo"), "node-b", 1,
        List.of("node-a=0,node-b=2")));
    cs.add(new Case("node a and x both impact topologyKeyToMinPodsMap on zone and node", zoneNode(), ax, List.of(),
        ep("p-a1", "node-a", "foo"), "node-a", 1, List.of("zone1=1,zone2=0", "node-a=1,node-x=0")));
    cs.add(new Case("only node a impacts topologyKeyToMinPodsMap on zone and node", zoneNode(), ax,
        List.of(ep("p-x1", "node-x", "foo")), ep("p-a1", "node-a", "foo"), "node-a", 1,
        List.of("zone1=1,zone2=1", "node-a=1,node-x=1")));
    cs.add(new Case("node a impacts topologyKeyToMinPodsMap on node, node x impacts topologyKeyToMinPodsMap on zone",
        zoneNode(), abx, List.of(ep("p-b1", "node-b", "foo"), ep("p-b2", "node-b", "foo"), ep("p-x1", "node-x", "foo")),
        ep("p-a1", "node-a", "foo"), "node-a", 1, List.of("zone1=3,zone2=1", "node-a=1,node-b=2,node-x=1")));
    Pod fooBar = pod("p").label("foo", "").label("bar", "").spread(1, "zone", HARD, FOO).spread(1, "node", HARD, BAR)
        .obj();
    cs.add(new Case("Constraints hold different labelSelectors, node a impacts topologyKeyToMinPodsMap on zone",
        fooBar, abx, List.of(ep("p-b1", "node-b", "foo", "bar"), ep("p-x1", "node-x", "foo", "bar"),
            ep("p-x2", "node-x", "bar")),
        ep("p-a1", "node-a", "foo"), "node-a", 1, List.of("zone1=2,zone2=1", "node-a=0,node-b=1,node-x=2")));
    cs.add(new Case("Constraints hold different labelSelectors, node a impacts topologyKeyToMinPodsMap on both zone "
        + "and node", fooBar, abx, List.of(ep("p-b1", "node-b", "bar"), ep("p-x1", "node-x", "foo", "bar"),
            ep("p-x2", "node-x", "bar")),
        ep("p-a1", "node-a", "foo", "bar"), "node-a", 1, List.of("zone1=1,zone2=1", "node-a=1,node-b=1,node-x=2")));
    for (String gate : new String[] {"disabled", "enabled"}) {
      cs.add(new Case("add a pod when scheduling node affinity unmatched pod with NodeInclusionPolicy " + gate,
          unmatchedAffinityPreemptor(), fooBarNodes(),
          List.of(zp("p-a2", "node-a", "zone1", true), zp("p-b1", "node-b", "zone2", true)),
          zp("p-a1", "node-a", "zone1", true), "node-a", 1, List.of("zone2=1")));
    }
    for (String gate : new String[] {"disabled", "enabled"}) {
      cs.add(new Case("add a pod when scheduling node affinity matched pod with NodeInclusionPolicy " + gate, foo1("foo"),
          fooBarNodes(), List.of(zp("p-a1", "node-a", "zone1", true), zp("p-b2", "node-b", "zone2", true)),
          zp("p-b1", "node-b", "zone2", true), "node-b", 1, List.of("zone1=1,zone2=2")));
    }
    cs.add(new Case("add a label selector not matched pod when with NodeInclusionPolicy enabled", foo1("foo"),
        fooBarNodes(), List.of(zp("p-a1", "node-a", "zone1", true), zp("p-b2", "node-b", "zone2", true)),
        zp("p-b1", "node-b", "zone2", false), "node-b", 1, List.of("zone1=1,zone2=1")));
    cs.add(new Case("add a pod when scheduling taint untolerated pod with NodeInclusionPolicy disabled", foo1("foo"),
        tainted, List.of(zp("p-a1", "node-a", "zone1", true), zp("p-b2", "node-b", "zone2", true)),
        zp("p-b1", "node-b", "zone2", true), "node-b", 1, List.of("zone1=1,zone2=2")));
    cs.add(new Case("add a pod when scheduling taint tolerated pod with NodeInclusionPolicy enabled",
        pod("p").label("foo", "").toleration("node.kubernetes.io/unschedulable").spread(1, "zone", HARD, FOO).obj(),
        tainted, List.of(zp("p-a1", "node-a", "zone1", true), zp("p-b2", "node-b", "zone2", true)),
        zp("p-b1", "node-b", "zone2", true), "node-b", 1, List.of("zone1=1,zone2=2")));
    return cs;
  }

  static List<Case> removeCases() {
    List<Node> abx = List.of(zn("node-a", "zone1"), zn("node-b", "zone1"), zn("node-x", "zone2"));
    List<Node> abxy = PodTopologySpreadPreFilterStateTest.nodes4();
    List<Case> cs = new ArrayList<>();
    List<Pod> three = List.of(ep("p-a1", "node-a", "foo"), ep("p-b1", "node-b", "foo"), ep("p-x1", "node-x", "foo"));
    cs.add(new Case("one spreadConstraint on zone, topologyKeyToMinPodsMap unchanged", foo1("foo"), abx, three,
        three.get(0), "node-a", -1, List.of("zone1=1,zone2=1")));
    List<Pod> four = List.of(ep("p-a1", "node-a", "foo"), ep("p-b1", "node-b", "foo"), ep("p-x1", "node-x", "foo"),
        ep("p-y1", "node-y", "foo"));
    cs.add(new Case("one spreadConstraint on node, topologyKeyToMinPodsMap changed", foo1("foo"), abxy, four,
        four.get(0), "node-a", -1, List.of("zone1=1,zone2=2")));
    List<Pod> withBar = new ArrayList<>();
    withBar.add(ep("p-a0", "node-a", "bar"));
    withBar.addAll(four);
    cs.add(new Case("delete an irrelevant pod won't help", foo1("foo"), abxy, withBar, withBar.get(0), "node-a", -1,
        List.of("zone1=2,zone2=2")));
    cs.add(new Case("delete a non-existing pod won't help", foo1("foo"), abxy, four, ep("p-a0", "node-a", "bar"),
        "node-a", -1, List.of("zone1=2,zone2=2")));
    List<Pod> five = List.of(ep("p-a1", "node-a", "foo"), ep("p-a2", "node-a", "foo"), ep("p-b1", "node-b", "foo"),
        ep("p-x1", "node-x", "foo"), ep("p-x2", "node-x", "foo"));
    cs.add(new Case("two spreadConstraints", zoneNode(), abx, five, five.get(3), "node-x", -1,
        List.of("zone1=3,zone2=1", "node-a=2,node-b=1,node-x=1")));
    for (String gate : new String[] {"disabled", "enabled"}) {
      // Upstream's deletedPodIdx defaults to 0, so the removed pod is existingPods[0] (p-a2) on node-a.
      List<Pod> existing = List.of(zp("p-a2", "node-a", "zone1", true), zp("p-b1", "node-b", "zone2", true));
      cs.add(new Case("remove a pod when scheduling node affinity unmatched pod with NodeInclusionPolicy " + gate,
          unmatchedAffinityPreemptor(), fooBarNodes(), existing, existing.get(0), "node-a", -1, List.of("zone2=1")));
    }
    for (String gate : new String[] {"disabled", "enabled"}) {
      // deletedPodIdx 0 again: existingPods[0] (p-a1) is removed from node-b's domain (nodeIdx 1).
      List<Pod> existing = List.of(zp("p-a1", "node-a", "zone1", true), zp("p-b2", "node-b", "zone2", true));
      cs.add(new Case("remove a pod when scheduling node affinity matched pod with NodeInclusionPolicy " + gate,
          foo1("foo"), fooBarNodes(), existing, existing.get(0), "node-b", -1, List.of("zone1=1,zone2=0")));
    }
    return cs;
  }

  private static Stream<DynamicTest> run(List<Case> cases) {
    return cases.stream().map(tc -> DynamicTest.dynamicTest(tc.name(), () -> {
      Cluster cluster = new Cluster(tc.nodes(), tc.existing());
      PodTopologySpreadPlugin plugin = new PodTopologySpreadPlugin(
          PodTopologySpreadPreFilterStateTest.listArgs(List.of(), Map.of()), () -> cluster);
      MapCycleState state = new MapCycleState();
      PodInfo preemptor = PodInfos.of(tc.preemptor());
      assertThat(plugin.preFilter(state, preemptor, cluster).status().isSuccess()).isTrue();
      PreFilterState before = state.require(PodTopologySpreadPlugin.PRE_FILTER_KEY);
      List<Map<String, Integer>> beforeCounts = countsOf(before);
      PreFilterExtensions ext = Objects.requireNonNull(plugin.preFilterExtensions());
      var nodeInfo = Objects.requireNonNull(cluster.get(tc.node()));
      Status s = tc.delta() > 0 ? ext.addPod(state, preemptor, PodInfos.of(tc.other()), nodeInfo)
          : ext.removePod(state, preemptor, PodInfos.of(tc.other()), nodeInfo);
      assertThat(s.isSuccess()).isTrue();
      PreFilterState after = state.require(PodTopologySpreadPlugin.PRE_FILTER_KEY);
      assertThat(countsOf(after)).isEqualTo(tc.want().stream().map(PodTopologySpreadPreFilterStateTest::counts)
          .toList());
      for (int i = 0; i < after.domains.length; i++) {
        int min = after.domains[i].asMap().values().stream().mapToInt(Integer::intValue).min()
            .orElse(DomainCounts.NO_DOMAIN_MIN);
        assertThat(after.domains[i].min()).as("exact min of constraint %s", i).isEqualTo(min);
      }
      // Copy-on-write: the state written by PreFilter is never changed in place.
      assertThat(countsOf(before)).isEqualTo(beforeCounts);
    }));
  }

  static List<Map<String, Integer>> countsOf(PreFilterState s) {
    List<Map<String, Integer>> out = new ArrayList<>();
    for (DomainCounts d : s.domains) {
      out.add(d.asMap());
    }
    return out;
  }

  @TestFactory
  Stream<DynamicTest> addPod_upstreamTestPreFilterStateAddPod_countsMatch() {
    assertThat(addCases()).hasSize(16);
    return run(addCases());
  }

  @TestFactory
  Stream<DynamicTest> removePod_upstreamTestPreFilterStateRemovePod_countsMatch() {
    assertThat(removeCases()).hasSize(9);
    return run(removeCases());
  }

  @Test
  void addThenRemove_onCopiedState_leavesOriginalAndRestoresCounts() {
    Cluster cluster = new Cluster(List.of(zn("node-a", "zone1"), zn("node-b", "zone2"), zn("node-c", "zone3")),
        List.of(ep("p-a1", "node-a", "foo"), ep("p-b1", "node-b", "foo")));
    PodTopologySpreadPlugin plugin = new PodTopologySpreadPlugin(PodTopologySpreadArgs.defaults(), () -> cluster);
    PodInfo incoming = PodInfos.of(foo1("foo"));
    MapCycleState state = new MapCycleState();
    plugin.preFilter(state, incoming, cluster);
    CycleState copy = state.copy();
    PreFilterExtensions ext = Objects.requireNonNull(plugin.preFilterExtensions());
    PodInfo extra = PodInfos.of(ep("p-c1", "node-c", "foo"));
    ext.addPod(copy, incoming, extra, Objects.requireNonNull(cluster.get("node-c")));
    assertThat(countsOf(copy.require(PodTopologySpreadPlugin.PRE_FILTER_KEY)))
        .containsExactly(counts("zone1=1,zone2=1,zone3=1"));
    assertThat(copy.require(PodTopologySpreadPlugin.PRE_FILTER_KEY).domains[0].min()).isEqualTo(1);
    ext.removePod(copy, incoming, extra, Objects.requireNonNull(cluster.get("node-c")));
    assertThat(copy.require(PodTopologySpreadPlugin.PRE_FILTER_KEY).domains[0].min()).isZero();
    assertThat(countsOf(state.require(PodTopologySpreadPlugin.PRE_FILTER_KEY)))
        .containsExactly(counts("zone1=1,zone2=1,zone3=0"));
  }
}
