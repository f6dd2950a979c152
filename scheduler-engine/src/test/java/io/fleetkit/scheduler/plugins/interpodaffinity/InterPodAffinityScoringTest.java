package io.fleetkit.scheduler.plugins.interpodaffinity;

import static io.fleetkit.scheduler.plugins.interpodaffinity.Fixtures.doesNotExist;
import static io.fleetkit.scheduler.plugins.interpodaffinity.Fixtures.exists;
import static io.fleetkit.scheduler.plugins.interpodaffinity.Fixtures.in;
import static io.fleetkit.scheduler.plugins.interpodaffinity.Fixtures.labels;
import static io.fleetkit.scheduler.plugins.interpodaffinity.Fixtures.makePod;
import static io.fleetkit.scheduler.plugins.interpodaffinity.Fixtures.node;
import static io.fleetkit.scheduler.plugins.interpodaffinity.Fixtures.notIn;
import static io.fleetkit.scheduler.plugins.interpodaffinity.Fixtures.preferred;
import static io.fleetkit.scheduler.plugins.interpodaffinity.Fixtures.required;
import static io.fleetkit.scheduler.plugins.interpodaffinity.Fixtures.selector;
import static io.fleetkit.scheduler.plugins.interpodaffinity.Fixtures.term;
import static io.fleetkit.scheduler.plugins.interpodaffinity.Fixtures.weighted;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.framework.CycleState;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.PodInfos;
import io.fleetkit.api.framework.Status;
import io.fleetkit.api.framework.Status.Code;
import io.fleetkit.api.scheduling.Affinity;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Ported from kubernetes/kubernetes pkg/scheduler/framework/plugins/interpodaffinity/scoring_test.go (case data;
 * names are upstream's). Namespaces are renamed as {@link Fixtures} explains ({@code subteam1.team1} is
 * {@code subteam1-team1}).
 */
final class InterPodAffinityScoringTest {
  private static final long MAX = 100;
  private static final Map<String, String> RG_CHINA = labels("region", "China");
  private static final Map<String, String> RG_INDIA = labels("region", "India");
  private static final Map<String, String> AZ_AZ1 = labels("az", "az1");
  private static final Map<String, String> AZ_AZ2 = labels("az", "az2");
  private static final Map<String, String> RG_CHINA_AZ_AZ1 = labels("region", "China", "az", "az1");
  private static final Map<String, String> S1 = labels("security", "S1");
  private static final Map<String, String> S2 = labels("security", "S2");

  record ScoreCase(String name, Pod pod, List<Pod> pods, List<Node> nodes, List<Long> expected, Code wantCode,
      boolean ignorePreferredTermsOfExistingPods, int hardPodAffinityWeight) {
    @Override
    public String toString() {
      return name;
    }
  }

  private static ScoreCase ok(String name, Pod pod, List<Pod> pods, List<Node> nodes, Long... expected) {
    return new ScoreCase(name, pod, pods, nodes, List.of(expected), Code.SUCCESS, false, 1);
  }

  private static ScoreCase status(String name, Pod pod, List<Pod> pods, List<Node> nodes, Code code) {
    return new ScoreCase(name, pod, pods, nodes, List.of(), code, false, 1);
  }

  private static Pod pod(String node, Map<String, String> labels) {
    return makePod().node(node).labels(labels).obj();
  }

  private static Pod pod(String node, Affinity affinity, Map<String, String> labels) {
    return makePod().node(node).affinity(affinity).labels(labels).obj();
  }

  private static Pod incoming(Affinity affinity, Map<String, String> labels) {
    return makePod().affinity(affinity).labels(labels).obj();
  }

  private static Affinity podAffinity(io.fleetkit.api.scheduling.PodAffinity a) {
    return new Affinity(null, a, null);
  }

  private static Affinity podAntiAffinity(io.fleetkit.api.scheduling.PodAffinity a) {
    return new Affinity(null, null, a);
  }

