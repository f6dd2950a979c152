package io.fleetkit.scheduler.plugins.defaultpreemption;

import static io.fleetkit.scheduler.plugins.defaultpreemption.Fixtures.HIGH;
import static io.fleetkit.scheduler.plugins.defaultpreemption.Fixtures.LARGE;
import static io.fleetkit.scheduler.plugins.defaultpreemption.Fixtures.LOW;
import static io.fleetkit.scheduler.plugins.defaultpreemption.Fixtures.MEDIUM;
import static io.fleetkit.scheduler.plugins.defaultpreemption.Fixtures.MID;
import static io.fleetkit.scheduler.plugins.defaultpreemption.Fixtures.NEG;
import static io.fleetkit.scheduler.plugins.defaultpreemption.Fixtures.SMALL;
import static io.fleetkit.scheduler.plugins.defaultpreemption.Fixtures.VERY_HIGH;
import static io.fleetkit.scheduler.plugins.defaultpreemption.Fixtures.VERY_LARGE;
import static io.fleetkit.scheduler.plugins.defaultpreemption.Fixtures.epoch;
import static io.fleetkit.scheduler.plugins.defaultpreemption.Fixtures.node;
import static io.fleetkit.scheduler.plugins.defaultpreemption.Fixtures.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.framework.NodeToStatus;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.PodInfos;
import io.fleetkit.api.framework.Status;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiPredicate;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * Ported from kubernetes/kubernetes pkg/scheduler/framework/plugins/defaultpreemption/default_preemption_test.go:
 * TestSelectBestCandidate (9 of 9, the pickOneNodeForPreemption cascade), TestCustomSelection (9 of 9, the
 * IsEligiblePod hook) and TestCustomOrdering (2 of 2, the MoreImportantPod hook). Nodes have {@code veryLargeRes}.
 */
final class CandidateSelectionTest {

  private static Pod p(String name, String node, int priority, ResourceList req, Instant start) {
    return pod(name).node(node).priority(priority).req(req).startTime(start).obj();
  }

  private static Pod p(String name, String node, int priority, ResourceList req) {
    return p(name, node, priority, req, epoch(0));
  }

  private static final class Run {
    final DefaultPreemptionPlugin plugin;
    final List<Candidate> candidates;

    Run(Pod preemptor, List<Pod> pods, int numNodes, DefaultPreemptionPlugin.VictimEligibility eligibility,
        @Nullable Comparator<PodInfo> importance) {
      List<Node> nodes = new ArrayList<>();
      for (int i = 1; i <= numNodes; i++) {
        nodes.add(node("node" + i, VERY_LARGE));
      }
      TestSnapshot snapshot = new TestSnapshot(nodes, pods);
      TestHandle handle = new TestHandle(snapshot, List.of(new TestPlugins.Fit()), List.of());
      plugin = new DefaultPreemptionPlugin(handle, PreemptionArgs.DEFAULTS, n -> 0, eligibility, importance);
      candidates = plugin.findCandidates(plugin.victimSelector(), new TestCycleState(), PodInfos.of(preemptor),
          snapshot.nodes(), new NodeToStatus(Map.of(), Status.Code.UNSCHEDULABLE)).candidates();
    }

    Run(Pod preemptor, List<Pod> pods, int numNodes) {
      this(preemptor, pods, numNodes, DefaultPreemptionPlugin.VictimEligibility.ANY, null);
    }

    String best() {
      Candidate c = CandidatePicker.pick(candidates, TestHandle.NOW);
      assertThat(c).isNotNull();
      return c.nodeName();
    }
  }

  private static Pod preemptor(int priority, ResourceList req) {
    return pod("p").priority(priority).req(req).obj();
  }

  // ---- TestSelectBestCandidate

  @Test
  void pick_identicalCandidates_eitherNode() {
    // "a pod that fits on both nodes when lower priority pods are preempted"
    Run r = new Run(preemptor(HIGH, LARGE), List.of(p("p1", "node1", MID, LARGE), p("p2", "node2", MID, LARGE)), 2);
    assertThat(r.best()).isIn("node1", "node2");
  }

