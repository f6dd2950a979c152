package io.fleetkit.scheduler.plugins.defaultpreemption;

import static io.fleetkit.scheduler.plugins.defaultpreemption.Fixtures.HIGH;
import static io.fleetkit.scheduler.plugins.defaultpreemption.Fixtures.LARGE;
import static io.fleetkit.scheduler.plugins.defaultpreemption.Fixtures.LOW;
import static io.fleetkit.scheduler.plugins.defaultpreemption.Fixtures.MEDIUM;
import static io.fleetkit.scheduler.plugins.defaultpreemption.Fixtures.MID;
import static io.fleetkit.scheduler.plugins.defaultpreemption.Fixtures.SMALL;
import static io.fleetkit.scheduler.plugins.defaultpreemption.Fixtures.VERY_HIGH;
import static io.fleetkit.scheduler.plugins.defaultpreemption.Fixtures.VERY_LARGE;
import static io.fleetkit.scheduler.plugins.defaultpreemption.Fixtures.epoch;
import static io.fleetkit.scheduler.plugins.defaultpreemption.Fixtures.node;
import static io.fleetkit.scheduler.plugins.defaultpreemption.Fixtures.pdb;
import static io.fleetkit.scheduler.plugins.defaultpreemption.Fixtures.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.policy.PodDisruptionBudget;
import io.fleetkit.api.framework.FilterPlugin;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.NodeToStatus;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.PodInfos;
import io.fleetkit.api.framework.Status;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Ported from kubernetes/kubernetes pkg/scheduler/framework/plugins/defaultpreemption/default_preemption_test.go
 * TestDryRunPreemption (17 of its 19 cases; the number of Filter calls is checked too) and
 * pkg/scheduler/framework/preemption/preemption_test.go TestNodesWherePreemptionMightHelp (9 of 9). The other two
 * TestDryRunPreemption cases, which register InterPodAffinity or PodTopologySpread, are in
 * {@link WithAffinityAndSpreadTest}. The offsets
 * {@code 4, 1, 3} are what upstream's {@code rand.New(rand.NewSource(4)).Int31n(5)} yields, as its comments say.
 */
final class DryRunTest {
  private static final Status.Code U = Status.Code.UNSCHEDULABLE;
  private static final Status.Code UU = Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE;

  /** One table case. */
  private static final class Case {
    PreemptionArgs args = PreemptionArgs.DEFAULTS;
    List<String> nodeNames = List.of("node1", "node2");
    List<Pod> testPods = List.of();
    List<Pod> initPods = List.of();
    FilterPlugin filter = new TestPlugins.Fit();
    List<PodDisruptionBudget> pdbs = List.of();
    Status.Code fakeCode = Status.Code.SUCCESS;
    List<Integer> offsets = List.of(0, 0, 0);

    /** Per cycle: candidates as {@code node:[victims sorted by name]:violations}, sorted by node; filter calls. */
    List<String> run(List<Integer> filterCalls) {
      List<Node> nodes = nodeNames.stream().map(n -> node(n, VERY_LARGE)).toList();
      Map<String, Status.Code> codes = new HashMap<>();
      for (Node n : nodes) {
        codes.put(n.metadata().name(), fakeCode);
      }
      TestPlugins.CountingFilter counting = new TestPlugins.CountingFilter(codes);
      TestSnapshot snapshot = new TestSnapshot(nodes, initPods);
      TestHandle handle = new TestHandle(snapshot, List.of(counting, filter), pdbs);
      Deque<Integer> offsetQueue = new ArrayDeque<>(offsets);
      DefaultPreemptionPlugin plugin = new DefaultPreemptionPlugin(handle, args, n -> offsetQueue.pop(),
          DefaultPreemptionPlugin.VictimEligibility.ANY, null);
      NodeToStatus all = new NodeToStatus(Map.of(), U);
      List<String> out = new ArrayList<>();
      for (Pod p : testPods) {
        int before = counting.calls.get();
        DryRun.Result r = plugin.findCandidates(plugin.victimSelector(), new TestCycleState(), PodInfos.of(p),
            snapshot.nodes(), all);
        filterCalls.add(counting.calls.get() - before);
        out.add(describe(r.candidates()));
      }
      return out;
    }
  }

  static String describe(List<Candidate> candidates) {
    return candidates.stream().sorted(Comparator.comparing(Candidate::nodeName))
        .map(c -> c.nodeName() + ":" + c.victims().stream().map(v -> v.pod().metadata().name()).sorted().toList()
            + ":" + c.numPdbViolations())
        .toList().toString();
  }