  static Stream<ScoreCase> preferredAffinity() {
    Affinity stayWithS1InRegion = podAffinity(preferred(weighted(5, term(selector(in("security", "S1")), "region"))));
    Affinity stayWithS2InRegion = podAffinity(preferred(weighted(6, term(selector(in("security", "S2")), "region"))));
    Affinity affinity3 = podAffinity(preferred(
        weighted(8, term(selector(notIn("security", "S1"), in("security", "S2")), "region")),
        weighted(2, term(selector(exists("security"), doesNotExist("wrongkey")), "region"))));
    Affinity hardAffinity = podAffinity(required(
        term(selector(in("security", "S1", "value2")), "region"),
        term(selector(exists("security"), doesNotExist("wrongkey")), "region")));
    Affinity awayFromS1InAz = podAntiAffinity(preferred(weighted(5, term(selector(in("security", "S1")), "az"))));
    Affinity awayFromS2InAz = podAntiAffinity(preferred(weighted(5, term(selector(in("security", "S2")), "az"))));
    Affinity stayWithS1InRegionAwayFromS2InAz = new Affinity(null,
        preferred(weighted(8, term(selector(in("security", "S1")), "region"))),
        preferred(weighted(5, term(selector(in("security", "S2")), "az"))));
    var nsTerm = term(selector(in("security", "S1")), "region", List.of("subteam2-team2"),
        selector(in("team", "team1")));
    Affinity affinityNamespaceSelector = podAffinity(preferred(weighted(5, nsTerm)));
    Affinity antiAffinityNamespaceSelector = podAntiAffinity(preferred(weighted(5, nsTerm)));
    Affinity invalidAffinityLabels =
        podAffinity(preferred(weighted(8, term(selector(in("security", "{{.bad-value.}}")), "region"))));
    Affinity invalidAntiAffinityLabels =
        podAntiAffinity(preferred(weighted(5, term(selector(in("security", "{{.bad-value.}}")), "az"))));
    List<Node> chinaIndiaAz1 = List.of(node("node1", RG_CHINA), node("node2", RG_INDIA), node("node3", AZ_AZ1));
    List<Node> china2 = List.of(node("node1", RG_CHINA), node("node2", RG_CHINA));
    List<Node> chinaIndia = List.of(node("node1", RG_CHINA), node("node2", RG_INDIA));
    List<Node> fiveNodes = List.of(node("node1", RG_CHINA), node("node2", RG_INDIA), node("node3", RG_CHINA),
        node("node4", RG_CHINA), node("node5", RG_INDIA));
    List<Pod> nsPods = List.of(
        makePod().node("node1").namespace("subteam1-team1").labels(S1).obj(),
        makePod().node("node1").namespace("subteam1-team1").labels(S1).obj(),
        makePod().node("node1").namespace("subteam1-team2").labels(S1).obj(),
        makePod().node("node2").namespace("subteam2-team1").labels(S1).obj());
    List<Pod> nsPodsBoth = List.of(
        makePod().node("node1").namespace("subteam1-team1").labels(S1).obj(),
        makePod().node("node1").namespace("subteam1-team1").labels(S1).obj(),
        makePod().node("node1").namespace("subteam2-team2").labels(S1).obj(),
        makePod().node("node2").namespace("subteam2-team1").labels(S1).obj());
    return Stream.of(
        status("all nodes are same priority as Affinity is nil", makePod().labels(S1).obj(), List.of(),
            chinaIndiaAz1, Code.SKIP),
        ok("Affinity: pod that matches topology key & pods in nodes will get high score comparing to others"
                + "which doesn't match either pods in nodes or in topology key",
            incoming(stayWithS1InRegion, S1),
            List.of(pod("node1", S1), pod("node2", S2), pod("node3", S1)), chinaIndiaAz1, MAX, 0L, 0L),
        ok("All the nodes that have the same topology key & label value with one of them has an existing pod that "
                + "match the affinity rules, have the same score",
            incoming(stayWithS1InRegion, Map.of()), List.of(pod("node1", S1)),
            List.of(node("node1", RG_CHINA), node("node2", RG_CHINA_AZ_AZ1), node("node3", RG_INDIA)),
            MAX, MAX, 0L),
        ok("Affinity: nodes in one region has more matching pods comparing to other region, so the region which has "
                + "more matches will get high score",
            incoming(stayWithS2InRegion, S1),
            List.of(pod("node1", S2), pod("node1", S2), pod("node2", S2), pod("node3", S2), pod("node4", S2),
                pod("node5", S2)),
            fiveNodes, MAX, 0L, MAX, MAX, 0L),
        ok("Affinity: different Label operators and values for pod affinity scheduling preference, including some "
                + "match failures ",
            incoming(affinity3, S1), List.of(pod("node1", S1), pod("node2", S2), pod("node3", S1)), chinaIndiaAz1,
            20L, MAX, 0L),
        ok("Affinity symmetry: considered only the preferredDuringSchedulingIgnoredDuringExecution in pod affinity "
                + "symmetry",
            makePod().labels(S2).obj(),
            List.of(pod("node1", stayWithS1InRegion, S1), pod("node2", stayWithS2InRegion, S2)), chinaIndiaAz1,
            0L, MAX, 0L),
        ok("Affinity symmetry with namespace selector",
            makePod().namespace("subteam1-team1").labels(S1).obj(),
            List.of(pod("node1", affinityNamespaceSelector, S1), pod("node2", stayWithS2InRegion, S2)),
            chinaIndiaAz1, MAX, 0L, 0L),
        ok("AntiAffinity symmetry with namespace selector",
            makePod().namespace("subteam1-team1").labels(S1).obj(),
            List.of(pod("node1", antiAffinityNamespaceSelector, S1), pod("node2", stayWithS2InRegion, S2)),
            chinaIndiaAz1, 0L, MAX, MAX),
        ok("Affinity symmetry: considered RequiredDuringSchedulingIgnoredDuringExecution in pod affinity symmetry",
            makePod().labels(S1).obj(),
            List.of(pod("node1", hardAffinity, S1), pod("node2", hardAffinity, S2)), chinaIndiaAz1, MAX, MAX, 0L),
        ok("Anti Affinity: pod that does not match existing pods in node will get high score ",
            incoming(awayFromS1InAz, S1), List.of(pod("node1", S1), pod("node2", S2)),
            List.of(node("node1", AZ_AZ1), node("node2", RG_CHINA)), 0L, MAX),
        ok("Anti Affinity: pod that does not match topology key & match the pods in nodes will get higher score "
                + "comparing to others ",
            incoming(awayFromS1InAz, S1), List.of(pod("node1", S1), pod("node2", S1)),
            List.of(node("node1", AZ_AZ1), node("node2", RG_CHINA)), 0L, MAX),
        ok("Anti Affinity: one node has more matching pods comparing to other node, so the node which has more "
                + "unmatches will get high score",
            incoming(awayFromS1InAz, S1), List.of(pod("node1", S1), pod("node1", S1), pod("node2", S2)),
            List.of(node("node1", AZ_AZ1), node("node2", RG_INDIA)), 0L, MAX),
        ok("Anti Affinity symmetry: the existing pods in node which has anti affinity match will get high score",
            makePod().labels(S2).obj(),
            List.of(pod("node1", awayFromS2InAz, S1), pod("node2", awayFromS1InAz, S2)),
            List.of(node("node1", AZ_AZ1), node("node2", AZ_AZ2)), 0L, MAX),
        ok("Affinity and Anti Affinity: considered only preferredDuringSchedulingIgnoredDuringExecution in both pod "
                + "affinity & anti affinity",
            incoming(stayWithS1InRegionAwayFromS2InAz, S1), List.of(pod("node1", S1), pod("node2", S1)),
            List.of(node("node1", RG_CHINA), node("node2", AZ_AZ1)), MAX, 0L),
        ok("Affinity and Anti Affinity: considering both affinity and anti-affinity, the pod to schedule and "
                + "existing pods have the same labels",
            incoming(stayWithS1InRegionAwayFromS2InAz, S1),
            List.of(pod("node1", S1), pod("node1", S1), pod("node2", S1), pod("node3", S1), pod("node3", S1),
                pod("node4", S1), pod("node5", S1)),
            List.of(node("node1", RG_CHINA_AZ_AZ1), node("node2", RG_INDIA), node("node3", RG_CHINA),
                node("node4", RG_CHINA), node("node5", RG_INDIA)),
            MAX, 0L, MAX, MAX, 0L),
        ok("Affinity and Anti Affinity and symmetry: considered only preferredDuringSchedulingIgnoredDuringExecution "
                + "in both pod affinity & anti affinity & symmetry",
            incoming(stayWithS1InRegionAwayFromS2InAz, S1),
            List.of(pod("node1", S1), pod("node2", S2), pod("node3", stayWithS1InRegionAwayFromS2InAz, Map.of()),
                pod("node4", awayFromS1InAz, Map.of())),
            List.of(node("node1", RG_CHINA), node("node2", AZ_AZ1), node("node3", RG_INDIA), node("node4", AZ_AZ2)),
            MAX, 0L, MAX, 0L),
        ok("Avoid panic when partial nodes in a topology don't have pods with affinity",
            makePod().labels(S1).obj(),
            List.of(pod("node1", S1), pod("node2", stayWithS1InRegionAwayFromS2InAz, Map.of())), china2, 0L, 0L),
        status("invalid Affinity fails PreScore", incoming(invalidAffinityLabels, Map.of()), List.of(), china2,
            Code.ERROR),
        status("invalid AntiAffinity fails PreScore", incoming(invalidAntiAffinityLabels, Map.of()), List.of(),
            china2, Code.ERROR),
        ok("Affinity with pods matching NamespaceSelector",
            makePod().namespace("subteam1-team1").affinity(affinityNamespaceSelector).labels(S1).obj(), nsPods,
            chinaIndia, MAX, 0L),
        ok("Affinity with pods matching both NamespaceSelector and Namespaces fields",
            makePod().namespace("subteam1-team1").affinity(affinityNamespaceSelector).labels(S1).obj(), nsPodsBoth,
            chinaIndia, MAX, 0L),
        ok("Affinity with pods matching NamespaceSelector",
            makePod().namespace("subteam1-team1").affinity(antiAffinityNamespaceSelector).labels(S1).obj(), nsPods,
            chinaIndia, 0L, MAX),
        ok("Affinity with pods matching both NamespaceSelector and Namespaces fields",
            makePod().namespace("subteam1-team1").affinity(antiAffinityNamespaceSelector).labels(S1).obj(),
            nsPodsBoth, chinaIndia, 0L, MAX),
        new ScoreCase("Ignore preferred terms of existing pods", makePod().labels(S2).obj(),
            List.of(pod("node1", stayWithS1InRegionAwayFromS2InAz, S1), pod("node2", stayWithS2InRegion, S2)),
            chinaIndia, List.of(), Code.SKIP, true, 1),
        new ScoreCase("Do not ignore preferred terms of existing pods", makePod().labels(S2).obj(),
            List.of(pod("node1", stayWithS1InRegionAwayFromS2InAz, S1), pod("node2", stayWithS2InRegion, S2)),
            chinaIndia, List.of(0L, MAX), Code.SUCCESS, false, 1),
        status("No nodes to score", makePod().labels(S2).obj(), List.of(), List.of(), Code.SKIP));
  }

