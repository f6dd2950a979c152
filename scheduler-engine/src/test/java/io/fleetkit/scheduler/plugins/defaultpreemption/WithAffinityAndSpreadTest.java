package io.fleetkit.scheduler.plugins.defaultpreemption;

import static io.fleetkit.scheduler.plugins.defaultpreemption.Fixtures.HIGH;
import static io.fleetkit.scheduler.plugins.defaultpreemption.Fixtures.LOW;
import static io.fleetkit.scheduler.plugins.defaultpreemption.Fixtures.MID;
import static io.fleetkit.scheduler.plugins.defaultpreemption.Fixtures.SMALL;
import static io.fleetkit.scheduler.plugins.defaultpreemption.Fixtures.VERY_LARGE;
import static io.fleetkit.scheduler.plugins.defaultpreemption.Fixtures.node;
import static io.fleetkit.scheduler.plugins.defaultpreemption.Fixtures.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.framework.FilterPlugin;
import io.fleetkit.api.framework.NodeToStatus;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.PodInfos;
import io.fleetkit.api.framework.PostFilterResult;
import io.fleetkit.api.framework.PreFilterPlugin;
import io.fleetkit.api.framework.Status;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.labels.LabelSelectorOperator;
import io.fleetkit.api.labels.LabelSelectorRequirement;
import io.fleetkit.api.scheduling.Affinity;
import io.fleetkit.api.scheduling.PodAffinity;
import io.fleetkit.api.scheduling.PodAffinityTerm;
import io.fleetkit.api.scheduling.TopologySpreadConstraint;
import io.fleetkit.api.scheduling.UnsatisfiableConstraintAction;
import io.fleetkit.scheduler.plugins.interpodaffinity.InterPodAffinityArgs;
import io.fleetkit.scheduler.plugins.interpodaffinity.InterPodAffinityPlugin;
import io.fleetkit.scheduler.plugins.noderesources.NodeResourcesFitPlugin;
import io.fleetkit.scheduler.plugins.podtopologyspread.PodTopologySpreadArgs;
import io.fleetkit.scheduler.plugins.podtopologyspread.PodTopologySpreadPlugin;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The TestDryRunPreemption and TestPreempt cases of kubernetes/kubernetes
 * pkg/scheduler/framework/plugins/defaultpreemption/default_preemption_test.go that register the real InterPodAffinity
 * or PodTopologySpread plugin: PreFilter runs first, and the victim selection updates its state through the PreFilter
 * extensions (AddPod / RemovePod). As in {@link DryRunTest}, a counting filter stands for upstream's fake filter plugin
 * and the number of its calls is checked: 3 and 5 as in the upstream revision whose other cases {@link DryRunTest}
 * ports (the one with {@code testPods}); a later revision, with a different victim search, expects 4 and 8.
 */
final class WithAffinityAndSpreadTest {

  private static LabelSelector exists(String key) {
    return new LabelSelector(Map.of(),
        List.of(new LabelSelectorRequirement(key, LabelSelectorOperator.Exists, List.of())));
  }

  /** Runs PreFilter of each plugin, then the dry run; returns the candidates as {@link DryRunTest#describe}. */
  private static String dryRun(List<Node> nodes, List<Pod> initPods, Pod preemptor, List<PreFilterPlugin> preFilters,
      List<FilterPlugin> filters, List<Integer> filterCalls, TestSnapshot snapshot) {
    Map<String, Status.Code> codes = new HashMap<>();
    for (Node n : nodes) {
      codes.put(n.metadata().name(), Status.Code.SUCCESS);
    }
    TestPlugins.CountingFilter counting = new TestPlugins.CountingFilter(codes);
    List<FilterPlugin> all = new ArrayList<>();
    all.add(counting);
    all.addAll(filters);
    TestHandle handle = new TestHandle(snapshot, all, preFilters, List.of(), Map.of());
    DefaultPreemptionPlugin plugin = new DefaultPreemptionPlugin(handle, PreemptionArgs.DEFAULTS, n -> 0,
        DefaultPreemptionPlugin.VictimEligibility.ANY, null);
    TestCycleState state = new TestCycleState();
    PodInfo p = PodInfos.of(preemptor);
    for (PreFilterPlugin pre : preFilters) {
      assertThat(pre.preFilter(state, p, snapshot).status().isSuccess()).as(pre.name()).isTrue();
    }
    int before = counting.calls.get();
    DryRun.Result r = plugin.findCandidates(plugin.victimSelector(), state, p, snapshot.nodes(),
        new NodeToStatus(Map.of(), Status.Code.UNSCHEDULABLE));
    filterCalls.add(counting.calls.get() - before);
    return DryRunTest.describe(r.candidates());
  }