  @Test
  void pick_minHighestPriorityVictim() {
    // "node with min highest priority pod is picked"
    Run r = new Run(preemptor(HIGH, VERY_LARGE), List.of(p("p1.1", "node1", MID, MEDIUM), p("p1.2", "node1", MID, LARGE),
        p("p2.1", "node2", MID, MEDIUM), p("p2.2", "node2", LOW, MEDIUM),
        p("p3.1", "node3", LOW, MEDIUM), p("p3.2", "node3", LOW, MEDIUM)), 3);
    assertThat(r.best()).isEqualTo("node3");
  }

  @Test
  void pick_sameHighestPriority_minSumOfPriorities() {
    // "when highest priorities are the same, minimum sum of priorities is picked"
    Run r = new Run(preemptor(HIGH, VERY_LARGE), List.of(p("p1.1", "node1", MID, MEDIUM), p("p1.2", "node1", MID, LARGE),
        p("p2.1", "node2", MID, LARGE), p("p2.2", "node2", LOW, MEDIUM),
        p("p3.1", "node3", MID, MEDIUM), p("p3.2", "node3", MID, MEDIUM)), 3);
    assertThat(r.best()).isEqualTo("node2");
  }

  @Test
  void pick_sameHighestAndSum_fewestVictims() {
    // "when highest priority and sum are the same, minimum number of pods is picked"
    Run r = new Run(preemptor(HIGH, VERY_LARGE), List.of(p("p1.1", "node1", MID, SMALL), p("p1.2", "node1", NEG, SMALL),
        p("p1.3", "node1", MID, SMALL), p("p1.4", "node1", NEG, SMALL),
        p("p2.1", "node2", MID, LARGE), p("p2.2", "node2", NEG, MEDIUM),
        p("p3.1", "node3", MID, MEDIUM), p("p3.2", "node3", NEG, SMALL), p("p3.3", "node3", LOW, SMALL)), 3);
    assertThat(r.best()).isEqualTo("node2");
  }

  @Test
  void pick_sumUsesShiftedPriorities() {
    // "sum of adjusted priorities is considered"
    Run r = new Run(preemptor(HIGH, VERY_LARGE), List.of(p("p1.1", "node1", MID, SMALL), p("p1.2", "node1", NEG, SMALL),
        p("p1.3", "node1", NEG, SMALL), p("p2.1", "node2", MID, LARGE), p("p2.2", "node2", NEG, MEDIUM),
        p("p3.1", "node3", MID, MEDIUM), p("p3.2", "node3", NEG, SMALL), p("p3.3", "node3", LOW, SMALL)), 3);
    assertThat(r.best()).isEqualTo("node2");
  }

  @Test
  void pick_nonOverlappingCriteria_lowestHighestPriorityWins() {
    // "non-overlapping lowest high priority, sum priorities, and number of pods"
    Run r = new Run(preemptor(VERY_HIGH, VERY_LARGE), List.of(p("p1.1", "node1", MID, SMALL),
        p("p1.2", "node1", LOW, SMALL), p("p1.3", "node1", LOW, SMALL), p("p2.1", "node2", HIGH, LARGE),
        p("p3.1", "node3", MID, MEDIUM), p("p3.2", "node3", LOW, SMALL), p("p3.3", "node3", LOW, SMALL),
        p("p3.4", "node3", LOW, MEDIUM), p("p4.1", "node4", MID, MEDIUM), p("p4.2", "node4", MID, SMALL),
        p("p4.3", "node4", MID, SMALL), p("p4.4", "node4", NEG, SMALL)), 4);
    assertThat(r.best()).isEqualTo("node1");
  }

  @Test
  void pick_sameVictims_latestStartTimePerNode() {
    // "same priority, same number of victims, different start time for each node's pod"
    Run r = new Run(preemptor(HIGH, VERY_LARGE), List.of(p("p1.1", "node1", MID, MEDIUM, epoch(2)),
        p("p1.2", "node1", MID, MEDIUM, epoch(2)), p("p2.1", "node2", MID, MEDIUM, epoch(3)),
        p("p2.2", "node2", MID, MEDIUM, epoch(3)), p("p3.1", "node3", MID, MEDIUM, epoch(1)),
        p("p3.2", "node3", MID, MEDIUM, epoch(1))), 3);
    assertThat(r.best()).isEqualTo("node2");
  }

