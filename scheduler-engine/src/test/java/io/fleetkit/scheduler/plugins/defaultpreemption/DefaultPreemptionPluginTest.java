package io.fleetkit.scheduler.plugins.defaultpreemption;

import static io.fleetkit.scheduler.plugins.defaultpreemption.Fixtures.HIGH;
import static io.fleetkit.scheduler.plugins.defaultpreemption.Fixtures.LARGE;
import static io.fleetkit.scheduler.plugins.defaultpreemption.Fixtures.LOW;
import static io.fleetkit.scheduler.plugins.defaultpreemption.Fixtures.MEDIUM;
import static io.fleetkit.scheduler.plugins.defaultpreemption.Fixtures.MID;
import static io.fleetkit.scheduler.plugins.defaultpreemption.Fixtures.NODE_RES;
import static io.fleetkit.scheduler.plugins.defaultpreemption.Fixtures.ONE_POD;
import static io.fleetkit.scheduler.plugins.defaultpreemption.Fixtures.SMALL;
import static io.fleetkit.scheduler.plugins.defaultpreemption.Fixtures.VERY_HIGH;
import static io.fleetkit.scheduler.plugins.defaultpreemption.Fixtures.VERY_LARGE;
import static io.fleetkit.scheduler.plugins.defaultpreemption.Fixtures.node;
import static io.fleetkit.scheduler.plugins.defaultpreemption.Fixtures.pdb;
import static io.fleetkit.scheduler.plugins.defaultpreemption.Fixtures.pod;
import static io.fleetkit.scheduler.plugins.defaultpreemption.Fixtures.withLabel;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.policy.PodDisruptionBudget;
import io.fleetkit.api.framework.NodeToStatus;
import io.fleetkit.api.framework.PodInfos;
import io.fleetkit.api.framework.PostFilterResult;
import io.fleetkit.api.framework.PreFilterPlugin;
import io.fleetkit.api.framework.Status;
import io.fleetkit.api.scheduling.PreemptionPolicy;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * Ported from kubernetes/kubernetes pkg/scheduler/framework/plugins/defaultpreemption/default_preemption_test.go:
 * TestPostFilter (12 of 18 cases), TestPodEligibleToPreemptOthers (5 of 5), TestPreempt (3 of 8 here, 4 of 8 in all);
 * the case names are upstream's. Skipped, with the reason: TestPostFilter "preemption result filtered out by
 * extenders" (extenders), the five SchedulingGroup cases that enable TopologyAwareWorkloadScheduling or
 * WorkloadAwarePreemption (features we lack); TestPreempt's four extender cases. TestPreempt "preemption for topology
 * spread constraints" is in {@link WithAffinityAndSpreadTest}. TestPreEnqueue is not ported: preemption here is
 * synchronous (the engine executes the result), so there is no in-flight preemption to gate.
 */
final class DefaultPreemptionPluginTest {
  private static final String VIOLATING_KEY = "test.kubernetes.io/is-violating-pdb";

  private static NodeToStatus statuses(Status.Code absent, Object... nodeAndCode) {
    Map<String, Status> m = new LinkedHashMap<>();
    for (int i = 0; i < nodeAndCode.length; i += 2) {
      m.put((String) nodeAndCode[i], new Status((Status.Code) nodeAndCode[i + 1], List.of(), null));
    }
    return new NodeToStatus(m, absent);
  }

  private static NodeToStatus unschedulableOn(String... nodes) {
    Object[] args = new Object[nodes.length * 2];
    for (int i = 0; i < nodes.length; i++) {
      args[2 * i] = nodes[i];
      args[2 * i + 1] = Status.Code.UNSCHEDULABLE;
    }
    return statuses(Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE, args);
  }

