package io.fleetkit.scheduler.plugins.podtopologyspread;

import static io.fleetkit.scheduler.plugins.podtopologyspread.PodTopologySpreadPreFilterStateTest.ep;
import static io.fleetkit.scheduler.plugins.podtopologyspread.PodTopologySpreadPreFilterStateTest.fooPods7;
import static io.fleetkit.scheduler.plugins.podtopologyspread.PodTopologySpreadPreFilterStateTest.nn;
import static io.fleetkit.scheduler.plugins.podtopologyspread.PodTopologySpreadPreFilterStateTest.nodes4;
import static io.fleetkit.scheduler.plugins.podtopologyspread.PodTopologySpreadPreFilterStateTest.zn;
import static io.fleetkit.scheduler.plugins.podtopologyspread.SpreadFixtures.BAR;
import static io.fleetkit.scheduler.plugins.podtopologyspread.SpreadFixtures.FOO;
import static io.fleetkit.scheduler.plugins.podtopologyspread.SpreadFixtures.HARD;
import static io.fleetkit.scheduler.plugins.podtopologyspread.SpreadFixtures.HONOR;
import static io.fleetkit.scheduler.plugins.podtopologyspread.SpreadFixtures.IGNORE;
import static io.fleetkit.scheduler.plugins.podtopologyspread.SpreadFixtures.TAINTS;
import static io.fleetkit.scheduler.plugins.podtopologyspread.SpreadFixtures.node;
import static io.fleetkit.scheduler.plugins.podtopologyspread.SpreadFixtures.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.NodeInfos;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.PodInfos;
import io.fleetkit.api.framework.Status;
import io.fleetkit.scheduler.plugins.podtopologyspread.SpreadFixtures.Cluster;
import io.fleetkit.scheduler.plugins.podtopologyspread.SpreadFixtures.MapCycleState;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Ported from kubernetes/kubernetes {@code pkg/scheduler/framework/plugins/podtopologyspread/filtering_test.go}:
 * {@code TestSingleConstraint} (23 cases), {@code TestMultipleConstraints} (11 cases) and
 * {@code TestPreFilterDisabled} (1 case). Expected codes: S Success, U Unschedulable (reason
 * {@value PodTopologySpreadPlugin#ERR_REASON_CONSTRAINTS_NOT_MATCH}), UU UnschedulableAndUnresolvable (reason
 * {@value PodTopologySpreadPlugin#ERR_REASON_NODE_LABEL_NOT_MATCH}). As upstream, only this plugin runs, so nodes
 * that NodeAffinity or TaintToleration would reject can still pass here.
 */
final class PodTopologySpreadFilterTest {

  record Case(String name, Pod pod, List<Node> nodes, List<Pod> existing, String want) {}

  /** Node labelled node=name plus foo="" (upstream's inclusion-policy clusters). */
  static Node nf(String name) {
    return node(name).label("node", name).label("foo", "").obj();
  }

  /** Node labelled zone, node=name and foo="". */
  static Node znf(String name, String zone) {
    return node(name).label("zone", zone).label("node", name).label("foo", "").obj();
  }

  static Pod fooPod(int maxSkew, String key) {
    return pod("p").label("foo", "").spread(maxSkew, key, HARD, FOO).obj();
  }

  static Pod minDomains(String key, int minDomains) {
    return pod("p").label("foo", "").spread(2, key, HARD, FOO, minDomains, null, null, null).obj();
  }

  static List<Pod> a2b1y3() {
    return List.of(ep("p-a1", "node-a", "foo"), ep("p-a2", "node-a", "foo"), ep("p-b1", "node-b", "foo"),
        ep("p-y1", "node-y", "foo"), ep("p-y2", "node-y", "foo"), ep("p-y3", "node-y", "foo"));
  }

  /** Upstream's p-b1 on node-a, p-b2 on node-b, p-y1 on node-y. */
  static List<Pod> b1b2y1() {
    return List.of(ep("p-b1", "node-a", "foo"), ep("p-b2", "node-b", "foo"), ep("p-y1", "node-y", "foo"));
  }

  static List<Pod> a1b1y1() {
    return List.of(ep("p-a1", "node-a", "foo"), ep("p-b1", "node-b", "foo"), ep("p-y1", "node-y", "foo"));
  }

  static List<Case> singleConstraint() {
    List<Case> cs = new ArrayList<>();
    cs.add(new Case("no existing pods", fooPod(1, "zone"), nodes4(), List.of(),
        "node-a:S node-b:S node-x:S node-y:S"));
    cs.add(new Case("no existing pods, incoming pod doesn't match itself",
        pod("p").label("foo", "").spread(1, "zone", HARD, BAR).obj(), nodes4(), List.of(),
        "node-a:S node-b:S node-x:S node-y:S"));
    cs.add(new Case("existing pods in a different namespace do not count", fooPod(1, "zone"), nodes4(),
        List.of(pod("p-a1").ns("ns1").node("node-a").label("foo", "").obj(),
            pod("p-b1").ns("ns2").node("node-a").label("foo", "").obj(), ep("p-x1", "node-x", "foo"),
            ep("p-y1", "node-y", "foo")),
        "node-a:S node-b:S node-x:U node-y:U"));
    cs.add(new Case("existing pods do not match null selector",
        pod("p").label("foo", "").spread(1, "zone", HARD, null).obj(), nodes4(),
        List.of(ep("p-x1", "node-x", "foo"), ep("p-y1", "node-y", "foo")), "node-a:S node-b:S node-x:S node-y:S"));
    cs.add(new Case("pods spread across zones as 3/3, all nodes fit", fooPod(1, "zone"), nodes4(), a2b1y3(),
        "node-a:S node-b:S node-x:S node-y:S"));
    cs.add(new Case("pods spread across zones as 1/2 due to absence of label 'zone' on node-b", fooPod(1, "zone"),
        List.of(zn("node-a", "zone1"), node("node-b").label("zon", "zone1").label("node", "node-b").obj(),
            zn("node-x", "zone2"), zn("node-y", "zone2")),
        List.of(ep("p-a1", "node-a", "foo"), ep("p-b1", "node-b", "foo"), ep("p-x1", "node-x", "foo"),
            ep("p-y1", "node-y", "foo")),
        "node-a:S node-b:UU node-x:U node-y:U"));
    cs.add(new Case("pod cannot be scheduled as all nodes don't have label 'rack'", fooPod(1, "rack"),
        List.of(zn("node-a", "zone1"), zn("node-x", "zone2")), List.of(), "node-a:UU node-x:UU"));
    cs.add(new Case("pods spread across nodes as 2/1/0/3, only node-x fits", fooPod(1, "node"), nodes4(), a2b1y3(),
        "node-a:U node-b:U node-x:S node-y:U"));
    cs.add(new Case("pods spread across nodes as 2/1/0/3, maxSkew is 2, node-b and node-x fit", fooPod(2, "node"),
        nodes4(), a2b1y3(), "node-a:U node-b:S node-x:S node-y:U"));
    cs.add(new Case("pods spread across nodes as 2/1/0/3, but pod doesn't match itself",
        pod("p").label("bar", "").spread(1, "node", HARD, FOO).obj(), nodes4(), a2b1y3(),
        "node-a:U node-b:S node-x:S node-y:U"));
    cs.add(new Case("incoming pod has nodeAffinity, pods spread as 2/~1~/~0~/3, hence node-a fits",
        pod("p").label("foo", "").nodeAffinityIn("node", "node-a", "node-y").spread(1, "node", HARD, FOO).obj(),
        nodes4(), a2b1y3(), "node-a:S node-b:S node-x:S node-y:U"));
    cs.add(new Case("terminating Pods should be excluded", fooPod(1, "node"), List.of(nn("node-a"), nn("node-b")),
        List.of(pod("p-a").node("node-a").label("foo", "").terminating().obj(), ep("p-b", "node-b", "foo")),
        "node-a:S node-b:U"));
    cs.add(new Case("incoming pod has nodeAffinity, pods spread as 0/~2~/0/1, hence node-a fits",
        pod("p").label("foo", "").nodeAffinityNotIn("node", "node-b").spread(1, "zone", HARD, FOO).obj(), nodes4(),
        List.of(ep("p-b1", "node-b", "foo"), ep("p-b2", "node-b", "foo"), ep("p-y1", "node-y", "foo")),
        "node-a:S node-b:S node-x:U node-y:U"));
    List<Node> abc = List.of(nn("node-a"), nn("node-b"), nn("node-c"));
    List<Pod> twoTwoOne = List.of(ep("p-a1", "node-a", "foo"), ep("p-a2", "node-a", "foo"),
        ep("p-b1", "node-b", "foo"), ep("p-b2", "node-b", "foo"), ep("p-c1", "node-c", "foo"));
    cs.add(new Case("pods spread across nodes as 2/2/1, maxSkew is 2, and the number of domains < minDomains, then "
        + "the third node fits", minDomains("node", 4), abc, twoTwoOne, "node-a:U node-b:U node-c:S"));
    cs.add(new Case("pods spread across nodes as 2/2/1, maxSkew is 2, and the number of domains > minDomains, then "
        + "the all nodes fit", minDomains("node", 2), abc, twoTwoOne, "node-a:S node-b:S node-c:S"));
    cs.add(new Case("pods spread across zone as 2/1, maxSkew is 2 and the number of domains < minDomains, then the "
        + "third and fourth nodes fit", minDomains("zone", 3), nodes4(), b1b2y1(),
        "node-a:U node-b:U node-x:S node-y:S"));
    cs.add(new Case("pods spread across zone as 2/1, maxSkew is 2 and the number of domains > minDomains, then the "
        + "all nodes fit", minDomains("zone", 1), nodes4(), b1b2y1(), "node-a:S node-b:S node-x:S node-y:S"));
    List<Node> abxFooY = List.of(nf("node-a"), nf("node-b"), nf("node-x"), nn("node-y"));
    cs.add(new Case("NodeAffinityPolicy honored with labelSelectors",
        pod("p").label("foo", "").nodeSelector(Map.of("foo", "")).spread(1, "node", HARD, FOO).obj(), abxFooY,
        b1b2y1(), "node-a:U node-b:U node-x:S node-y:S"));
    cs.add(new Case("NodeAffinityPolicy ignored with labelSelectors",
        pod("p").label("foo", "").nodeSelector(Map.of("foo", "")).spread(1, "node", HARD, FOO, null, IGNORE, null,
            null).obj(), abxFooY, b1b2y1(), "node-a:U node-b:U node-x:S node-y:U"));
    cs.add(new Case("NodeAffinityPolicy honored with nodeAffinity",
        pod("p").label("foo", "").nodeAffinityIn("foo", "").spread(1, "node", HARD, FOO).obj(), abxFooY, b1b2y1(),
        "node-a:U node-b:U node-x:S node-y:S"));
    cs.add(new Case("NodeAffinityPolicy ignored with labelSelectors (nodeAffinity)",
        pod("p").label("foo", "").nodeAffinityIn("foo", "").spread(1, "node", HARD, FOO, null, IGNORE, null, null)
            .obj(), abxFooY, b1b2y1(), "node-a:U node-b:U node-x:S node-y:U"));
    List<Node> taintedY = List.of(nf("node-a"), nf("node-b"), nf("node-x"),
        node("node-y").label("node", "node-y").taints(TAINTS).obj());
    cs.add(new Case("NodeTaintsPolicy honored",
        pod("p").label("foo", "").spread(1, "node", HARD, FOO, null, null, HONOR, null).obj(), taintedY, b1b2y1(),
        "node-a:U node-b:U node-x:S node-y:S"));
    cs.add(new Case("NodeTaintsPolicy ignored", fooPod(1, "node"), taintedY, b1b2y1(),
        "node-a:U node-b:U node-x:S node-y:U"));
    return cs;
  }

  static List<Case> multipleConstraints() {
    Pod zoneNode = pod("p").label("foo", "").spread(1, "zone", HARD, FOO).spread(1, "node", HARD, FOO).obj();
    Pod fooBar = pod("p").label("foo", "").label("bar", "").spread(1, "zone", HARD, FOO).spread(1, "node", HARD, BAR)
        .obj();
    List<Case> cs = new ArrayList<>();
    cs.add(new Case("two Constraints on zone and node, spreads = [3/3, 2/1/0/3]", zoneNode, nodes4(), a2b1y3(),
        "node-a:U node-b:U node-x:S node-y:U"));
    cs.add(new Case("two Constraints on zone and node, spreads = [3/4, 2/1/0/4]", zoneNode, nodes4(), fooPods7(),
        "node-a:U node-b:U node-x:U node-y:U"));
    cs.add(new Case("Constraints hold different labelSelectors, spreads = [1/0, 1/0/0/1]", fooBar, nodes4(),
        List.of(ep("p-a1", "node-a", "foo"), ep("p-y1", "node-y", "bar")), "node-a:U node-b:U node-x:S node-y:U"));
    cs.add(new Case("Constraints hold different labelSelectors, spreads = [1/0, 0/0/1/1]", fooBar, nodes4(),
        List.of(ep("p-a1", "node-a", "foo"), ep("p-x1", "node-x", "bar"), ep("p-y1", "node-y", "bar")),
        "node-a:U node-b:U node-x:U node-y:U"));
    cs.add(new Case("Constraints hold different labelSelectors, spreads = [2/3, 1/0/0/1]", fooBar, nodes4(),
        List.of(ep("p-a1", "node-a", "foo"), ep("p-a2", "node-a", "foo", "bar"), ep("p-y1", "node-y", "foo"),
            ep("p-y2", "node-y", "foo", "bar"), ep("p-y3", "node-y", "foo")),
        "node-a:U node-b:S node-x:U node-y:U"));
    cs.add(new Case("Constraints hold different labelSelectors but pod doesn't match itself on 'zone' constraint",
        pod("p").label("bar", "").spread(1, "zone", HARD, FOO).spread(1, "node", HARD, BAR).obj(), nodes4(),
        List.of(ep("p-a1", "node-a", "foo"), ep("p-x1", "node-x", "bar"), ep("p-y1", "node-y", "bar")),
        "node-a:S node-b:S node-x:U node-y:U"));
    cs.add(new Case("two Constraints on zone and node, absence of label 'node' on node-x, spreads = [1/1, 1/0/0/1]",
        zoneNode, List.of(zn("node-a", "zone1"), zn("node-b", "zone1"), node("node-x").label("zone", "zone2").obj(),
            zn("node-y", "zone2")),
        List.of(ep("p-a1", "node-a", "foo"), ep("p-y3", "node-y", "foo")), "node-a:U node-b:S node-x:UU node-y:U"));
    cs.add(new Case("two node inclusion Constraints, zone: honor/ignore, node: ignore/ignore",
        pod("p").label("foo", "").nodeSelector(Map.of("foo", "")).spread(1, "zone", HARD, FOO)
            .spread(1, "node", HARD, FOO, null, IGNORE, null, null).obj(),
        List.of(znf("node-a", "zone1"), znf("node-b", "zone1"), znf("node-x", "zone2"), zn("node-y", "zone2")),
        a1b1y1(), "node-a:U node-b:U node-x:S node-y:U"));
    cs.add(new Case("two node inclusion Constraints, zone: honor/honor, node: honor/ignore",
        pod("p").label("foo", "").spread(1, "zone", HARD, FOO, null, null, HONOR, null).spread(1, "node", HARD, FOO)
            .obj(),
        List.of(znf("node-a", "zone1"), znf("node-b", "zone1"), znf("node-x", "zone2"),
            node("node-y").label("zone", "zone2").label("node", "node-y").taints(TAINTS).obj()),
        a1b1y1(), "node-a:U node-b:U node-x:S node-y:U"));
    List<Node> mixed = List.of(znf("node-a", "zone1"), zn("node-b", "zone1"), znf("node-x", "zone2"),
        node("node-y").label("zone", "zone2").label("node", "node-y").label("foo", "").taints(TAINTS).obj());
    cs.add(new Case("two node inclusion Constraints, zone: honor/ignore, node: honor/ignore",
        pod("p").label("foo", "").nodeSelector(Map.of("foo", "")).spread(1, "zone", HARD, FOO)
            .spread(1, "node", HARD, FOO).obj(), mixed, a1b1y1(), "node-a:U node-b:S node-x:S node-y:U"));
    cs.add(new Case("two node inclusion Constraints, zone: honor/honor, node: ignore/ignore",
        pod("p").label("foo", "").nodeSelector(Map.of("foo", "")).spread(1, "zone", HARD, FOO, null, null, HONOR, null)
            .spread(1, "node", HARD, FOO, null, IGNORE, null, null).obj(), mixed, a1b1y1(),
        "node-a:U node-b:U node-x:S node-y:U"));
    return cs;
  }

  static Map<String, String> parse(String want) {
    Map<String, String> out = new LinkedHashMap<>();
    for (String kv : want.split(" ")) {
      String[] p = kv.split(":");
      out.put(p[0], p[1]);
    }
    return out;
  }

  static String code(Status s) {
    return switch (s.code()) {
      case SUCCESS -> "S";
      case UNSCHEDULABLE -> "U";
      case UNSCHEDULABLE_AND_UNRESOLVABLE -> "UU";
      default -> s.code().name();
    };
  }

  private static Stream<DynamicTest> run(List<Case> cases) {
    return cases.stream().map(tc -> DynamicTest.dynamicTest(tc.name(), () -> {
      Cluster cluster = new Cluster(tc.nodes(), tc.existing());
      PodTopologySpreadPlugin plugin = new PodTopologySpreadPlugin(PodTopologySpreadArgs.defaults(), () -> cluster);
      MapCycleState state = new MapCycleState();
      PodInfo pod = PodInfos.of(tc.pod());
      assertThat(plugin.preFilter(state, pod, cluster).status().isSuccess()).isTrue();
      Map<String, String> got = new LinkedHashMap<>();
      for (NodeInfo n : cluster.nodes()) {
        Status s = plugin.filter(state, pod, n);
        got.put(n.name(), code(s));
        if (s.code() == Status.Code.UNSCHEDULABLE) {
          assertThat(s.reasons()).containsExactly("node(s) didn't match pod topology spread constraints");
        } else if (s.code() == Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE) {
          assertThat(s.reasons())
              .containsExactly("node(s) didn't match pod topology spread constraints (missing required label)");
        }
      }
      assertThat(got).isEqualTo(parse(tc.want()));
    }));
  }

  @TestFactory
  Stream<DynamicTest> filter_upstreamTestSingleConstraint_codesMatch() {
    assertThat(singleConstraint()).hasSize(23);
    return run(singleConstraint());
  }

  @TestFactory
  Stream<DynamicTest> filter_upstreamTestMultipleConstraints_codesMatch() {
    assertThat(multipleConstraints()).hasSize(11);
    return run(multipleConstraints());
  }

  /** Upstream TestPreFilterDisabled: Filter without PreFilter state is an error naming the state key. */
  @Test
  void filter_withoutPreFilter_returnsError() {
    Cluster cluster = new Cluster(List.of(), List.of());
    PodTopologySpreadPlugin plugin = new PodTopologySpreadPlugin(PodTopologySpreadArgs.defaults(), () -> cluster);
    Status s = plugin.filter(new MapCycleState(), PodInfos.of(pod("p").obj()),
        NodeInfos.of(node("n").obj(), List.of()));
    assertThat(s.code()).isEqualTo(Status.Code.ERROR);
    assertThat(s.message()).startsWith("reading \"PreFilterPodTopologySpread\" from cycle state");
  }

  @Test
  void preFilter_podWithoutConstraints_skipsAndFilterPasses() {
    Cluster cluster = new Cluster(List.of(zn("node-a", "zone1")), List.of());
    PodTopologySpreadPlugin plugin = new PodTopologySpreadPlugin(PodTopologySpreadArgs.defaults(), () -> cluster);
    MapCycleState state = new MapCycleState();
    PodInfo pod = PodInfos.of(pod("p").label("foo", "").obj());
    assertThat(plugin.preFilter(state, pod, cluster).status().isSkip()).isTrue();
    assertThat(plugin.filter(state, pod, cluster.nodes().get(0))).isSameAs(Status.success());
  }

  @Test
  void filter_rejection_carriesPluginNameAndSharedStatus() {
    Cluster cluster = new Cluster(nodes4(), a2b1y3());
    PodTopologySpreadPlugin plugin = new PodTopologySpreadPlugin(PodTopologySpreadArgs.defaults(), () -> cluster);
    MapCycleState state = new MapCycleState();
    PodInfo pod = PodInfos.of(fooPod(1, "node"));
    plugin.preFilter(state, pod, cluster);
    Status first = plugin.filter(state, pod, cluster.nodes().get(0));
    assertThat(first.plugin()).isEqualTo(PodTopologySpreadPlugin.NAME);
    assertThat(plugin.filter(state, pod, cluster.nodes().get(1))).isSameAs(first);
  }
}