  @Test
  void pick_sameVictims_latestEarliestStartTime() {
    // "same priority, same number of victims, different start time for all pods"
    Run r = new Run(preemptor(HIGH, VERY_LARGE), List.of(p("p1.1", "node1", MID, MEDIUM, epoch(4)),
        p("p1.2", "node1", MID, MEDIUM, epoch(2)), p("p2.1", "node2", MID, MEDIUM, epoch(5)),
        p("p2.2", "node2", MID, MEDIUM, epoch(1)), p("p3.1", "node3", MID, MEDIUM, epoch(3)),
        p("p3.2", "node3", MID, MEDIUM, epoch(6))), 3);
    assertThat(r.best()).isEqualTo("node3");
  }

  @Test
  void pick_differentPriorities_startTimeOfHighestPriorityVictims() {
    // "different priority, same number of victims, different start time for all pods"
    Run r = new Run(preemptor(HIGH, VERY_LARGE), List.of(p("p1.1", "node1", LOW, MEDIUM, epoch(4)),
        p("p1.2", "node1", MID, MEDIUM, epoch(2)), p("p2.1", "node2", MID, MEDIUM, epoch(6)),
        p("p2.2", "node2", LOW, MEDIUM, epoch(1)), p("p3.1", "node3", LOW, MEDIUM, epoch(3)),
        p("p3.2", "node3", MID, MEDIUM, epoch(5))), 3);
    assertThat(r.best()).isEqualTo("node2");
  }

  // ---- TestCustomSelection

  private static final DefaultPreemptionPlugin.VictimEligibility PREEMPTIBLE_LABEL =
      (node, victim, preemptor) -> "yes".equals(victim.pod().metadata().labels().get("preemptible"));
  private static final DefaultPreemptionPlugin.VictimEligibility ON_NODE1 = (node, victim, preemptor) ->
      node.name().equals("node1");

  private static List<Pod> labelPods() {
    return List.of(pod("v1").label("preemptible", "no").node("node1").priority(MID).req(LARGE).startTime(epoch(0)).obj(),
        pod("v2").label("preemptible", "yes").node("node2").priority(MID).req(LARGE).startTime(epoch(0)).obj(),
        pod("v3").label("preemptible", "yes").node("node3").priority(LOW).req(LARGE).startTime(epoch(0)).obj(),
        pod("v4").node("node4").priority(LOW).req(LARGE).startTime(epoch(0)).obj());
  }

  private static List<Pod> node1Pods(ResourceList v1Req) {
    return List.of(p("v1", "node1", HIGH, v1Req), p("v2", "node1", MID, SMALL), p("v3", "node1", LOW, SMALL),
        p("v4", "node2", MID, LARGE), p("v5", "node3", LOW, LARGE));
  }

  private static List<Pod> threePriorities() {
    return List.of(p("v1", "node1", HIGH, LARGE), p("v2", "node2", MID, LARGE), p("v3", "node3", LOW, LARGE));
  }

  /** Picks repeatedly, removing each pick, and collects node to victim names, as the upstream loop does. */
  private static Map<String, List<String>> selectAll(Run r) {
    Map<String, List<String>> got = new LinkedHashMap<>();
    List<Candidate> left = new ArrayList<>(r.candidates);
    while (!left.isEmpty()) {
      Candidate c = CandidatePicker.pick(left, TestHandle.NOW);
      assertThat(c).isNotNull();
      got.put(c.nodeName(), c.victims().stream().map(v -> v.pod().metadata().name()).toList());
      left.remove(c);
    }
    return got;
  }

  private static Map<String, List<String>> custom(Pod preemptor, List<Pod> pods, int nodes,
      DefaultPreemptionPlugin.VictimEligibility eligibility) {
    return selectAll(new Run(preemptor, pods, nodes, eligibility, null));
  }

  @Test
  void customSelection_podLabel_highPriority() {
    // "filter for matching pod label: high priority"
    assertThat(custom(pod("p1").priority(HIGH).req(LARGE).obj(), labelPods(), 4, PREEMPTIBLE_LABEL))
        .isEqualTo(Map.of("node2", List.of("v2"), "node3", List.of("v3")));
  }

  @Test
  void customSelection_podLabel_midPriority() {
    // "filter for matching pod label: mid priority"
    assertThat(custom(pod("p2").priority(MID).req(LARGE).obj(), labelPods(), 4, PREEMPTIBLE_LABEL))
        .isEqualTo(Map.of("node3", List.of("v3")));
  }