  private static PostFilterResult postFilter(Pod preemptor, List<Pod> pods, List<Node> nodes,
      List<PodDisruptionBudget> pdbs, NodeToStatus filtered, List<PreFilterPlugin> preFilters) {
    TestSnapshot snapshot = new TestSnapshot(nodes, pods);
    TestHandle handle = new TestHandle(snapshot, List.of(new TestPlugins.Fit()), preFilters, pdbs, Map.of());
    DefaultPreemptionPlugin plugin = (DefaultPreemptionPlugin) DefaultPreemptionPlugin.FACTORY.create(handle);
    return plugin.postFilter(new TestCycleState(), PodInfos.of(preemptor), snapshot, filtered);
  }

  private static PostFilterResult postFilter(Pod preemptor, List<Pod> pods, List<Node> nodes, NodeToStatus filtered) {
    return postFilter(preemptor, pods, nodes, List.of(), filtered, List.of(new TestPlugins.ErrorOnLabel()));
  }

  private static void assertNominated(PostFilterResult r, String node, String... victims) {
    assertThat(r.status().code()).isEqualTo(Status.Code.SUCCESS);
    assertThat(r.nominatedNodeName()).isEqualTo(node);
    assertThat(r.victims()).containsExactly(victims);
  }

  private static void assertUnschedulable(PostFilterResult r, String message) {
    assertThat(r.status().code()).isEqualTo(Status.Code.UNSCHEDULABLE);
    assertThat(r.status().reasons()).containsExactly(message);
    assertThat(r.nominatedNodeName()).isEmpty(); // clears any nomination
    assertThat(r.victims()).isEmpty();
  }

  // ---- TestPostFilter

  @Test
  void postFilter_higherPriority_canBeMadeSchedulable() {
    // "pod with higher priority can be made schedulable"
    PostFilterResult r = postFilter(pod("p").priority(HIGH).obj(), List.of(pod("p1").node("node1").obj()),
        List.of(node("node1", ONE_POD)), unschedulableOn("node1"));
    assertNominated(r, "node1", "default/p1");
  }

  @Test
  void postFilter_tiedPriority_isStillUnschedulable() {
    // "pod with tied priority is still unschedulable"
    PostFilterResult r = postFilter(pod("p").obj(), List.of(pod("p1").node("node1").obj()),
        List.of(node("node1", ONE_POD)), unschedulableOn("node1"));
    assertUnschedulable(r, "preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.");
  }

  @Test
  void postFilter_unresolvableNode_isNotTried() {
    // "preemption should respect filteredNodesStatuses"
    PostFilterResult r = postFilter(pod("p").priority(HIGH).obj(), List.of(pod("p1").node("node1").obj()),
        List.of(node("node1", ONE_POD)),
        statuses(Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE, "node1", Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE));
    assertUnschedulable(r, "preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.");
  }

  @Test
  void postFilter_absentStatusEntry_meansUnresolvable() {
    // "preemption should respect absent NodeToStatusReader entry meaning UnschedulableAndUnresolvable"
    PostFilterResult r = postFilter(pod("p").priority(HIGH).obj(), List.of(pod("p1").node("node1").obj()),
        List.of(node("node1", ONE_POD)), statuses(Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE));
    assertUnschedulable(r, "preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.");
  }

  @Test
  void postFilter_onlyOneNodeHasLowerPriorityPods_picksIt() {
    // "pod can be made schedulable on one node"
    PostFilterResult r = postFilter(pod("p").priority(MID).obj(),
        List.of(pod("p1").priority(HIGH).node("node1").obj(), pod("p2").priority(LOW).node("node2").obj()),
        List.of(node("node1", ONE_POD), node("node2", ONE_POD)), unschedulableOn("node1", "node2"));
    assertNominated(r, "node2", "default/p2");
  }

  @Test
  void postFilter_pdbViolationsTie_picksMinHighestPriorityNode() {
    // "pod can be made schedulable on minHighestPriority node"
    List<PodDisruptionBudget> pdbs = List.of(
        pdb("violating-pdb", VIOLATING_KEY, "violating", 0, Map.of()),
        pdb("non-violating-pdb", VIOLATING_KEY, "non-violating", Integer.MAX_VALUE, Map.of()));
    PostFilterResult r = postFilter(pod("p").priority(VERY_HIGH).obj(),
        List.of(pod("p1").label(VIOLATING_KEY, "non-violating").priority(HIGH).node("node1").obj(),
            pod("p2").label(VIOLATING_KEY, "violating").priority(LOW).node("node1").obj(),
            pod("p3").label(VIOLATING_KEY, "violating").priority(MID).node("node2").obj()),
        List.of(node("node1", ONE_POD), node("node2", ONE_POD)), pdbs, unschedulableOn("node1", "node2"),
        List.of());
    assertNominated(r, "node2", "default/p3");
  }

