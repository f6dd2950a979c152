package io.fleetkit.scheduler.plugins.podtopologyspread;

import static io.fleetkit.scheduler.plugins.podtopologyspread.SpreadFixtures.BAR;
import static io.fleetkit.scheduler.plugins.podtopologyspread.SpreadFixtures.FOO;
import static io.fleetkit.scheduler.plugins.podtopologyspread.SpreadFixtures.HARD;
import static io.fleetkit.scheduler.plugins.podtopologyspread.SpreadFixtures.HONOR;
import static io.fleetkit.scheduler.plugins.podtopologyspread.SpreadFixtures.IGNORE;
import static io.fleetkit.scheduler.plugins.podtopologyspread.SpreadFixtures.SOFT;
import static io.fleetkit.scheduler.plugins.podtopologyspread.SpreadFixtures.TAINTS;
import static io.fleetkit.scheduler.plugins.podtopologyspread.SpreadFixtures.node;
import static io.fleetkit.scheduler.plugins.podtopologyspread.SpreadFixtures.pod;
import static io.fleetkit.scheduler.plugins.podtopologyspread.SpreadFixtures.sel;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.framework.PodInfos;
import io.fleetkit.api.framework.PreFilterResult;
import io.fleetkit.api.scheduling.NodeInclusionPolicy;
import io.fleetkit.api.scheduling.TopologySpreadConstraint;
import io.fleetkit.scheduler.plugins.podtopologyspread.SpreadFixtures.Cluster;
import io.fleetkit.scheduler.plugins.podtopologyspread.SpreadFixtures.MapCycleState;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Ported from kubernetes/kubernetes {@code pkg/scheduler/framework/plugins/podtopologyspread/filtering_test.go},
 * {@code TestPreFilterState}: the PreFilter state, observed as the compiled constraints and the matching-pod count of
 * every eligible domain (the domain count is the map's size; the global minimum, which upstream keeps as the first
 * critical path, must equal the smallest count). Upstream runs these with {@code DefaultingType: List}.
 */
final class PodTopologySpreadPreFilterStateTest {

  /** Node {@code name} labelled zone=zone, node=name. */
  static Node zn(String name, String zone) {
    return node(name).label("zone", zone).label("node", name).obj();
  }

  /** Node {@code name} labelled node=name. */
  static Node nn(String name) {
    return node(name).label("node", name).obj();
  }

  /** Existing pod {@code name} on {@code node} labelled {@code key: ""}. */
  static Pod ep(String name, String node, String... keys) {
    SpreadFixtures.PodW p = pod(name).node(node);
    for (String k : keys) {
      p.label(k, "");
    }
    return p.obj();
  }

  static List<Node> nodes4() {
    return List.of(zn("node-a", "zone1"), zn("node-b", "zone1"), zn("node-x", "zone2"), zn("node-y", "zone2"));
  }

  /** Upstream's 5 existing foo pods: a1, a2, b1, y1, y2. */
  static List<Pod> fooPods5() {
    return List.of(ep("p-a1", "node-a", "foo"), ep("p-a2", "node-a", "foo"), ep("p-b1", "node-b", "foo"),
        ep("p-y1", "node-y", "foo"), ep("p-y2", "node-y", "foo"));
  }

  /** Upstream's 7 existing foo pods: a1, a2, b1, y1..y4. */
  static List<Pod> fooPods7() {
    return List.of(ep("p-a1", "node-a", "foo"), ep("p-a2", "node-a", "foo"), ep("p-b1", "node-b", "foo"),
        ep("p-y1", "node-y", "foo"), ep("p-y2", "node-y", "foo"), ep("p-y3", "node-y", "foo"),
        ep("p-y4", "node-y", "foo"));
  }

  /** Pods labelled foo=a: a1, a2, b1, y1, y2. */
  static List<Pod> fooAPods5() {
    List<Pod> out = new ArrayList<>();
    for (String[] p : new String[][] {{"p-a1", "node-a"}, {"p-a2", "node-a"}, {"p-b1", "node-b"}, {"p-y1", "node-y"},
        {"p-y2", "node-y"}}) {
      out.add(pod(p[0]).node(p[1]).label("foo", "a").obj());
    }
    return out;
  }

