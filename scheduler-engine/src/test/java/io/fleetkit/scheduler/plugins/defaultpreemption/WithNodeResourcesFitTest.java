package io.fleetkit.scheduler.plugins.defaultpreemption;

import static io.fleetkit.scheduler.plugins.defaultpreemption.Fixtures.HIGH;
import static io.fleetkit.scheduler.plugins.defaultpreemption.Fixtures.LARGE;
import static io.fleetkit.scheduler.plugins.defaultpreemption.Fixtures.LOW;
import static io.fleetkit.scheduler.plugins.defaultpreemption.Fixtures.MEDIUM;
import static io.fleetkit.scheduler.plugins.defaultpreemption.Fixtures.MID;
import static io.fleetkit.scheduler.plugins.defaultpreemption.Fixtures.NODE_RES;
import static io.fleetkit.scheduler.plugins.defaultpreemption.Fixtures.ONE_POD;
import static io.fleetkit.scheduler.plugins.defaultpreemption.Fixtures.SMALL;
import static io.fleetkit.scheduler.plugins.defaultpreemption.Fixtures.VERY_LARGE;
import static io.fleetkit.scheduler.plugins.defaultpreemption.Fixtures.node;
import static io.fleetkit.scheduler.plugins.defaultpreemption.Fixtures.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.framework.NodeToStatus;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.PodInfos;
import io.fleetkit.api.framework.PostFilterResult;
import io.fleetkit.api.framework.Status;
import io.fleetkit.scheduler.plugins.noderesources.NodeResourcesFitPlugin;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Some of the ported TestPostFilter / TestPreempt cases again, with the real NodeResourcesFit plugin (PreFilter then
 * Filter) instead of the test fit filter, as upstream registers it.
 */
final class WithNodeResourcesFitTest {
  private static PostFilterResult postFilter(Pod preemptor, List<Pod> pods, List<Node> nodes, String... unschedulable) {
    TestSnapshot snapshot = new TestSnapshot(nodes, pods);
    NodeResourcesFitPlugin fit = new NodeResourcesFitPlugin();
    TestHandle handle = new TestHandle(snapshot, List.of(fit), List.of(fit), List.of(), Map.of());
    DefaultPreemptionPlugin plugin = (DefaultPreemptionPlugin) DefaultPreemptionPlugin.FACTORY.create(handle);
    TestCycleState state = new TestCycleState();
    PodInfo p = PodInfos.of(preemptor);
    assertThat(fit.preFilter(state, p, snapshot).status().isSuccess()).isTrue();
    Map<String, Status> statuses = new java.util.HashMap<>();
    for (String n : unschedulable) {
      statuses.put(n, Status.unschedulable());
    }
    return plugin.postFilter(state, p, snapshot, new NodeToStatus(statuses, Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE));
  }

  @Test
  void postFilter_higherPriority_canBeMadeSchedulable() {
    PostFilterResult r = postFilter(pod("p").priority(HIGH).obj(), List.of(pod("p1").node("node1").obj()),
        List.of(node("node1", ONE_POD)), "node1");
    assertThat(r.nominatedNodeName()).isEqualTo("node1");
    assertThat(r.victims()).containsExactly("default/p1");
  }

  @Test
  void postFilter_notEnoughResource_reportsInsufficientCpu() {
    PostFilterResult r = postFilter(pod("p").priority(HIGH).req(LARGE).obj(),
        List.of(pod("p1").node("node1").obj(), pod("p2").node("node2").obj()),
        List.of(node("node1", NODE_RES), node("node2", NODE_RES)), "node1", "node2");
    assertThat(r.status().reasons()).containsExactly("preemption: 0/2 nodes are available: 2 Insufficient cpu.");
    assertThat(r.nominatedNodeName()).isEmpty();
  }

  @Test
  void postFilter_mixedReasons() {
    PostFilterResult r = postFilter(pod("p").priority(HIGH).req(LARGE).obj(),
        List.of(pod("p1").node("node1").priority(HIGH).obj(), pod("p2").node("node2").obj(),
            pod("p3").node("node3").priority(HIGH).obj()),
        List.of(node("node1", ONE_POD), node("node2", NODE_RES), node("node3", ONE_POD)), "node1", "node2", "node3");
    assertThat(r.status().reasons()).containsExactly(
        "preemption: 0/3 nodes are available: 1 Insufficient cpu, 2 No preemption victims found for incoming pod.");
  }

  @Test
  void preempt_basic_andMixedPriorities() {
    PostFilterResult r = postFilter(pod("p").priority(HIGH).req(VERY_LARGE).obj(),
        List.of(pod("p1.1").node("node1").priority(LOW).req(SMALL).obj(),
            pod("p1.2").node("node1").priority(LOW).req(SMALL).obj(),
            pod("p2.1").node("node2").priority(HIGH).req(LARGE).obj(),
            pod("p3.1").node("node3").priority(MID).req(MEDIUM).obj()),
        List.of(node("node1", VERY_LARGE), node("node2", VERY_LARGE), node("node3", VERY_LARGE)),
        "node1", "node2", "node3");
    assertThat(r.nominatedNodeName()).isEqualTo("node1");
    assertThat(r.victims()).containsExactly("default/p1.1", "default/p1.2");

    PostFilterResult mixed = postFilter(pod("p").priority(HIGH).req(LARGE).obj(),
        List.of(pod("p1.1").node("node1").priority(MID).req(SMALL).obj(),
            pod("p1.2").node("node1").priority(LOW).req(SMALL).obj(),
            pod("p1.3").node("node1").priority(MID).req(MEDIUM).obj(),
            pod("p1.4").node("node1").priority(HIGH).req(SMALL).obj(),
            pod("p2").node("node2").priority(HIGH).req(LARGE).obj()),
        List.of(node("node1", VERY_LARGE), node("node2", VERY_LARGE)), "node1", "node2");
    assertThat(mixed.nominatedNodeName()).isEqualTo("node1");
    assertThat(mixed.victims()).containsExactly("default/p1.3", "default/p1.2");
  }
}