  private static Pod p(String name, int priority) {
    return pod(name).priority(priority).obj();
  }

  private static Pod p(String name, String node, int priority, io.fleetkit.api.resource.ResourceList req) {
    return pod(name).node(node).priority(priority).req(req).obj();
  }

  private static void check(Case c, List<String> expected, List<Integer> expectedFilterCalls) {
    List<Integer> calls = new ArrayList<>();
    assertThat(c.run(calls)).isEqualTo(expected);
    assertThat(calls).isEqualTo(expectedFilterCalls);
  }

  private static Case twoMidPods(String filterName) {
    Case c = new Case();
    c.testPods = List.of(p("p", HIGH));
    c.initPods = List.of(pod("p1").node("node1").priority(MID).obj(), pod("p2").node("node2").priority(MID).obj());
    c.filter = switch (filterName) {
      case "FalseFilter" -> TestPlugins.FALSE;
      case "TrueFilter" -> TestPlugins.TRUE;
      default -> TestPlugins.MATCH;
    };
    return c;
  }

  @Test
  void dryRun_podFitsNowhere_noCandidates() {
    // "a pod that does not fit on any node"
    check(twoMidPods("FalseFilter"), List.of("[]"), List.of(2));
  }

  @Test
  void dryRun_fakeFilterRejects_noCandidates() {
    // "a pod that fits with no preemption"
    Case c = twoMidPods("TrueFilter");
    c.fakeCode = U;
    check(c, List.of("[]"), List.of(2));
  }

  @Test
  void dryRun_matchFilterButFakeRejects_noCandidates() {
    // "a pod that fits on one node with no preemption"
    Case c = twoMidPods("MatchFilter");
    c.testPods = List.of(pod("node1").priority(HIGH).obj());
    c.fakeCode = U;
    check(c, List.of("[]"), List.of(2));
  }

  private static Case largeOnTwoNodes(int preemptorPriority) {
    Case c = new Case();
    c.testPods = List.of(pod("p").priority(preemptorPriority).req(LARGE).obj());
    c.initPods = List.of(p("p1", "node1", MID, LARGE), p("p2", "node2", MID, LARGE));
    return c;
  }

  @Test
  void dryRun_lowerPriorityPodsOnBothNodes_bothCandidates() {
    // "a pod that fits on both nodes when lower priority pods are preempted"
    check(largeOnTwoNodes(HIGH), List.of("[node1:[p1]:0, node2:[p2]:0]"), List.of(4));
  }

  @Test
  void dryRun_runningPodsHigherPriority_noPreemptionAndNoFilterCall() {
    // "a pod that would fit on the nodes, but other pods running are higher priority, no preemption would happen"
    check(largeOnTwoNodes(LOW), List.of("[]"), List.of(0));
  }

  @Test
  void dryRun_smallLowPriorityPodStays() {
    // "medium priority pod is preempted, but lower priority one stays as it is small"
    Case c = largeOnTwoNodes(HIGH);
    c.initPods = List.of(p("p1.1", "node1", LOW, SMALL), p("p1.2", "node1", MID, LARGE), p("p2", "node2", MID, LARGE));
    check(c, List.of("[node1:[p1.2]:0, node2:[p2]:0]"), List.of(5));
  }

  @Test
  void dryRun_mixedPriorities_preemptsLeastImportantThatMakeRoom() {
    // "mixed priority pods are preempted"
    Case c = largeOnTwoNodes(HIGH);
    c.initPods = List.of(p("p1.1", "node1", MID, SMALL), p("p1.2", "node1", LOW, SMALL),
        p("p1.3", "node1", MID, MEDIUM), p("p1.4", "node1", HIGH, SMALL), p("p2", "node2", HIGH, LARGE));
    check(c, List.of("[node1:[p1.2, p1.3]:0]"), List.of(4));
  }

  @Test
  void dryRun_equalPriorities_laterStartTimeIsPreempted() {
    // "mixed priority pods are preempted, pick later StartTime one when priorities are equal"
    Case c = largeOnTwoNodes(HIGH);
    c.initPods = List.of(started("p1.1", "node1", LOW, SMALL, epoch(5)), started("p1.2", "node1", LOW, SMALL, epoch(4)),
        started("p1.3", "node1", MID, MEDIUM, epoch(3)), started("p1.4", "node1", HIGH, SMALL, epoch(2)),
        started("p2", "node2", HIGH, LARGE, epoch(1)));
    check(c, List.of("[node1:[p1.1, p1.3]:0]"), List.of(4));
  }