  @Test
  void customSelection_podLabel_lowPriority() {
    // "filter for matching pod label: low priority"
    assertThat(custom(pod("p3").priority(LOW).req(LARGE).obj(), labelPods(), 4, PREEMPTIBLE_LABEL)).isEmpty();
  }

  @Test
  void customSelection_victimNode_highPriority() {
    // "filter for matching victim node: high priority"
    assertThat(custom(pod("p3").priority(HIGH).req(LARGE).obj(), node1Pods(MEDIUM), 3, ON_NODE1))
        .isEqualTo(Map.of("node1", List.of("v2", "v3")));
  }

  @Test
  void customSelection_victimNode_midPriority() {
    // "filter for matching victim node: mid priority"
    assertThat(custom(pod("p3").priority(MID).req(LARGE).obj(), node1Pods(SMALL), 3, ON_NODE1))
        .isEqualTo(Map.of("node1", List.of("v3")));
  }

  @Test
  void customSelection_victimNode_lowPriority() {
    // "filter for matching victim node: low priority"
    assertThat(custom(pod("p3").priority(LOW).req(LARGE).obj(), node1Pods(SMALL), 3, ON_NODE1)).isEmpty();
  }

  @Test
  void customSelection_preemptorAtOrAboveThreshold_high() {
    // "only pods at or above specified priority can preempted: high priority"
    assertThat(custom(pod("p1").priority(HIGH).req(LARGE).obj(), threePriorities(), 3,
        (node, victim, preemptor) -> preemptor.priority() >= HIGH))
        .isEqualTo(Map.of("node2", List.of("v2"), "node3", List.of("v3")));
  }

  @Test
  void customSelection_preemptorBelowThreshold_preemptsNothing() {
    // "only pods at or above specified priority can preempted: mid priority"
    assertThat(custom(pod("p2").priority(MID).req(LARGE).obj(), threePriorities(), 3,
        (node, victim, preemptor) -> preemptor.priority() >= HIGH)).isEmpty();
  }

  @Test
  void customSelection_victimAtOrBelowThreshold() {
    // "only pods at or below specified priority can be preempted: high priority"
    assertThat(custom(pod("p1").priority(HIGH).req(LARGE).obj(), threePriorities(), 3,
        (node, victim, preemptor) -> victim.priority() <= MID))
        .isEqualTo(Map.of("node2", List.of("v2"), "node3", List.of("v3")));
  }

  // ---- TestCustomOrdering

  private static Comparator<PodInfo> fromLess(BiPredicate<PodInfo, PodInfo> less) {
    return (a, b) -> less.test(a, b) ? -1 : less.test(b, a) ? 1 : 0;
  }

  private static List<String> customOrder(List<Pod> pods, Comparator<PodInfo> importance) {
    Run r = new Run(pod("p2").priority(HIGH).req(LARGE).obj(), pods, 1, DefaultPreemptionPlugin.VictimEligibility.ANY,
        importance);
    assertThat(r.candidates).hasSize(1);
    return r.candidates.get(0).victims().stream().map(v -> v.pod().metadata().name()).toList();
  }

  @Test
  void customOrdering_oldestStartFirst_newestAreVictims() {
    // "select newest pods"
    List<Pod> pods = List.of(p("v1", "node1", LOW, MEDIUM, epoch(2)), p("v2", "node1", LOW, MEDIUM, epoch(0)),
        p("v3", "node1", MID, MEDIUM, epoch(1)));
    assertThat(customOrder(pods, fromLess((a, b) -> PodImportance.startTime(a, TestHandle.NOW)
        .isBefore(PodImportance.startTime(b, TestHandle.NOW))))).containsExactly("v3", "v1");
  }

  @Test
  void customOrdering_byName_alphabeticallyLastAreVictims() {
    // "select alphabetically-last pods"
    List<Pod> pods = List.of(p("foo", "node1", LOW, MEDIUM), p("bar", "node1", LOW, MEDIUM),
        p("baz", "node1", MID, MEDIUM));
    assertThat(customOrder(pods, fromLess((a, b) ->
        a.pod().metadata().name().compareTo(b.pod().metadata().name()) < 0))).containsExactly("baz", "foo");
  }
}