  @Test
  void postFilter_notEnoughResourceAfterRemovingLowerPriorityPods_reportsFilterReasons() {
    // "no candidate nodes found, no enough resource after removing low priority pods"
    PostFilterResult r = postFilter(pod("p").priority(HIGH).req(LARGE).obj(),
        List.of(pod("p1").node("node1").obj(), pod("p2").node("node2").obj()),
        List.of(node("node1", NODE_RES), node("node2", NODE_RES)), unschedulableOn("node1", "node2"));
    assertUnschedulable(r, "preemption: 0/2 nodes are available: 2 Insufficient cpu.");
  }

  @Test
  void postFilter_mixedReasons_areCountedPerReason() {
    // "no candidate nodes found with mixed reasons, no lower priority pod and no enough CPU resource"
    PostFilterResult r = postFilter(pod("p").priority(HIGH).req(LARGE).obj(),
        List.of(pod("p1").node("node1").priority(HIGH).obj(), pod("p2").node("node2").obj(),
            pod("p3").node("node3").priority(HIGH).obj()),
        List.of(node("node1", ONE_POD), node("node2", NODE_RES), node("node3", ONE_POD)),
        unschedulableOn("node1", "node2", "node3"));
    assertUnschedulable(r,
        "preemption: 0/3 nodes are available: 1 Insufficient cpu, 2 No preemption victims found for incoming pod.");
  }

  @Test
  void postFilter_unresolvableAndAbsentNodes_countAsNotHelpful() {
    // "no candidate nodes found with mixed reason, 2 UnschedulableAndUnresolvable nodes and 2 nodes don't have
    // enough CPU resource"
    PostFilterResult r = postFilter(pod("p").priority(HIGH).req(LARGE).obj(),
        List.of(pod("p1").node("node1").obj(), pod("p2").node("node2").obj()),
        List.of(node("node1", NODE_RES), node("node2", NODE_RES), node("node3", NODE_RES), node("node4", NODE_RES)),
        statuses(Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE, "node1", Status.Code.UNSCHEDULABLE,
            "node2", Status.Code.UNSCHEDULABLE, "node4", Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE));
    assertUnschedulable(r,
        "preemption: 0/4 nodes are available: 2 Insufficient cpu, 2 Preemption is not helpful for scheduling.");
  }

  @Test
  void postFilter_extensionErrorOnOnlyNode_returnsError() {
    // "only one node but failed with TestPlugin"
    PostFilterResult r = postFilter(pod("p").priority(HIGH).req(LARGE).obj(), List.of(pod("p1").node("node1").obj()),
        List.of(withLabel(node("node1", LARGE), "error", "true")), unschedulableOn("node1"));
    assertThat(r.status().code()).isEqualTo(Status.Code.ERROR);
    assertThat(r.status().message())
        .isEqualTo("preemption: running RemovePod on PreFilter plugin \"test-plugin\": failed to remove pod: p");
    assertThat(r.nominatedNodeName()).isNull(); // leaves the nomination unchanged
    assertThat(r.victims()).isEmpty();
  }

  @Test
  void postFilter_extensionErrorOnOneNode_otherNodeStillNominated() {
    // "one failed with TestPlugin and the other pass"
    PostFilterResult r = postFilter(pod("p").priority(HIGH).req(LARGE).obj(),
        List.of(pod("p1").node("node1").obj(), pod("p2").node("node2").req(MEDIUM).obj()),
        List.of(withLabel(node("node1", LARGE), "error", "true"), node("node2", LARGE)),
        unschedulableOn("node1", "node2"));
    assertNominated(r, "node2", "default/p2");
  }