  /** The a/b/c cluster of the inclusion-policy cases and its bar pods. */
  static List<Pod> barPods() {
    return List.of(ep("p-a", "node-a", "bar"), ep("p-b", "node-b", "bar"), ep("p-c", "node-b", "bar"),
        ep("p-d", "node-c"));
  }

  /** Constraint descriptor {@code maxSkew/key/selector/minDomains/affinityPolicy/taintsPolicy}. */
  static String d(int maxSkew, String key, String selector) {
    return d(maxSkew, key, selector, HONOR, IGNORE);
  }

  static String d(int maxSkew, String key, String selector, NodeInclusionPolicy aff, NodeInclusionPolicy taints) {
    return maxSkew + "/" + key + "/" + selector + "/1/" + aff + "/" + taints;
  }

  static String describe(SpreadConstraint c) {
    String sel = c.selector().matchesNothing() ? "<nothing>" : c.selector().isEmpty() ? "<everything>"
        : c.selector().toString();
    return c.maxSkew() + "/" + c.topologyKey() + "/" + sel + "/" + c.minDomains() + "/" + c.nodeAffinityPolicy()
        + "/" + c.nodeTaintsPolicy();
  }

  /** Parses {@code "a=1,b=2"} (empty string: no domain). */
  static Map<String, Integer> counts(String s) {
    Map<String, Integer> out = new TreeMap<>();
    if (!s.isEmpty()) {
      for (String kv : s.split(",")) {
        String[] p = kv.split("=");
        out.put(p[0], Integer.parseInt(p[1]));
      }
    }
    return out;
  }

  /** Expected state: constraint descriptors, each followed by its domain counts. */
  record Want(List<String> constraints, List<Map<String, Integer>> counts) {
    static Want of(String... pairs) {
      List<String> cs = new ArrayList<>();
      List<Map<String, Integer>> ms = new ArrayList<>();
      for (int i = 0; i < pairs.length; i += 2) {
        cs.add(pairs[i]);
        ms.add(PodTopologySpreadPreFilterStateTest.counts(pairs[i + 1]));
      }
      return new Want(cs, ms);
    }
  }

  /** Upstream service objects: the workload selector is the union of the selectors of the services selecting the pod. */
  static PodTopologySpreadArgs listArgs(List<TopologySpreadConstraint> defaults, Map<String, String> service) {
    return new PodTopologySpreadArgs(PodTopologySpreadArgs.DefaultingType.List, defaults,
        p -> !service.isEmpty() && LabelSelector.of(service).matches(p.metadata().labels())
            ? LabelSelector.of(service) : null);
  }

  static TopologySpreadConstraint dc(int maxSkew, String key, io.fleetkit.api.scheduling.UnsatisfiableConstraintAction a) {
    return new TopologySpreadConstraint(maxSkew, key, a, null, null, HONOR, IGNORE, List.of());
  }

  record Case(String name, Pod pod, List<Node> nodes, List<Pod> existing, PodTopologySpreadArgs args,
      @org.jspecify.annotations.Nullable Want want) {}

  static Case c(String name, Pod pod, List<Node> nodes, List<Pod> existing, Want want) {
    return new Case(name, pod, nodes, existing, listArgs(List.of(), Map.of()), want);
  }