  /** scoring_test.go TestPreferredAffinity: 26 cases. */
  @ParameterizedTest(name = "{0}")
  @MethodSource("preferredAffinity")
  void score_preferredAffinity_matchesUpstream(ScoreCase c) {
    assertScores(c);
  }

  static Stream<ScoreCase> preferredAffinityWithHardPodAffinitySymmetricWeight() {
    Map<String, String> serviceS1 = labels("service", "S1");
    Affinity hardPodAffinity = podAffinity(required(term(selector(in("service", "S1")), "region",
        List.of("", "subteam2-team2"), selector(in("team", "team1")))));
    List<Node> nodes = List.of(node("node1", RG_CHINA), node("node2", RG_INDIA), node("node3", AZ_AZ1));
    List<Pod> pods = List.of(makePod().node("node1").affinity(hardPodAffinity).obj(),
        makePod().node("node2").affinity(hardPodAffinity).obj());
    return Stream.of(
        new ScoreCase("with default weight", makePod().labels(serviceS1).obj(), pods, nodes,
            List.of(MAX, MAX, 0L), Code.SUCCESS, false, InterPodAffinityArgs.DEFAULT_HARD_POD_AFFINITY_WEIGHT),
        new ScoreCase("with zero weight", makePod().labels(serviceS1).obj(), pods, nodes, List.of(), Code.SKIP,
            false, 0),
        new ScoreCase("with no matching namespace", makePod().namespace("subteam1-team2").labels(serviceS1).obj(),
            pods, nodes, List.of(), Code.SKIP, false, 1),
        new ScoreCase("with matching NamespaceSelector",
            makePod().namespace("subteam1-team1").labels(serviceS1).obj(), pods, nodes, List.of(MAX, MAX, 0L),
            Code.SUCCESS, false, 1),
        new ScoreCase("with matching Namespaces", makePod().namespace("subteam2-team2").labels(serviceS1).obj(),
            pods, nodes, List.of(MAX, MAX, 0L), Code.SUCCESS, false, 1));
  }