  @Test
  void postFilter_podGroupWithWorkloadFeaturesDisabled_preempts() {
    // "pod with SchedulingGroup with TAS and WAP disabled should preempt"
    Pod p = pod("p-with-podgroup").priority(HIGH).obj();
    p = p.withMetadata(p.metadata().toBuilder().label(Pod.POD_GROUP_LABEL, "foo").build());
    PostFilterResult r = postFilter(p, List.of(pod("p1").node("node1").obj()), List.of(node("node1", ONE_POD)),
        unschedulableOn("node1"));
    assertNominated(r, "node1", "default/p1");
  }

  // ---- TestPodEligibleToPreemptOthers

  private static @Nullable String ineligibility(Pod pod, List<Pod> pods, List<String> nodeNames,
      Status.Code nominatedCode) {
    List<Node> nodes = nodeNames.stream().map(n -> Node.builder().name(n).build()).toList();
    TestSnapshot snapshot = new TestSnapshot(nodes, pods);
    DefaultPreemptionPlugin plugin = new DefaultPreemptionPlugin(new TestHandle(snapshot, List.of(), List.of()),
        PreemptionArgs.DEFAULTS);
    return plugin.ineligibility(plugin.victimSelector(), PodInfos.of(pod), snapshot, nominatedCode);
  }

  @Test
  void eligibility_nominatedNodeUnresolvable_mayPreemptAgain() {
    // "Pod with nominated node"
    assertThat(ineligibility(pod("p-with-nominated-node").priority(HIGH).nominatedNodeName("node1").obj(),
        List.of(pod("p1").priority(LOW).node("node1").terminating().obj()), List.of("node1"),
        Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE)).isNull();
  }

  @Test
  void eligibility_withoutNominatedNode_isEligible() {
    // "Pod without nominated node"
    assertThat(ineligibility(pod("p-without-nominated-node").priority(HIGH).obj(), List.of(), List.of(),
        Status.Code.SUCCESS)).isNull();
  }

  @Test
  void eligibility_preemptNever_isNotEligible() {
    // "Pod with 'PreemptNever' preemption policy"
    assertThat(ineligibility(pod("p-never").priority(HIGH).preemptionPolicy(PreemptionPolicy.Never).obj(),
        List.of(), List.of(), Status.Code.SUCCESS)).isEqualTo("not eligible due to preemptionPolicy=Never.");
  }

  @Test
  void eligibility_victimTerminatingByPreemption_waits() {
    // "preemption victim pod terminating, as indicated by the dedicated DisruptionTarget condition"
    assertThat(ineligibility(pod("p-with-nominated-node").priority(HIGH).nominatedNodeName("node1").obj(),
        List.of(pod("p1").priority(LOW).node("node1").terminating().disruptedByScheduler().obj()), List.of("node1"),
        Status.Code.SUCCESS)).isEqualTo("not eligible due to a terminating pod on the nominated node.");
  }

  @Test
  void eligibility_nonVictimPodTerminating_isEligible() {
    // "non-victim Pods terminating"
    assertThat(ineligibility(pod("p-with-nominated-node").priority(HIGH).nominatedNodeName("node1").obj(),
        List.of(pod("p1").priority(LOW).node("node1").terminating().obj()), List.of("node1"),
        Status.Code.SUCCESS)).isNull();
  }

  // ---- TestPreempt

  private static final List<Node> THREE_NODES =
      List.of(node("node1", VERY_LARGE), node("node2", VERY_LARGE), node("node3", VERY_LARGE));

  private static List<Pod> preemptPods() {
    return List.of(pod("p1.1").node("node1").priority(LOW).req(SMALL).obj(),
        pod("p1.2").node("node1").priority(LOW).req(SMALL).obj(),
        pod("p2.1").node("node2").priority(HIGH).req(LARGE).obj(),
        pod("p3.1").node("node3").priority(MID).req(MEDIUM).obj());
  }