  private static Pod started(String name, String node, int priority, io.fleetkit.api.resource.ResourceList req,
      Instant start) {
    return pod(name).node(node).priority(priority).req(req).startTime(start).obj();
  }

  @Test
  void dryRun_filterRejectsInPreemptionPhase_noCandidates() {
    // "get Unschedulable in the preemption phase when the filter plugins filtering the nodes"
    Case c = largeOnTwoNodes(HIGH);
    c.fakeCode = U;
    check(c, List.of("[]"), List.of(2));
  }

  private static Case samePdb(Map<String, Instant> disrupted, String... podNames) {
    Case c = new Case();
    c.nodeNames = List.of("node1");
    c.testPods = List.of(pod("p").priority(HIGH).req(VERY_LARGE).obj());
    List<Pod> init = new ArrayList<>();
    for (String n : podNames) {
      init.add(pod(n).node("node1").label("app", "foo").priority(MID).req(MEDIUM).obj());
    }
    c.initPods = init;
    c.pdbs = List.of(pdb("pdb", "app", "foo", 1, disrupted));
    return c;
  }

  @Test
  void dryRun_twoVictimsOfOneBudget_oneViolation() {
    // "preemption with violation of same pdb"
    check(samePdb(Map.of(), "p1.1", "p1.2"), List.of("[node1:[p1.1, p1.2]:1]"), List.of(3));
  }

  @Test
  void dryRun_disruptedPodThatIsNotAVictim_stillCounts() {
    // "preemption with violation of the pdb with pod whose eviction was processed, the victim doesn't belong to
    // DisruptedPods"
    check(samePdb(Map.of("p2", Instant.EPOCH), "p1.1", "p1.2"), List.of("[node1:[p1.1, p1.2]:1]"), List.of(3));
  }

  @Test
  void dryRun_victimAlreadyDisrupted_noViolation() {
    // "preemption with violation of the pdb with pod whose eviction was processed, the victim belongs to
    // DisruptedPods"
    check(samePdb(Map.of("p1.2", Instant.EPOCH), "p1.1", "p1.2"), List.of("[node1:[p1.1, p1.2]:0]"), List.of(3));
  }

  @Test
  void dryRun_victimAlreadyDisrupted_isNonViolating() {
    // "preemption with violation of the pdb with pod whose eviction was processed, the victim which belongs to
    // DisruptedPods is treated as 'nonViolating'"
    check(samePdb(Map.of("p1.3", Instant.EPOCH), "p1.1", "p1.2", "p1.3"), List.of("[node1:[p1.1, p1.2, p1.3]:1]"),
        List.of(4));
  }

  private static Case fiveNodes(int p2Priority, int p5Priority) {
    Case c = new Case();
    c.args = new PreemptionArgs(40, 1, 0);
    c.nodeNames = List.of("node1", "node2", "node3", "node4", "node5");
    c.testPods = List.of(pod("p").priority(HIGH).req(LARGE).obj());
    c.initPods = List.of(p("p1", "node1", MID, LARGE), p("p2", "node2", p2Priority, LARGE),
        p("p3", "node3", MID, LARGE), p("p4", "node4", MID, LARGE), p("p5", "node5", p5Priority, LARGE));
    c.offsets = List.of(4, 1, 3);
    return c;
  }

  @Test
  void dryRun_argsLimitCandidatesToTwo() {
    // "all nodes are possible candidates, but DefaultPreemptionArgs limits to 2"
    // cycle=0 => offset=4 => node5 (yes), node1 (yes)
    check(fiveNodes(MID, MID), List.of("[node1:[p1]:0, node5:[p5]:0]"), List.of(4));
  }

  @Test
  void dryRun_someNodesNotCandidates_windowSkipsThem() {
    // "some nodes are not possible candidates, DefaultPreemptionArgs limits to 2"
    // cycle=0 => offset=4 => node5 (no), node1 (yes), node2 (no), node3 (yes)
    check(fiveNodes(VERY_HIGH, VERY_HIGH), List.of("[node1:[p1]:0, node3:[p3]:0]"), List.of(4));
  }

  @Test
  void dryRun_offsetAcrossCycles_wrapsAround() {
    // "preemption offset across multiple scheduling cycles and wrap around"
    Case c = fiveNodes(MID, MID);
    c.testPods = List.of(pod("tp1").priority(HIGH).req(LARGE).obj(), pod("tp2").priority(HIGH).req(LARGE).obj(),
        pod("tp3").priority(HIGH).req(LARGE).obj());
    check(c, List.of("[node1:[p1]:0, node5:[p5]:0]", "[node2:[p2]:0, node3:[p3]:0]", "[node4:[p4]:0, node5:[p5]:0]"),
        List.of(4, 4, 4));
  }