  static List<Case> cases() {
    List<Case> cs = new ArrayList<>();
    cs.add(c("clean cluster with one spreadConstraint",
        pod("p").label("foo", "").spread(5, "zone", HARD, sel().label("foo", "bar").obj()).obj(), nodes4(), List.of(),
        Want.of(d(5, "zone", "foo=bar"), "zone1=0,zone2=0")));
    cs.add(c("normal case with one spreadConstraint",
        pod("p").label("foo", "").spread(1, "zone", HARD, FOO).obj(), nodes4(), fooPods5(),
        Want.of(d(1, "zone", "foo"), "zone1=3,zone2=2")));
    cs.add(c("normal case with null label selector",
        pod("p").label("foo", "").spread(1, "zone", HARD, null).obj(), nodes4(), fooPods5(),
        Want.of(d(1, "zone", "<nothing>"), "zone1=0,zone2=0")));
    List<Node> six = new ArrayList<>(nodes4());
    six.add(zn("node-o", "zone3"));
    six.add(zn("node-p", "zone3"));
    cs.add(c("normal case with one spreadConstraint, on a 3-zone cluster",
        pod("p").label("foo", "").spread(1, "zone", HARD, FOO).obj(), six, fooPods5(),
        Want.of(d(1, "zone", "foo"), "zone1=3,zone2=2,zone3=0")));
    cs.add(c("namespace mismatch doesn't count",
        pod("p").label("foo", "").spread(1, "zone", HARD, FOO).obj(), nodes4(),
        List.of(ep("p-a1", "node-a", "foo"), pod("p-a2").ns("ns1").node("node-a").label("foo", "").obj(),
            ep("p-b1", "node-b", "foo"), pod("p-y1").ns("ns2").node("node-y").label("foo", "").obj(),
            ep("p-y2", "node-y", "foo")),
        Want.of(d(1, "zone", "foo"), "zone1=2,zone2=1")));
    cs.add(c("normal case with two spreadConstraints",
        pod("p").label("foo", "").spread(1, "zone", HARD, FOO).spread(1, "node", HARD, FOO).obj(), nodes4(),
        fooPods7(),
        Want.of(d(1, "zone", "foo"), "zone1=3,zone2=4", d(1, "node", "foo"), "node-a=2,node-b=1,node-x=0,node-y=4")));
    List<Node> aby = List.of(zn("node-a", "zone1"), zn("node-b", "zone1"), zn("node-y", "zone2"));
    cs.add(c("soft spreadConstraints should be bypassed",
        pod("p").label("foo", "").spread(1, "zone", SOFT, FOO).spread(1, "zone", HARD, FOO)
            .spread(1, "node", SOFT, FOO).spread(1, "node", HARD, FOO).obj(), aby, fooPods7(),
        Want.of(d(1, "zone", "foo"), "zone1=3,zone2=4", d(1, "node", "foo"), "node-a=2,node-b=1,node-y=4")));
    cs.add(c("different labelSelectors - simple version",
        pod("p").label("foo", "").label("bar", "").spread(1, "zone", HARD, FOO).spread(1, "node", HARD, BAR).obj(),
        aby, List.of(ep("p-a", "node-a", "foo"), ep("p-b", "node-b", "bar")),
        Want.of(d(1, "zone", "foo"), "zone1=1,zone2=0", d(1, "node", "bar"), "node-a=0,node-b=1,node-y=0")));
    cs.add(c("different labelSelectors - complex pods",
        pod("p").label("foo", "").label("bar", "").spread(1, "zone", HARD, FOO).spread(1, "node", HARD, BAR).obj(),
        aby, List.of(ep("p-a1", "node-a", "foo"), ep("p-a2", "node-a", "foo", "bar"), ep("p-b1", "node-b", "foo"),
            ep("p-y1", "node-y", "foo"), ep("p-y2", "node-y", "foo", "bar"), ep("p-y3", "node-y", "foo"),
            ep("p-y4", "node-y", "foo", "bar")),
        Want.of(d(1, "zone", "foo"), "zone1=3,zone2=4", d(1, "node", "bar"), "node-a=1,node-b=0,node-y=2")));
    cs.add(c("two spreadConstraints, and with podAffinity",
        pod("p").label("foo", "").nodeAffinityNotIn("node", "node-x").spread(1, "zone", HARD, FOO)
            .spread(1, "node", HARD, FOO).obj(), nodes4(), fooPods7(),
        Want.of(d(1, "zone", "foo"), "zone1=3,zone2=4", d(1, "node", "foo"), "node-a=2,node-b=1,node-y=4")));
    cs.add(new Case("default constraints and a service",
        pod("p").label("foo", "bar").label("baz", "kar").obj(), List.of(), List.of(),
        listArgs(List.of(dc(3, "node", HARD), dc(2, "node", SOFT), dc(5, "rack", HARD)), Map.of("foo", "bar")),
        Want.of(d(3, "node", "foo=bar"), "", d(5, "rack", "foo=bar"), "")));
    cs.add(new Case("default constraints and a service that doesn't match",
        pod("p").label("foo", "bar").obj(), List.of(), List.of(),
        listArgs(List.of(dc(3, "node", HARD)), Map.of("baz", "kep")), null));
    cs.add(new Case("default constraints and a service, but pod has constraints",
        pod("p").label("foo", "bar").label("baz", "tar").spread(1, "zone", HARD, sel().label("baz", "tar").obj())
            .spread(2, "planet", SOFT, sel().label("fot", "rok").obj()).obj(), List.of(), List.of(),
        listArgs(List.of(dc(2, "node", HARD)), Map.of("foo", "bar")),
        Want.of(d(1, "zone", "baz=tar"), "")));
    cs.add(new Case("default soft constraints and a service",
        pod("p").label("foo", "bar").obj(), List.of(), List.of(),
        listArgs(List.of(dc(2, "node", SOFT)), Map.of("foo", "bar")), null));
    cs.add(c("TpKeyToDomainsNum is calculated when MinDomains is enabled",
        pod("p").label("foo", "").spread(1, "zone", HARD, FOO).spread(1, "node", HARD, FOO).obj(), nodes4(),
        fooPods7(),
        Want.of(d(1, "zone", "foo"), "zone1=3,zone2=4", d(1, "node", "foo"), "node-a=2,node-b=1,node-x=0,node-y=4")));
    List<Node> abcFoo = List.of(node("node-a").label("node", "node-a").label("foo", "").obj(),
        node("node-b").label("node", "node-b").label("foo", "").obj(),
        node("node-c").label("node", "node-c").label("bar", "").obj());
    // Upstream runs this with the NodeInclusionPolicy gate off; with the gate on (FleetKit) the default Honor policy
    // gives the same counts.
    cs.add(c("feature gate disabled with NodeAffinityPolicy",
        pod("p").label("foo", "").nodeSelector(Map.of("foo", "")).spread(1, "node", HARD, BAR).obj(), abcFoo,
        barPods(), Want.of(d(1, "node", "bar"), "node-a=1,node-b=2")));
    cs.add(c("NodeAffinityPolicy honored with labelSelectors",
        pod("p").label("foo", "").nodeSelector(Map.of("foo", "")).spread(1, "node", HARD, BAR).obj(), abcFoo,
        barPods(), Want.of(d(1, "node", "bar"), "node-a=1,node-b=2")));
    cs.add(c("NodeAffinityPolicy ignored with labelSelectors",
        pod("p").label("foo", "").nodeSelector(Map.of("foo", ""))
            .spread(1, "node", HARD, BAR, null, IGNORE, null, null).obj(), abcFoo,
        barPods(), Want.of(d(1, "node", "bar", IGNORE, IGNORE), "node-a=1,node-b=2,node-c=0")));
    cs.add(c("NodeAffinityPolicy honored with nodeAffinity",
        pod("p").label("foo", "").nodeAffinityIn("foo", "").spread(1, "node", HARD, BAR).obj(), abcFoo,
        List.of(ep("p-a", "node-a", "bar"), ep("p-c", "node-b", "bar"), ep("p-d", "node-b", "bar"),
            ep("p-e", "node-c")),
        Want.of(d(1, "node", "bar"), "node-a=1,node-b=2")));
    cs.add(c("NodeAffinityPolicy ignored with nodeAffinity",
        pod("p").label("foo", "").nodeAffinityIn("foo", "").spread(1, "node", HARD, BAR, null, IGNORE, null, null)
            .obj(), abcFoo, barPods(), Want.of(d(1, "node", "bar", IGNORE, IGNORE), "node-a=1,node-b=2,node-c=0")));
    List<Node> abcTaint = List.of(nn("node-a"), nn("node-b"),
        node("node-c").label("node", "node-c").taints(TAINTS).label("bar", "").obj());
    // Upstream: gate off; the default Ignore taints policy gives the same counts with the gate on.
    cs.add(c("feature gate disabled with NodeTaintsPolicy",
        pod("p").label("foo", "").spread(1, "node", HARD, BAR).obj(), abcTaint, barPods(),
        Want.of(d(1, "node", "bar"), "node-a=1,node-b=2,node-c=0")));
    cs.add(c("NodeTaintsPolicy ignored",
        pod("p").label("foo", "").spread(1, "node", HARD, BAR).obj(), abcTaint, barPods(),
        Want.of(d(1, "node", "bar"), "node-a=1,node-b=2,node-c=0")));
    cs.add(c("NodeTaintsPolicy honored",
        pod("p").label("foo", "").spread(1, "node", HARD, BAR, null, null, HONOR, null).obj(), abcTaint, barPods(),
        Want.of(d(1, "node", "bar", HONOR, HONOR), "node-a=1,node-b=2")));
    cs.add(c("NodeTaintsPolicy honored with tolerated taints",
        pod("p").label("foo", "").toleration("node.kubernetes.io/unschedulable")
            .spread(1, "node", HARD, BAR, null, null, HONOR, null).obj(), abcTaint, barPods(),
        Want.of(d(1, "node", "bar", HONOR, HONOR), "node-a=1,node-b=2,node-c=0")));
    cs.add(c("two node inclusion Constraints, zone: honor/ignore, node: ignore/ignore",
        pod("p").label("foo", "").nodeSelector(Map.of("foo", "")).spread(1, "zone", HARD, FOO)
            .spread(1, "node", HARD, FOO, null, IGNORE, null, null).obj(),
        List.of(node("node-a").label("zone", "zone1").label("node", "node-a").label("foo", "").obj(),
            zn("node-b", "zone1"),
            node("node-x").label("zone", "zone2").label("node", "node-x").label("foo", "").obj()),
        List.of(ep("p-b1", "node-b", "foo"), ep("p-b2", "node-b", "foo"), ep("p-x1", "node-x", "foo")),
        Want.of(d(1, "zone", "foo"), "zone1=0,zone2=1", d(1, "node", "foo", IGNORE, IGNORE),
            "node-a=0,node-b=2,node-x=1")));
    cs.add(c("two node inclusion Constraints, zone: honor/honor, node: honor/ignore",
        pod("p").label("foo", "").spread(1, "zone", HARD, FOO, null, null, HONOR, null).spread(1, "node", HARD, FOO)
            .obj(),
        List.of(node("node-a").label("zone", "zone1").label("node", "node-a").label("foo", "").obj(),
            node("node-b").label("zone", "zone1").label("node", "node-b").taints(TAINTS).obj(),
            node("node-x").label("zone", "zone2").label("node", "node-x").label("foo", "").obj()),
        List.of(ep("p-b1", "node-b", "foo"), ep("p-b2", "node-b", "foo"), ep("p-x1", "node-x", "foo")),
        Want.of(d(1, "zone", "foo", HONOR, HONOR), "zone1=0,zone2=1", d(1, "node", "foo"),
            "node-a=0,node-b=2,node-x=1")));
    cs.add(c("two node inclusion Constraints, zone: honor/ignore, node: honor/ignore",
        pod("p").label("foo", "").nodeSelector(Map.of("foo", "")).spread(1, "zone", HARD, FOO)
            .spread(1, "node", HARD, FOO).obj(),
        List.of(zn("node-a", "zone1"),
            node("node-b").label("zone", "zone1").label("node", "node-b").label("foo", "").taints(TAINTS).obj(),
            node("node-x").label("zone", "zone2").label("node", "node-x").label("foo", "").obj(),
            zn("node-y", "zone2")),
        List.of(ep("p-a1", "node-a", "foo"), ep("p-a2", "node-a", "foo"), ep("p-x1", "node-x", "foo"),
            ep("p-y1", "node-y", "foo")),
        Want.of(d(1, "zone", "foo"), "zone1=0,zone2=1", d(1, "node", "foo"), "node-b=0,node-x=1")));
    cs.add(c("two node inclusion Constraints, zone: ignore/ignore, node: honor/honor",
        pod("p").label("foo", "").nodeSelector(Map.of("foo", "")).spread(1, "zone", HARD, FOO, null, IGNORE, null,
            null).spread(1, "node", HARD, FOO, null, null, HONOR, null).obj(),
        List.of(zn("node-a", "zone1"),
            node("node-b").label("zone", "zone1").label("node", "node-b").label("foo", "").taints(TAINTS).obj(),
            node("node-x").label("zone", "zone2").label("node", "node-x").label("foo", "").obj(),
            node("node-y").label("zone", "zone2").label("node", "node-y").label("foo", "").obj()),
        List.of(ep("p-a1", "node-a", "foo"), ep("p-a2", "node-a", "foo"), ep("p-x1", "node-x", "foo"),
            ep("p-x2", "node-x", "foo"), ep("p-y1", "node-y", "foo")),
        Want.of(d(1, "zone", "foo", IGNORE, IGNORE), "zone1=2,zone2=3", d(1, "node", "foo", HONOR, HONOR),
            "node-x=2,node-y=1")));
    cs.add(c("matchLabelKeys ANDed with LabelSelector when LabelSelector isn't empty",
        pod("p").label("foo", "").label("bar", "a").spread(1, "zone", HARD, FOO, null, null, null, List.of("bar"))
            .obj(), nodes4(),
        List.of(ep("p-a1", "node-a", "foo"), pod("p-a2").node("node-a").label("foo", "").label("bar", "a").obj(),
            ep("p-b1", "node-b", "foo"), pod("p-y1").node("node-y").label("foo", "").label("bar", "a").obj(),
            ep("p-y2", "node-y", "bar")),
        Want.of(d(1, "zone", "bar=a,foo"), "zone1=1,zone2=1")));
    cs.add(c("matchLabelKeys ANDed with LabelSelector when LabelSelector is empty",
        pod("p").label("foo", "a").spread(1, "zone", HARD, sel().obj(), null, null, null, List.of("foo")).obj(),
        nodes4(), fooAPods5(), Want.of(d(1, "zone", "foo=a"), "zone1=3,zone2=2")));
    cs.add(c("key in matchLabelKeys is ignored when LabelSelector is nil when feature gate enabled",
        pod("p").label("foo", "").spread(1, "zone", HARD, null, null, null, null, List.of("bar")).obj(), nodes4(),
        fooAPods5(), Want.of(d(1, "zone", "<nothing>"), "zone1=0,zone2=0")));
    // Upstream: gate off; a nil selector matches nothing either way.
    cs.add(c("no pod is matched when LabelSelector is nil when feature gate disabled",
        pod("p").label("foo", "").spread(1, "zone", HARD, null, null, null, null, List.of("bar")).obj(), nodes4(),
        fooAPods5(), Want.of(d(1, "zone", "<nothing>"), "zone1=0,zone2=0")));
    cs.add(c("key in matchLabelKeys is ignored when it isn't exist in pod.labels",
        pod("p").label("foo", "").spread(1, "zone", HARD, FOO, null, null, null, List.of("bar")).obj(), nodes4(),
        fooAPods5(), Want.of(d(1, "zone", "foo"), "zone1=3,zone2=2")));
    cs.add(c("skip if not specified", pod("p").label("foo", "").obj(), List.of(zn("node-a", "zone1")), List.of(),
        null));
    return cs;
  }