  @Test
  void preempt_basic_evictsBothLowPriorityPodsOnNode1() {
    // "basic preemption logic"; then, as upstream, the victims terminate and a second attempt preempts nothing more.
    Pod p = pod("p").priority(HIGH).req(VERY_LARGE).preemptionPolicy(PreemptionPolicy.PreemptLowerPriority).obj();
    PostFilterResult r = postFilter(p, preemptPods(), THREE_NODES, List.of(),
        unschedulableOn("node1", "node2", "node3"), List.of());
    assertNominated(r, "node1", "default/p1.1", "default/p1.2");

    Pod nominated = p.withStatus(p.status().withNominatedNodeName("node1"));
    List<Pod> terminating = List.of(
        pod("p1.1").node("node1").priority(LOW).req(SMALL).terminating().disruptedByScheduler().obj(),
        pod("p1.2").node("node1").priority(LOW).req(SMALL).terminating().disruptedByScheduler().obj(),
        preemptPods().get(2), preemptPods().get(3));
    PostFilterResult again = postFilter(nominated, terminating, THREE_NODES, List.of(),
        statuses(Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE), List.of());
    assertThat(again.victims()).isEmpty();
    // Not in upstream: with node1 still a candidate, the terminating victims make the pod wait.
    PostFilterResult waiting = postFilter(nominated, terminating, THREE_NODES, List.of(),
        unschedulableOn("node1", "node2", "node3"), List.of());
    assertThat(waiting.status().reasons())
        .containsExactly("preemption: not eligible due to a terminating pod on the nominated node.");
    assertThat(waiting.nominatedNodeName()).isNull();
    assertThat(waiting.victims()).isEmpty();
  }

  @Test
  void preempt_preemptNever_preemptsNothing() {
    // "no preempting in pod"
    Pod p = pod("p").priority(HIGH).req(VERY_LARGE).preemptionPolicy(PreemptionPolicy.Never).obj();
    PostFilterResult r = postFilter(p, preemptPods(), THREE_NODES, List.of(),
        unschedulableOn("node1", "node2", "node3"), List.of());
    assertThat(r.status().code()).isEqualTo(Status.Code.UNSCHEDULABLE);
    assertThat(r.status().reasons()).containsExactly("preemption: not eligible due to preemptionPolicy=Never.");
    assertThat(r.nominatedNodeName()).isNull();
    assertThat(r.victims()).isEmpty();
  }

  @Test
  void preempt_defaultPreemptionPolicy_preempts() {
    // "PreemptionPolicy is nil" (the default, PreemptLowerPriority)
    PostFilterResult r = postFilter(pod("p").priority(HIGH).req(VERY_LARGE).obj(), preemptPods(), THREE_NODES,
        List.of(), unschedulableOn("node1", "node2", "node3"), List.of());
    assertNominated(r, "node1", "default/p1.1", "default/p1.2");
  }

  // ---- FleetKit additions

  @Test
  void postFilter_noNodes_returnsError() {
    PostFilterResult r = postFilter(pod("p").priority(HIGH).obj(), List.of(), List.of(),
        statuses(Status.Code.UNSCHEDULABLE));
    assertThat(r.status().code()).isEqualTo(Status.Code.ERROR);
    assertThat(r.status().message()).isEqualTo("preemption: no nodes available");
  }

  @Test
  void factory_readsArgs_andNamesThePlugin() {
    TestSnapshot snapshot = new TestSnapshot(List.of(), List.of());
    TestHandle handle = new TestHandle(snapshot, List.of(), List.of(), List.of(),
        Map.of(PreemptionArgs.MIN_CANDIDATE_NODES_PERCENTAGE, 101));
    assertThatThrownBy(() -> DefaultPreemptionPlugin.FACTORY.create(handle))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("minCandidateNodesPercentage 101 is not in valid range [0, 100]");
    TestHandle ok = new TestHandle(snapshot, List.of(), List.of());
    assertThat(DefaultPreemptionPlugin.FACTORY.create(ok).name()).isEqualTo("DefaultPreemption");
  }
}