  @Test
  void dryRun_looksPastNumCandidates_untilNonViolatingNodeFound() {
    // "preemption looks past numCandidates until a non-PDB violating node is found"
    // cycle=0 => offset=4 => node5 (yes, pdb), node1 (yes, pdb), node2 (no, pdb), node3 (yes)
    Case c = fiveNodes(MID, MID);
    c.args = new PreemptionArgs(40, 2, 0);
    c.initPods = List.of(pod("p1").node("node1").label("app", "foo").priority(MID).req(LARGE).obj(),
        pod("p2").node("node2").label("app", "foo").priority(MID).req(LARGE).obj(),
        p("p3", "node3", MID, LARGE), p("p4", "node4", MID, LARGE),
        pod("p5").node("node5").label("app", "foo").priority(MID).req(LARGE).obj());
    c.pdbs = List.of(pdb("pdb", "app", "foo", 0, Map.of()));
    check(c, List.of("[node1:[p1]:1, node3:[p3]:0, node5:[p5]:1]"), List.of(8));
  }

  // ---- TestNodesWherePreemptionMightHelp (preemption_test.go)

  private static List<String> mightHelp(Object... nodeCodeReason) {
    List<Node> nodes = List.of(node("node1", VERY_LARGE), node("node2", VERY_LARGE), node("node3", VERY_LARGE),
        node("node4", VERY_LARGE));
    Map<String, Status> m = new LinkedHashMap<>();
    for (int i = 0; i < nodeCodeReason.length; i += 3) {
      m.put((String) nodeCodeReason[i],
          new Status((Status.Code) nodeCodeReason[i + 1], List.of((String) nodeCodeReason[i + 2]), null));
    }
    List<NodeInfo> infos = new TestSnapshot(nodes, List.of()).nodes();
    return DryRun.potentialNodes(infos, new NodeToStatus(m, UU)).stream().map(NodeInfo::name).toList();
  }

  @Test
  void potentialNodes_allUnresolvable_none() {
    // "No node should be attempted"
    assertThat(mightHelp("node1", UU, "node(s) didn't match Pod's node affinity/selector",
        "node2", UU, "node(s) didn't match the requested node name", "node3", UU, "node(s) had untolerated taint(s)",
        "node4", UU, "node(s) didn't match pod affinity rules")).isEmpty();
  }

  @Test
  void potentialNodes_antiAffinity_isTried() {
    // "ErrReasonAntiAffinityRulesNotMatch should be tried as it indicates that the pod is unschedulable due to
    // inter-pod anti-affinity"
    assertThat(mightHelp("node1", U, "node(s) didn't match pod anti-affinity rules",
        "node2", UU, "node(s) didn't match the requested node name", "node3", UU, "node(s) were unschedulable",
        "node4", U, "Unschedulable")).containsExactly("node1", "node4");
  }

  @Test
  void potentialNodes_affinityNotTried_antiAffinityTried() {
    // "ErrReasonAffinityRulesNotMatch should not be tried ..., but ErrReasonAntiAffinityRulesNotMatch should be tried"
    assertThat(mightHelp("node1", UU, "node(s) didn't match pod affinity rules",
        "node2", U, "node(s) didn't match pod anti-affinity rules", "node3", U, "Unschedulable",
        "node4", U, "Unschedulable")).containsExactly("node2", "node3", "node4");
  }

  @Test
  void potentialNodes_mixOfFailedPredicates() {
    // "Mix of failed predicates works fine"
    assertThat(mightHelp("node1", UU, "node(s) had no available disk", "node2", U, "Insufficient memory",
        "node3", U, "Unschedulable", "node4", U, "Unschedulable")).containsExactly("node2", "node3", "node4");
  }

  @Test
  void potentialNodes_nodeConditionErrors_unresolvable() {
    // "Node condition errors should be considered unresolvable"
    assertThat(mightHelp("node1", UU, "node(s) had unknown conditions", "node2", U, "Unschedulable",
        "node3", U, "Unschedulable", "node4", U, "Unschedulable")).containsExactly("node2", "node3", "node4");
  }

  @Test
  void potentialNodes_volumeErrors_notTried() {
    // "ErrVolume... errors should not be tried as it indicates that the pod is unschedulable due to no matching
    // volumes for pod on node"
    assertThat(mightHelp("node1", UU, "node(s) had no available volume zone",
        "node2", UU, "node(s) had volume node affinity conflict",
        "node3", UU, "node(s) didn't find available persistent volumes to bind", "node4", U, "Unschedulable"))
        .containsExactly("node4");
  }

