package io.fleetkit.scheduler.plugins.podtopologyspread;

import static io.fleetkit.scheduler.plugins.podtopologyspread.PodTopologySpreadPreFilterStateTest.d;
import static io.fleetkit.scheduler.plugins.podtopologyspread.PodTopologySpreadPreFilterStateTest.dc;
import static io.fleetkit.scheduler.plugins.podtopologyspread.PodTopologySpreadPreFilterStateTest.describe;
import static io.fleetkit.scheduler.plugins.podtopologyspread.PodTopologySpreadPreFilterStateTest.ep;
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
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.PodInfos;
import io.fleetkit.api.framework.Status;
import io.fleetkit.scheduler.plugins.podtopologyspread.PodTopologySpreadArgs.DefaultingType;
import io.fleetkit.scheduler.plugins.podtopologyspread.SpreadFixtures.Cluster;
import io.fleetkit.scheduler.plugins.podtopologyspread.SpreadFixtures.MapCycleState;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Ported from kubernetes/kubernetes {@code pkg/scheduler/framework/plugins/podtopologyspread/scoring_test.go}:
 * {@code TestPreScoreSkip} (2 cases), {@code TestPreScoreStateEmptyNodes} (12 cases) and
 * {@code TestPodTopologySpreadScore} (25 of 27 cases; skipped: "matchLabelKeys ignored when feature gate disabled",
 * since FleetKit always merges matchLabelKeys, and "minDomains has no effect when ScheduleAnyway", which upstream
 * calls artificial: FleetKit's Pod validation, like the API server, rejects minDomains with ScheduleAnyway). Upstream's Service and ReplicaSet objects become the injected
 * workload-selector lookup ({@link PodTopologySpreadArgs#defaultSelector()}).
 */
final class PodTopologySpreadScoreTest {
  static final String HOST = PodTopologySpreadArgs.LABEL_HOSTNAME;
  static final String ZONE_LABEL = PodTopologySpreadArgs.LABEL_ZONE;
  static final Function<Pod, @Nullable LabelSelector> NONE = PodTopologySpreadArgs.NO_DEFAULT_SELECTOR;

  /** Node labelled kubernetes.io/hostname=name. */
  static Node hn(String name) {
    return node(name).label(HOST, name).obj();
  }

  /** Node labelled zone=zone and kubernetes.io/hostname=name. */
  static Node hzn(String name, String zone) {
    return node(name).label("zone", zone).label(HOST, name).obj();
  }

  /** {@code n} foo pods on each node: foos("node-a", 2, "node-b", 1). */
  static List<Pod> foos(Object... nodeAndCount) {
    List<Pod> out = new ArrayList<>();
    for (int i = 0; i < nodeAndCount.length; i += 2) {
      String n = (String) nodeAndCount[i];
      for (int k = 1; k <= (Integer) nodeAndCount[i + 1]; k++) {
        out.add(ep("p-" + n.substring(5) + k, n, "foo"));
      }
    }
    return out;
  }

  static PodTopologySpreadArgs list(List<io.fleetkit.api.scheduling.TopologySpreadConstraint> defaults,
      Function<Pod, @Nullable LabelSelector> lookup) {
    return new PodTopologySpreadArgs(DefaultingType.List, defaults, lookup);
  }

  // ---------------------------------------------------------------- TestPreScoreSkip

  @Test
  void preScore_upstreamTestPreScoreSkip_noSoftConstraints_skips() {
    Cluster cluster = new Cluster(List.of(hn("node-a"), hn("node-b")), List.of());
    PodTopologySpreadPlugin plugin = new PodTopologySpreadPlugin(list(List.of(), NONE), () -> cluster);
    assertThat(plugin.preScore(new MapCycleState(), PodInfos.of(pod("p").obj()), cluster.nodes()).isSkip()).isTrue();
  }

  @Test
  void preScore_upstreamTestPreScoreSkip_replicaSetDoesNotMatch_skips() {
    Cluster cluster = new Cluster(List.of(node("node-a").label("planet", "mars").obj()), List.of());
    // The pod's owner rs2 does not exist (only rs1 does), so the workload lookup finds nothing.
    PodTopologySpreadPlugin plugin = new PodTopologySpreadPlugin(list(List.of(dc(2, "planet", SOFT)), NONE),
        () -> cluster);
    Pod p = pod("p").label("foo", "bar").label("baz", "sup").obj();
    assertThat(plugin.preScore(new MapCycleState(), PodInfos.of(p), cluster.nodes()).isSkip()).isTrue();
  }

  // ---------------------------------------------------------------- TestPreScoreStateEmptyNodes

  /** counts: one entry per constraint, {@code null} for hostname (counted per node in Score). */
  record StateCase(String name, Pod pod, List<Node> nodes, PodTopologySpreadArgs args, List<String> constraints,
      List<@Nullable String> counts, Set<String> ignored, List<Integer> weightSizes) {}

  static List<StateCase> stateCases() {
    List<Node> abx = List.of(hzn("node-a", "zone1"), hzn("node-b", "zone1"), hzn("node-x", "zone2"));
    List<Node> abxFoo = List.of(node("node-a").label("zone", "zone1").label("foo", "").label(HOST, "node-a").obj(),
        node("node-b").label("zone", "zone1").label("foo", "").label(HOST, "node-b").obj(), hzn("node-x", "zone2"));
    List<StateCase> cs = new ArrayList<>();
    cs.add(new StateCase("normal case",
        pod("p").label("foo", "").spread(1, "zone", SOFT, FOO).spread(1, HOST, SOFT, FOO).obj(), abx,
        list(List.of(), NONE), List.of(d(1, "zone", "foo"), d(1, HOST, "foo")),
        java.util.Arrays.asList("zone1=0,zone2=0", null), Set.of(), List.of(2, 3)));
    cs.add(new StateCase("null selector", pod("p").label("foo", "").spread(1, "zone", SOFT, null).obj(), abx,
        list(List.of(), NONE), List.of(d(1, "zone", "<nothing>")), List.of("zone1=0,zone2=0"), Set.of(),
        List.of(2)));
    cs.add(new StateCase("node-x doesn't have label zone",
        pod("p").label("foo", "").spread(1, "zone", SOFT, FOO).spread(1, HOST, SOFT, BAR).obj(),
        List.of(hzn("node-a", "zone1"), hzn("node-b", "zone1"), hn("node-x")), list(List.of(), NONE),
        List.of(d(1, "zone", "foo"), d(1, HOST, "bar")), java.util.Arrays.asList("zone1=0", null), Set.of("node-x"),
        List.of(1, 2)));
    Pod rsPod = pod("p").label("foo", "tar").label("baz", "sup").obj();
    cs.add(new StateCase("system default constraints and a replicaset", rsPod,
        List.of(node("node-a").label(HOST, "node-a").label(ZONE_LABEL, "mars").obj(),
            node("node-b").label(HOST, "node-b").label(ZONE_LABEL, "mars").obj(), hn("node-c"), hn("node-d")),
        PodTopologySpreadArgs.systemDefaults(p -> FOO), List.of(d(3, HOST, "foo"), d(5, ZONE_LABEL, "foo")),
        java.util.Arrays.asList(null, "=0,mars=0"), Set.of(), List.of(4, 2)));
    cs.add(new StateCase("default constraints and a replicaset", rsPod,
        List.of(node("node-a").label("rack", "rack1").label(HOST, "node-a").label("planet", "mars").obj()),
        list(List.of(dc(1, HOST, SOFT), dc(2, "rack", HARD), dc(2, "planet", SOFT)), p -> FOO),
        List.of(d(1, HOST, "foo"), d(2, "planet", "foo")), java.util.Arrays.asList(null, "mars=0"), Set.of(),
        List.of(1, 1)));
    cs.add(new StateCase("default constraints and a replicaset, but pod has constraints",
        pod("p").label("foo", "bar").label("baz", "sup").spread(1, "zone", HARD, BAR)
            .spread(2, "planet", SOFT, sel().label("baz", "sup").obj()).obj(),
        List.of(node("node-a").label("planet", "mars").label("galaxy", "andromeda").obj()),
        list(List.of(dc(2, "galaxy", SOFT)), p -> FOO), List.of(d(2, "planet", "baz=sup")), List.of("mars=0"),
        Set.of(), List.of(1)));
    cs.add(new StateCase("NodeAffinityPolicy honored with labelSelectors",
        pod("p").label("foo", "").nodeSelector(Map.of("foo", "")).spread(1, "zone", SOFT, BAR).obj(), abxFoo,
        list(List.of(), NONE), List.of(d(1, "zone", "bar")), List.of("zone1=0,zone2=0"), Set.of(), List.of(2)));
    cs.add(new StateCase("NodeAffinityPolicy ignored with labelSelectors",
        pod("p").label("foo", "").nodeSelector(Map.of("foo", "")).spread(1, "zone", SOFT, BAR, null, IGNORE, null,
            null).obj(), abxFoo,
        list(List.of(), NONE), List.of(d(1, "zone", "bar", IGNORE, IGNORE)), List.of("zone1=0,zone2=0"), Set.of(),
        List.of(2)));
    cs.add(new StateCase("NodeAffinityPolicy honored with nodeAffinity",
        pod("p").label("foo", "").nodeAffinityIn("foo", "").spread(1, "zone", SOFT, BAR).obj(), abxFoo,
        list(List.of(), NONE), List.of(d(1, "zone", "bar")), List.of("zone1=0,zone2=0"), Set.of(), List.of(2)));
    cs.add(new StateCase("NodeAffinityPolicy ignored with nodeAffinity",
        pod("p").label("foo", "").nodeAffinityIn("foo", "").spread(1, "zone", SOFT, BAR, null, IGNORE, null, null)
            .obj(), abxFoo,
        list(List.of(), NONE), List.of(d(1, "zone", "bar", IGNORE, IGNORE)), List.of("zone1=0,zone2=0"), Set.of(),
        List.of(2)));
    List<Node> taintedX = List.of(abxFoo.get(0), abxFoo.get(1),
        node("node-x").label("zone", "zone2").label(HOST, "node-x").taints(TAINTS).obj());
    cs.add(new StateCase("NodeTaintsPolicy honored",
        pod("p").label("foo", "").spread(1, "zone", SOFT, BAR, null, null, HONOR, null).obj(), taintedX,
        list(List.of(), NONE), List.of(d(1, "zone", "bar", HONOR, HONOR)), List.of("zone1=0,zone2=0"), Set.of(),
        List.of(2)));
    cs.add(new StateCase("NodeTaintsPolicy ignored", pod("p").label("foo", "").spread(1, "zone", SOFT, BAR).obj(),
        taintedX, list(List.of(), NONE), List.of(d(1, "zone", "bar")), List.of("zone1=0,zone2=0"), Set.of(),
        List.of(2)));
    return cs;
  }

  @TestFactory
  Stream<DynamicTest> preScore_upstreamTestPreScoreStateEmptyNodes_statesMatch() {
    List<StateCase> cases = stateCases();
    assertThat(cases).hasSize(12);
    return cases.stream().map(tc -> DynamicTest.dynamicTest(tc.name(), () -> {
      Cluster cluster = new Cluster(tc.nodes(), List.of());
      PodTopologySpreadPlugin plugin = new PodTopologySpreadPlugin(tc.args(), () -> cluster);
      MapCycleState state = new MapCycleState();
      assertThat(plugin.preScore(state, PodInfos.of(tc.pod()), cluster.nodes()).isSuccess()).isTrue();
      PreScoreState s = state.require(PodTopologySpreadPlugin.PRE_SCORE_KEY);
      List<String> got = new ArrayList<>();
      List<@Nullable Map<String, Integer>> gotCounts = new ArrayList<>();
      List<@Nullable Map<String, Integer>> wantCounts = new ArrayList<>();
      List<Double> weights = new ArrayList<>();
      for (int i = 0; i < s.constraints.length; i++) {
        got.add(describe(s.constraints[i]));
        DomainCounts c = s.counts[i];
        gotCounts.add(c == null ? null : c.asMap());
        String w = tc.counts().get(i);
        wantCounts.add(w == null ? null : PodTopologySpreadPreFilterStateTest.counts(w));
        weights.add(s.weights[i]);
      }
      assertThat(got).isEqualTo(tc.constraints());
      assertThat(gotCounts).isEqualTo(wantCounts);
      assertThat(weights).isEqualTo(tc.weightSizes().stream().map(n -> Math.log(n + 2)).toList());
      Set<String> ignored = new TreeSet<>();
      for (NodeInfo n : cluster.nodes()) {
        if (s.ignored(n)) {
          ignored.add(n.name());
        }
      }
      assertThat(ignored).isEqualTo(tc.ignored());
    }));
  }

  // ---------------------------------------------------------------- TestPodTopologySpreadScore

  /** nodes are the candidates; failed nodes are in the snapshot only. */
  record ScoreCase(String name, Pod pod, List<Pod> existing, List<Node> nodes, List<Node> failed,
      Function<Pod, @Nullable LabelSelector> services, String want) {
    ScoreCase(String name, Pod pod, List<Pod> existing, List<Node> nodes, String want) {
      this(name, pod, existing, nodes, List.of(), NONE, want);
    }
  }

  static Pod hostPod(int maxSkew) {
    return pod("p").label("foo", "").spread(maxSkew, HOST, SOFT, FOO).obj();
  }

  static List<ScoreCase> scoreCases() {
    List<Node> hab = List.of(hn("node-a"), hn("node-b"));
    List<Node> habcd = List.of(hn("node-a"), hn("node-b"), hn("node-c"), hn("node-d"));
    List<Pod> twoOneZeroThree = foos("node-a", 2, "node-b", 1, "node-d", 3);
    List<Pod> fourThreeTwoOne = foos("node-a", 4, "node-b", 3, "node-c", 2, "node-d", 1);
    List<Pod> fourTwoOneThree = foos("node-a", 4, "node-b", 2, "node-x", 1, "node-y", 3);
    List<ScoreCase> cs = new ArrayList<>();
    cs.add(new ScoreCase("one constraint on node, no existing pods", hostPod(1), List.of(), hab,
        "node-a:100 node-b:100"));
    cs.add(new ScoreCase("one constraint on node, only one node is candidate", hostPod(1),
        foos("node-a", 2, "node-b", 1), List.of(hn("node-a")), List.of(hn("node-b")), NONE, "node-a:100"));
    cs.add(new ScoreCase("one constraint on node, all nodes have the same number of matching pods", hostPod(1),
        foos("node-a", 1, "node-b", 1), hab, "node-a:100 node-b:100"));
    cs.add(new ScoreCase("one constraint on node, all 4 nodes are candidates", hostPod(1), twoOneZeroThree, habcd,
        "node-a:20 node-b:60 node-c:100 node-d:0"));
    cs.add(new ScoreCase("one constraint on node, null selector",
        pod("p").label("foo", "").spread(1, HOST, SOFT, null).obj(), twoOneZeroThree, habcd,
        "node-a:100 node-b:100 node-c:100 node-d:100"));
    cs.add(new ScoreCase("one constraint on node, all 4 nodes are candidates, maxSkew=2", hostPod(2),
        twoOneZeroThree, habcd, "node-a:33 node-b:66 node-c:100 node-d:16"));
    cs.add(new ScoreCase("one constraint on node, all 4 nodes are candidates, maxSkew=3", hostPod(3),
        fourThreeTwoOne, habcd, "node-a:44 node-b:66 node-c:77 node-d:100"));
    cs.add(new ScoreCase("system defaulting, nodes don't have zone, pods match service",
        pod("p").label("foo", "").obj(), fourThreeTwoOne, habcd, List.of(),
        p -> p.metadata().labels().containsKey("foo") ? LabelSelector.of(Map.of("foo", "")) : null,
        "node-a:44 node-b:66 node-c:77 node-d:100"));
    cs.add(new ScoreCase("one constraint on node, 3 out of 4 nodes are candidates", hostPod(1), fourTwoOneThree,
        List.of(hn("node-a"), hn("node-b"), hn("node-x")), List.of(hn("node-y")), NONE,
        "node-a:33 node-b:83 node-x:100"));
    cs.add(new ScoreCase("one constraint on node, 3 out of 4 nodes are candidates, one node doesn't match topology "
        + "key", hostPod(1), fourTwoOneThree,
        List.of(hn("node-a"), node("node-b").label("n", "node-b").obj(), hn("node-x")), List.of(hn("node-y")), NONE,
        "node-a:16 node-b:0 node-x:100"));
    cs.add(new ScoreCase("one constraint on zone, 3 out of 4 nodes are candidates",
        pod("p").label("foo", "").spread(1, "zone", SOFT, FOO).obj(), fourTwoOneThree,
        List.of(hzn("node-a", "zone1"), hzn("node-b", "zone1"), hzn("node-x", "zone2")),
        List.of(hzn("node-y", "zone2")), NONE, "node-a:75 node-b:75 node-x:100"));
    Pod zoneHost = pod("p").label("foo", "").spread(1, "zone", SOFT, FOO).spread(1, HOST, SOFT, FOO).obj();
    cs.add(new ScoreCase("two Constraints on zone and node, 2 out of 4 nodes are candidates", zoneHost,
        foos("node-a", 2, "node-b", 1, "node-x", 2, "node-y", 4),
        List.of(hzn("node-a", "zone1"), hzn("node-x", "zone2")),
        List.of(hzn("node-b", "zone1"), hzn("node-y", "zone2")), NONE, "node-a:100 node-x:63"));
    Pod fooBar = pod("p").label("foo", "").label("bar", "").spread(1, "zone", SOFT, FOO).spread(1, HOST, SOFT, BAR)
        .obj();
    List<Node> zones4 = List.of(hzn("node-a", "zone1"), hzn("node-b", "zone1"), hzn("node-x", "zone2"),
        hzn("node-y", "zone2"));
    List<Pod> mixed = List.of(ep("p-a1", "node-a", "foo"), ep("p-b1", "node-b", "foo", "bar"),
        ep("p-y1", "node-y", "foo"), ep("p-y2", "node-y", "bar"));
    cs.add(new ScoreCase("two Constraints on zone and node, with different labelSelectors", fooBar, mixed, zones4,
        "node-a:60 node-b:20 node-x:100 node-y:60"));
    cs.add(new ScoreCase("two Constraints on zone and node, with different labelSelectors, some nodes have 0 pods",
        fooBar, List.of(ep("p-b1", "node-b", "bar"), ep("p-x1", "node-x", "foo"), ep("p-y1", "node-y", "foo", "bar")),
        zones4, "node-a:100 node-b:60 node-x:40 node-y:0"));
    cs.add(new ScoreCase("two Constraints on zone and node, with different labelSelectors, 3 out of 4 nodes are "
        + "candidates", fooBar, mixed, zones4.subList(0, 3), List.of(zones4.get(3)), NONE,
        "node-a:50 node-b:25 node-x:100"));
    cs.add(new ScoreCase("existing pods in a different namespace do not count", hostPod(1),
        List.of(pod("p-a1").ns("ns1").node("node-a").label("foo", "").obj(), ep("p-a2", "node-a", "foo"),
            ep("p-b1", "node-b", "foo"), ep("p-b2", "node-b", "foo")), hab, "node-a:100 node-b:33"));
    cs.add(new ScoreCase("terminating Pods should be excluded", hostPod(1),
        List.of(pod("p-a").node("node-a").label("foo", "").terminating().obj(), ep("p-b", "node-b", "foo")), hab,
        "node-a:100 node-b:0"));
    List<Node> abFooC = List.of(PodTopologySpreadFilterTest.nf("node-a"), PodTopologySpreadFilterTest.nf("node-b"),
        PodTopologySpreadPreFilterStateTest.nn("node-c"));
    List<Pod> twoOneOne = foos("node-a", 2, "node-b", 1, "node-c", 1);
    cs.add(new ScoreCase("NodeAffinityPolicy honoed with labelSelectors",
        pod("p").label("foo", "").nodeSelector(Map.of("foo", "")).spread(1, "node", SOFT, FOO).obj(), twoOneOne,
        abFooC, "node-a:0 node-b:33 node-c:100"));
    cs.add(new ScoreCase("NodeAffinityPolicy ignored with labelSelectors",
        pod("p").label("foo", "").nodeSelector(Map.of("foo", "")).spread(1, "node", SOFT, FOO, null, IGNORE, null,
            null).obj(), twoOneOne, abFooC, "node-a:66 node-b:100 node-c:100"));
    cs.add(new ScoreCase("NodeAffinityPolicy honoed with nodeAffinity",
        pod("p").label("foo", "").nodeAffinityIn("foo", "").spread(1, "node", SOFT, FOO).obj(), twoOneOne, abFooC,
        "node-a:0 node-b:33 node-c:100"));
    cs.add(new ScoreCase("NodeAffinityPolicy ignored with nodeAffinity",
        pod("p").label("foo", "").nodeAffinityIn("foo", "").spread(1, "node", SOFT, FOO, null, IGNORE, null, null)
            .obj(), twoOneOne, abFooC, "node-a:66 node-b:100 node-c:100"));
    List<Node> taintedC = List.of(PodTopologySpreadPreFilterStateTest.nn("node-a"),
        PodTopologySpreadPreFilterStateTest.nn("node-b"), node("node-c").label("node", "node-c").taints(TAINTS).obj());
    cs.add(new ScoreCase("NodeTaintsPolicy honored",
        pod("p").label("foo", "").spread(1, "node", SOFT, FOO, null, null, HONOR, null).obj(), twoOneOne, taintedC,
        "node-a:0 node-b:33 node-c:100"));
    cs.add(new ScoreCase("NodeTaintsPolicy ignored", pod("p").label("foo", "").spread(1, "node", SOFT, FOO).obj(),
        twoOneOne, taintedC, "node-a:66 node-b:100 node-c:100"));
    List<Node> abcd = List.of(hzn("node-a", "zone1"), hzn("node-b", "zone1"), hzn("node-c", "zone2"),
        hzn("node-d", "zone2"));
    cs.add(new ScoreCase("matchLabelKeys ANDed with LabelSelector when LabelSelector is empty",
        pod("p").label("foo", "").label("bar", "").spread(1, "zone", SOFT, sel().obj(), null, null, null,
            List.of("foo")).spread(1, HOST, SOFT, sel().obj(), null, null, null, List.of("bar")).obj(),
        List.of(ep("p-a1", "node-a", "foo"), ep("p-b1", "node-b", "foo", "bar"), ep("p-y1", "node-c", "foo"),
            ep("p-y2", "node-c", "bar")), abcd, "node-a:60 node-b:20 node-c:60 node-d:100"));
    cs.add(new ScoreCase("matchLabelKeys ANDed with LabelSelector when LabelSelector isn't empty",
        pod("p").label("foo", "").label("bar", "").label("baz", "").spread(1, "zone", SOFT, FOO)
            .spread(1, HOST, SOFT, BAR, null, null, null, List.of("baz")).obj(),
        List.of(ep("p-a1", "node-a", "foo"), ep("p-b1", "node-b", "foo", "bar", "baz"), ep("p-c1", "node-c", "foo"),
            ep("p-c2", "node-c", "bar"), ep("p-d3", "node-c", "bar", "baz")), abcd,
        "node-a:60 node-b:20 node-c:60 node-d:100"));
    return cs;
  }

  static long[] scoreAll(PodTopologySpreadPlugin plugin, MapCycleState state, PodInfo pod, List<NodeInfo> nodes) {
    long[] scores = new long[nodes.size()];
    for (int i = 0; i < scores.length; i++) {
      scores[i] = plugin.score(state, pod, nodes.get(i));
    }
    plugin.normalizeScores(state, pod, nodes, scores);
    return scores;
  }

  @TestFactory
  Stream<DynamicTest> score_upstreamTestPodTopologySpreadScore_scoresMatch() {
    List<ScoreCase> cases = scoreCases();
    assertThat(cases).hasSize(25);
    return cases.stream().map(tc -> DynamicTest.dynamicTest(tc.name(), () -> {
      List<Node> all = new ArrayList<>(tc.nodes());
      all.addAll(tc.failed());
      Cluster cluster = new Cluster(all, tc.existing());
      // Upstream runs the score table with DefaultingType System.
      PodTopologySpreadPlugin plugin = new PodTopologySpreadPlugin(
          PodTopologySpreadArgs.systemDefaults(tc.services()), () -> cluster);
      MapCycleState state = new MapCycleState();
      PodInfo pod = PodInfos.of(tc.pod());
      List<NodeInfo> feasible = cluster.nodes().subList(0, tc.nodes().size());
      Status s = plugin.preScore(state, pod, feasible);
      assertThat(s.isSuccess()).as("preScore %s", s).isTrue();
      long[] scores = scoreAll(plugin, state, pod, feasible);
      Map<String, Long> got = new LinkedHashMap<>();
      for (int i = 0; i < scores.length; i++) {
        got.put(feasible.get(i).name(), scores[i]);
      }
      Map<String, Long> want = new LinkedHashMap<>();
      PodTopologySpreadFilterTest.parse(tc.want()).forEach((k, v) -> want.put(k, Long.parseLong(v)));
      assertThat(got).isEqualTo(want);
    }));
  }
}