  @Test
  void dryRun_podWithAntiAffinityIsPreempted() {
    // "pod with anti-affinity is preempted": NodeResourcesFit and InterPodAffinity (PreFilter, Filter)
    Pod antiFoo = pod("p1.1").node("node1").label("foo", "").priority(LOW).req(SMALL).obj();
    antiFoo = antiFoo.toBuilder().affinity(new Affinity(null, null,
        new PodAffinity(List.of(PodAffinityTerm.of(exists("foo"), "hostname")), List.of()))).build();
    List<Node> nodes = List.of(node("node1", VERY_LARGE), node("node2", VERY_LARGE));
    List<Pod> initPods = List.of(antiFoo,
        pod("p1.2").node("node1").priority(MID).req(SMALL).obj(),
        pod("p1.3").node("node1").priority(HIGH).req(SMALL).obj(),
        pod("p2").node("node2").priority(HIGH).req(SMALL).obj());
    TestSnapshot snapshot = new TestSnapshot(nodes, initPods);
    NodeResourcesFitPlugin fit = new NodeResourcesFitPlugin();
    InterPodAffinityPlugin affinity = new InterPodAffinityPlugin(InterPodAffinityArgs.DEFAULT, () -> snapshot);
    List<Integer> calls = new ArrayList<>();

    String candidates = dryRun(nodes, initPods, pod("p").label("foo", "").priority(HIGH).req(SMALL).obj(),
        List.of(fit, affinity), List.of(fit, affinity), calls, snapshot);

    assertThat(candidates).isEqualTo("[node1:[p1.1]:0]");
    assertThat(calls).containsExactly(3);
  }

  @Test
  void dryRun_preemptionToResolvePodTopologySpreadFilterFailure() {
    // "preemption to resolve pod topology spread filter failure": PodTopologySpread only (PreFilter, Filter)
    List<Node> nodes = List.of(node("node-a/zone1", VERY_LARGE), node("node-b/zone1", VERY_LARGE),
        node("node-x/zone2", VERY_LARGE));
    List<Pod> initPods = List.of(
        pod("pod-a1").node("node-a").label("foo", "").priority(MID).obj(),
        pod("pod-a2").node("node-a").label("foo", "").priority(LOW).obj(),
        pod("pod-b1").node("node-b").label("foo", "").priority(LOW).obj(),
        pod("pod-x1").node("node-x").label("foo", "").priority(HIGH).obj(),
        pod("pod-x2").node("node-x").label("foo", "").priority(HIGH).obj());
    Pod preemptor = pod("p").label("foo", "").priority(HIGH).obj().toBuilder()
        .topologySpreadConstraint(TopologySpreadConstraint.of(1, "zone", UnsatisfiableConstraintAction.DoNotSchedule,
            exists("foo")))
        .topologySpreadConstraint(TopologySpreadConstraint.of(1, "hostname",
            UnsatisfiableConstraintAction.DoNotSchedule, exists("foo")))
        .build();
    TestSnapshot snapshot = new TestSnapshot(nodes, initPods);
    PodTopologySpreadPlugin spread = new PodTopologySpreadPlugin(PodTopologySpreadArgs.defaults(), () -> snapshot);
    List<Integer> calls = new ArrayList<>();

    String candidates = dryRun(nodes, initPods, preemptor, List.of(spread), List.of(spread), calls, snapshot);

    assertThat(candidates).isEqualTo("[node-a:[pod-a2]:0, node-b:[pod-b1]:0]");
    assertThat(calls).containsExactly(5); // node-a 3, node-b 2, node-x 0
  }