  @Test
  void potentialNodes_topologySpread_isTried() {
    // "ErrReasonConstraintsNotMatch should be tried as it indicates that the pod is unschedulable due to topology
    // spread constraints"
    assertThat(mightHelp("node1", U, "node(s) didn't match pod topology spread constraints",
        "node2", UU, "node(s) didn't match the requested node name",
        "node3", U, "node(s) didn't match pod topology spread constraints", "node4", U, "Unschedulable"))
        .containsExactly("node1", "node3", "node4");
  }

  @Test
  void potentialNodes_unresolvableSkipped_unschedulableTried() {
    // "UnschedulableAndUnresolvable status should be skipped but Unschedulable should be tried"
    assertThat(mightHelp("node1", U, "", "node2", UU, "", "node3", U, "", "node4", UU, ""))
        .containsExactly("node1", "node3");
  }

  @Test
  void potentialNodes_missingTopologyLabel_notTried() {
    // "ErrReasonNodeLabelNotMatch should not be tried as it indicates that the pod is unschedulable due to node
    // doesn't have the required label"
    assertThat(mightHelp("node1", U, "",
        "node2", UU, "node(s) didn't match pod topology spread constraints (missing required label)",
        "node3", U, "", "node4", UU, "")).containsExactly("node1", "node3");
  }

  @Test
  void potentialNodes_absentNodes_takeTheAbsentCode() {
    List<NodeInfo> infos = new TestSnapshot(List.of(node("node1", VERY_LARGE), node("node2", VERY_LARGE)), List.of())
        .nodes();
    Map<String, Status> m = Map.of("node1", Status.unresolvable("x"));
    assertThat(DryRun.potentialNodes(infos, new NodeToStatus(m, U))).extracting(NodeInfo::name)
        .containsExactly("node2");
    assertThat(DryRun.potentialNodes(infos, new NodeToStatus(m, UU))).isEmpty();
  }

  @Test
  void selectVictims_victimsOrderedByImportance() {
    // Victims come back most important first (higher priority, then older), which pickOne relies on.
    List<Pod> init = List.of(started("a", "node1", LOW, SMALL, epoch(1)), started("b", "node1", MID, SMALL, epoch(2)),
        started("c", "node1", MID, SMALL, epoch(1)), started("d", "node1", LOW, SMALL, epoch(0)));
    TestSnapshot snapshot = new TestSnapshot(List.of(node("node1", res4())), init);
    DefaultPreemptionPlugin plugin = new DefaultPreemptionPlugin(
        new TestHandle(snapshot, List.of(new TestPlugins.Fit()), List.of()), PreemptionArgs.DEFAULTS);
    PodInfo preemptor = PodInfos.of(pod("p").priority(HIGH).req(Fixtures.res("400m", "400")).obj());
    VictimSelector.Selection s = plugin.victimSelector().select(new TestCycleState(), preemptor,
        snapshot.nodes().get(0), PdbViolations.none());
    assertThat(s.victims()).extracting(v -> v.pod().metadata().name()).containsExactly("c", "b", "d", "a");
  }

  @Test
  void selectVictims_pdbViolatingVictimsAreReprievedFirst() {
    // upstream SelectVictimsOnNode: violating victims are reprieved before more important non-violating ones.
    List<Pod> init = List.of(pod("guarded").node("node1").label("app", "foo").priority(LOW).req(MEDIUM).obj(),
        pod("free").node("node1").priority(MID).req(MEDIUM).obj());
    TestSnapshot snapshot = new TestSnapshot(List.of(node("node1", VERY_LARGE)), init);
    DefaultPreemptionPlugin plugin = new DefaultPreemptionPlugin(
        new TestHandle(snapshot, List.of(new TestPlugins.Fit()), List.of()), PreemptionArgs.DEFAULTS);
    PodInfo preemptor = PodInfos.of(pod("p").priority(HIGH).req(LARGE).obj());
    VictimSelector.Selection s = plugin.victimSelector().select(new TestCycleState(), preemptor,
        snapshot.nodes().get(0), PdbViolations.of(List.of(pdb("pdb", "app", "foo", 0, Map.of()))));
    assertThat(s.victims()).extracting(v -> v.pod().metadata().name()).containsExactly("free");
    assertThat(s.numPdbViolations()).isZero();
  }

  private static io.fleetkit.api.resource.ResourceList res4() {
    return Fixtures.res("400m", "400");
  }
}