  /** scoring_test.go TestPreferredAffinityWithHardPodAffinitySymmetricWeight: 5 cases. */
  @ParameterizedTest(name = "{0}")
  @MethodSource("preferredAffinityWithHardPodAffinitySymmetricWeight")
  void score_hardPodAffinitySymmetricWeight_matchesUpstream(ScoreCase c) {
    assertScores(c);
  }

  private static void assertScores(ScoreCase c) {
    TestSnapshot snapshot = TestSnapshot.of(c.pods(), c.nodes());
    InterPodAffinityPlugin p = new InterPodAffinityPlugin(new InterPodAffinityArgs(c.hardPodAffinityWeight(),
        c.ignorePreferredTermsOfExistingPods(), InterPodAffinityFilteringTest.NAMESPACES::get), () -> snapshot);
    CycleState state = new TestCycleState();
    var podInfo = PodInfos.of(c.pod());
    Status st = p.preScore(state, podInfo, snapshot.nodes());
    assertThat(st.code()).as("PreScore status %s", st).isEqualTo(c.wantCode());
    if (st.code() == Code.ERROR) {
      assertThat(st.message()).contains("{{.bad-value.}}");
    }
    if (!st.isSuccess()) {
      return;
    }
    List<NodeInfo> nodes = snapshot.nodes();
    long[] scores = new long[nodes.size()];
    for (int i = 0; i < scores.length; i++) {
      scores[i] = p.score(state, podInfo, nodes.get(i));
    }
    p.normalizeScores(state, podInfo, nodes, scores);
    List<Long> got = new ArrayList<>();
    for (long s : scores) {
      got.add(s);
    }
    assertThat(got).isEqualTo(c.expected());
  }
}