  @Test
  void preempt_topologySpreadConstraints_preemptsTheLowPriorityPodOnNodeB() {
    // TestPreempt "preemption for topology spread constraints": PodTopologySpread only (PreFilter, Filter); then, as
    // upstream, the victim terminates and a second attempt preempts nothing more.
    List<Node> nodes = List.of(node("node-a/zone1", VERY_LARGE), node("node-b/zone1", VERY_LARGE),
        node("node-x/zone2", VERY_LARGE));
    Pod preemptor = pod("p").label("foo", "").priority(HIGH).obj().toBuilder()
        .topologySpreadConstraint(TopologySpreadConstraint.of(1, "zone", UnsatisfiableConstraintAction.DoNotSchedule,
            exists("foo")))
        .topologySpreadConstraint(TopologySpreadConstraint.of(1, "hostname",
            UnsatisfiableConstraintAction.DoNotSchedule, exists("foo")))
        .build();
    List<Pod> pods = List.of(
        pod("p-a1").node("node-a").label("foo", "").priority(HIGH).obj(),
        pod("p-a2").node("node-a").label("foo", "").priority(HIGH).obj(),
        pod("p-b1").node("node-b").label("foo", "").priority(LOW).obj(),
        pod("p-x1").node("node-x").label("foo", "").priority(HIGH).obj(),
        pod("p-x2").node("node-x").label("foo", "").priority(HIGH).obj());

    PostFilterResult r = preempt(nodes, pods, preemptor, Status.Code.UNSCHEDULABLE);

    assertThat(r.nominatedNodeName()).isEqualTo("node-b");
    assertThat(r.victims()).containsExactly("default/p-b1");

    Pod nominated = preemptor.withStatus(preemptor.status().withNominatedNodeName("node-b"));
    List<Pod> terminating = List.of(pods.get(0), pods.get(1),
        pod("p-b1").node("node-b").label("foo", "").priority(LOW).terminating().disruptedByScheduler().obj(),
        pods.get(3), pods.get(4));
    PostFilterResult again = preempt(nodes, terminating, nominated, Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE);
    assertThat(again.victims()).isEmpty();
  }

  /** PreFilter, then PostFilter with every node given {@code code} (upstream's map of Unschedulable, or empty). */
  private static PostFilterResult preempt(List<Node> nodes, List<Pod> pods, Pod preemptor, Status.Code code) {
    TestSnapshot snapshot = new TestSnapshot(nodes, pods);
    PodTopologySpreadPlugin spread = new PodTopologySpreadPlugin(PodTopologySpreadArgs.defaults(), () -> snapshot);
    TestHandle handle = new TestHandle(snapshot, List.of(spread), List.of(spread), List.of(), Map.of());
    DefaultPreemptionPlugin plugin = (DefaultPreemptionPlugin) DefaultPreemptionPlugin.FACTORY.create(handle);
    TestCycleState state = new TestCycleState();
    PodInfo p = PodInfos.of(preemptor);
    assertThat(spread.preFilter(state, p, snapshot).status().isSuccess()).isTrue();
    Map<String, Status> statuses = new HashMap<>();
    if (code == Status.Code.UNSCHEDULABLE) {
      for (Node n : nodes) {
        statuses.put(n.metadata().name(), Status.unschedulable());
      }
    }
    return plugin.postFilter(state, p, snapshot,
        new NodeToStatus(statuses, Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE));
  }
}