  // Skipped: "matchLabelKeys ignored when feature gate disabled" (FleetKit always merges matchLabelKeys).
  static final int PORTED = 34;

  @TestFactory
  Stream<DynamicTest> preFilter_upstreamTestPreFilterState_statesMatch() {
    List<Case> cases = cases();
    assertThat(cases).hasSize(PORTED);
    return cases.stream().map(tc -> DynamicTest.dynamicTest(tc.name(), () -> {
      Cluster cluster = new Cluster(tc.nodes(), tc.existing());
      PodTopologySpreadPlugin plugin = new PodTopologySpreadPlugin(tc.args(), () -> cluster);
      MapCycleState state = new MapCycleState();
      PreFilterResult result = plugin.preFilter(state, PodInfos.of(tc.pod()), cluster);
      if (tc.want() == null) {
        assertThat(result.status().isSkip()).as("status %s", result.status()).isTrue();
        return;
      }
      assertThat(result.status().isSuccess()).as("status %s", result.status()).isTrue();
      PreFilterState s = state.require(PodTopologySpreadPlugin.PRE_FILTER_KEY);
      List<String> got = new ArrayList<>();
      List<Map<String, Integer>> gotCounts = new ArrayList<>();
      for (int i = 0; i < s.constraints.length; i++) {
        got.add(describe(s.constraints[i]));
        gotCounts.add(s.domains[i].asMap());
        int expectedMin = s.domains[i].asMap().values().stream().mapToInt(Integer::intValue).min()
            .orElse(DomainCounts.NO_DOMAIN_MIN);
        assertThat(s.domains[i].min()).as("global min of constraint %s", i).isEqualTo(expectedMin);
      }
      assertThat(got).isEqualTo(tc.want().constraints());
      assertThat(gotCounts).isEqualTo(tc.want().counts());
    }));
  }
}
