package io.fleetkit.scheduler.plugins.podtopologyspread;

import static io.fleetkit.scheduler.plugins.podtopologyspread.SpreadFixtures.BAR;
import static io.fleetkit.scheduler.plugins.podtopologyspread.SpreadFixtures.FOO;
import static io.fleetkit.scheduler.plugins.podtopologyspread.SpreadFixtures.HARD;
import static io.fleetkit.scheduler.plugins.podtopologyspread.SpreadFixtures.HONOR;
import static io.fleetkit.scheduler.plugins.podtopologyspread.SpreadFixtures.IGNORE;
import static io.fleetkit.scheduler.plugins.podtopologyspread.SpreadFixtures.node;
import static io.fleetkit.scheduler.plugins.podtopologyspread.SpreadFixtures.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.store.DeleteOptions;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.framework.ClusterEvent;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.scheduling.NodeInclusionPolicy;
import io.fleetkit.api.scheduling.Taint;
import io.fleetkit.api.scheduling.TaintEffect;
import io.fleetkit.scheduler.plugins.helper.ParkedPod;
import java.util.List;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The queueing hints of {@link PodTopologySpreadPlugin} ({@link SpreadQueueingHints}), ported from kubernetes
 * {@code pkg/scheduler/framework/plugins/podtopologyspread/plugin_test.go}: Test_isSchedulableAfterNodeChange (11 of
 * 13) and Test_isSchedulableAfterPodChange (20 of 20; upstream's {@code Queue} is {@code true}, {@code QueueSkip}
 * {@code false}). Not ported: "delete node with non-related labels" and "delete node with related labels" (the
 * engine sends no event when a node goes away). Upstream's nameless pods get names ({@code p2}); "the target pod" is
 * recognised by namespace and name (upstream compares UIDs); the cases about the pending pod's own update are asked
 * with the event the queue sends for it ({@link ClusterEvent#TARGET_POD_UPDATE_LABEL} or
 * {@link ClusterEvent#TARGET_POD_UPDATE_TOLERATION}). Then the hint at work in the scheduler.
 */
final class PodTopologySpreadQueueingHintsTest {
  private static final PodTopologySpreadPlugin PLUGIN = new PodTopologySpreadPlugin(PodTopologySpreadArgs.defaults(),
      () -> {
        throw new AssertionError("no snapshot needed");
      });

  record Case(String name, Pod pod, @Nullable Object oldObj, @Nullable Object newObj, boolean queue) {
    @Override
    public String toString() {
      return name;
    }
  }

  private static Pod zone() {
    return pod("p").spread(1, "zone", HARD, FOO).obj();
  }

  private static Pod zoneAndNode() {
    return pod("p").spread(1, "zone", HARD, FOO).spread(1, "node", HARD, FOO).obj();
  }

  private static Taint taint(String key) {
    return Taint.of(key, "bbb", TaintEffect.NoSchedule);
  }

  static Stream<Case> nodeCases() {
    return Stream.of(
        new Case("node updates label which matches topologyKey", zone(), node("node-a").label("zone", "zone1").obj(),
            node("node-a").label("zone", "zone2").obj(), true),
        new Case("node that doesn't match topologySpreadConstraints updates non-related label", zone(),
            node("node-a").label("foo", "bar1").obj(), node("node-a").label("foo", "bar2").obj(), false),
        new Case("node that match topologySpreadConstraints adds non-related label", zoneAndNode(),
            node("node-a").label("zone", "zone1").label("node", "node1").label("foo", "bar").obj(),
            node("node-a").label("zone", "zone1").label("node", "node1").obj(), false),
        new Case("create node with non-related labels", zone(), null, node("node-a").label("foo", "bar").obj(), false),
        new Case("create node with related labels", zone(), null, node("node-a").label("zone", "zone1").obj(), true),
        new Case("add node with related labels that only match one of topologySpreadConstraints", zoneAndNode(), null,
            node("node-a").label("zone", "zone1").obj(), false),
        new Case("add node with related labels that match all topologySpreadConstraints", zoneAndNode(), null,
            node("node-a").label("zone", "zone1").label("node", "node1").obj(), true),
        new Case("update node with related labels that only match one of topologySpreadConstraints", zoneAndNode(),
            node("node-a").label("zone", "zone1").obj(), node("node-a").label("zone", "zone1").obj(), false),
        new Case("update node with related labels that match all topologySpreadConstraints", zoneAndNode(),
            node("node-a").label("zone", "zone1").label("node", "node1").obj(),
            node("node-a").label("zone", "zone1").label("node", "node2").obj(), true),
        new Case("update node with different taints that match all topologySpreadConstraints", zoneAndNode(),
            node("node-a").label("zone", "zone1").label("node", "node1").taints(List.of(taint("aaa"))).obj(),
            node("node-a").label("zone", "zone1").label("node", "node1").taints(List.of(taint("ccc"))).obj(), true),
        new Case("update node with different taints that only match one of topologySpreadConstraints", zoneAndNode(),
            node("node-a").label("node", "node1").taints(List.of(taint("aaa"))).obj(),
            node("node-a").label("node", "node1").taints(List.of(taint("ccc"))).obj(), false));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("nodeCases")
  void isSchedulableAfterNodeChange(Case c) {
    ClusterEvent event = c.oldObj() == null ? ClusterEvent.NODE_ADD : ClusterEvent.NODE_UPDATE;
    assertThat(PLUGIN.isSchedulableAfter(c.pod(), event, c.oldObj(), c.newObj())).isEqualTo(c.queue());
  }

  /** The pending pod of the pod cases: label foo, constraints on zone (and node) selecting foo (and bar). */
  private static Pod target() {
    return pod("p").label("foo", "").spread(1, "zone", HARD, FOO).obj();
  }

  private static Pod targetTwo(@Nullable NodeInclusionPolicy taints) {
    return pod("p").label("foo", "").spread(1, "zone", HARD, FOO, null, null, taints, null)
        .spread(1, "node", HARD, BAR).obj();
  }

  private static SpreadFixtures.PodW p2() {
    return pod("p2");
  }

  static Stream<Case> podCases() {
    return Stream.of(
        new Case("add pod with labels match topologySpreadConstraints selector", target(), null,
            p2().node("fake-node").label("foo", "").obj(), true),
        new Case("add un-scheduled pod", target(), null, p2().label("foo", "").obj(), false),
        new Case("update un-scheduled pod", target(), p2().label("bar", "").obj(), p2().label("foo", "").obj(), false),
        new Case("delete un-scheduled pod", target(), p2().label("foo", "").obj(), null, false),
        new Case("add pod with different namespace", target(), null,
            p2().node("fake-node").ns("fake-namespace").label("foo", "").obj(), false),
        new Case("add pod with labels don't match topologySpreadConstraints selector", target(), null,
            p2().node("fake-node").label("bar", "").obj(), false),
        new Case("delete pod with labels that match topologySpreadConstraints selector", target(),
            p2().node("fake-node").label("foo", "").obj(), null, true),
        new Case("delete pod with labels that don't match topologySpreadConstraints selector", target(),
            p2().node("fake-node").label("bar", "").obj(), null, false),
        new Case("update pod's non-related label", target(),
            p2().node("fake-node").label("foo", "").label("bar", "bar1").obj(),
            p2().node("fake-node").label("foo", "").label("bar", "bar2").obj(), false),
        new Case("add pod's label that matches topologySpreadConstraints selector", target(),
            p2().node("fake-node").obj(), p2().node("fake-node").label("foo", "").obj(), true),
        new Case("delete pod label that matches topologySpreadConstraints selector", target(),
            p2().node("fake-node").label("foo", "").obj(), p2().node("fake-node").obj(), true),
        new Case("change pod's label that matches topologySpreadConstraints selector", target(),
            p2().node("fake-node").label("foo", "foo1").obj(), p2().node("fake-node").label("foo", "foo2").obj(),
            false),
        new Case("change pod's label that doesn't match topologySpreadConstraints selector", target(),
            p2().node("fake-node").label("foo", "").label("bar", "bar1").obj(),
            p2().node("fake-node").label("foo", "").label("bar", "bar2").obj(), false),
        new Case("add pod's label that matches topologySpreadConstraints selector with multi"
            + " topologySpreadConstraints", targetTwo(null), p2().node("fake-node").label("foo", "").obj(),
            p2().node("fake-node").label("foo", "").label("bar", "bar2").obj(), true),
        new Case("change pod's label that doesn't match topologySpreadConstraints selector with multi"
            + " topologySpreadConstraints", targetTwo(null), p2().node("fake-node").label("foo", "").obj(),
            p2().node("fake-node").label("foo", "").label("baz", "").obj(), false),
        new Case("change pod's label that match topologySpreadConstraints selector with multi"
            + " topologySpreadConstraints", targetTwo(null),
            p2().node("fake-node").label("foo", "").label("bar", "").obj(),
            p2().node("fake-node").label("foo", "").label("bar", "bar2").obj(), false),
        new Case("the unschedulable Pod has topologySpreadConstraint with NodeTaintsPolicy:Honor and has got a new"
            + " toleration", targetTwo(HONOR), pod("p").label("foo", "").obj(),
            pod("p").label("foo", "").toleration("node.kubernetes.io/unschedulable").obj(), true),
        new Case("the unschedulable Pod has topologySpreadConstraint without NodeTaintsPolicy:Honor and has got a new"
            + " toleration", targetTwo(IGNORE), pod("p").label("foo", "").obj(),
            pod("p").label("foo", "").toleration("node.kubernetes.io/unschedulable").obj(), false),
        new Case("the unschedulable Pod has topologySpreadConstraint and has got a new label matching the selector of"
            + " the constraint", targetTwo(IGNORE), pod("p").obj(), pod("p").label("foo", "").obj(), true),
        new Case("the unschedulable Pod has topologySpreadConstraint and has got a new unrelated label",
            targetTwo(IGNORE), pod("p").obj(), pod("p").label("unrelated", "").obj(), false));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("podCases")
  void isSchedulableAfterPodChange(Case c) {
    // the pending pod's own update is a TARGET_POD event (its label or toleration), any other pod's an assigned one
    boolean own = c.newObj() instanceof Pod n && n.metadata().key().equals(c.pod().metadata().key());
    ClusterEvent event = own ? (((Pod) c.oldObj()).metadata().labels().equals(((Pod) c.newObj()).metadata().labels())
        ? ClusterEvent.TARGET_POD_UPDATE_TOLERATION : ClusterEvent.TARGET_POD_UPDATE_LABEL)
        : c.oldObj() == null ? ClusterEvent.ASSIGNED_POD_ADD
        : c.newObj() == null ? ClusterEvent.ASSIGNED_POD_DELETE : ClusterEvent.ASSIGNED_POD_UPDATE;
    assertThat(PLUGIN.isSchedulableAfter(c.pod(), event, c.oldObj(), c.newObj())).isEqualTo(c.queue());
  }

  @Test
  void eventsToRegister_assignedPodsAndNodeAddAndUpdate() {
    assertThat(PLUGIN.eventsToRegister()).containsExactlyInAnyOrder(ClusterEvent.ASSIGNED_POD_ADD,
        ClusterEvent.ASSIGNED_POD_UPDATE, ClusterEvent.ASSIGNED_POD_DELETE, ClusterEvent.NODE_ADD,
        ClusterEvent.NODE_UPDATE, ClusterEvent.TARGET_POD_UPDATE_LABEL, ClusterEvent.TARGET_POD_UPDATE_TOLERATION);
  }

  @Test
  void scheduler_parkedPodIgnoresUnrelatedChanges_andIsRetriedWhenAMatchingPodGoes() {
    ResourceList capacity = ResourceList.builder().put("cpu", "4").put("memory", "8Gi").put("pods", "110").build();
    Node node1 = Node.builder().name("node1").label("zone", "a").ready().capacity(capacity).build();
    // minDomains 2 with one zone: the global minimum is 0, so zone a's "foo" pod leaves no room (1 + 1 - 0 > 1)
    try (ParkedPod p = ParkedPod.park(List.of(node1),
        List.of(pod("a1").node("node1").label("foo", "").obj(), pod("other").node("node1").label("app", "x").obj()),
        pod("app").label("foo", "").spread(1, "zone", HARD, FOO, 2, null, null, null).obj(),
        PodTopologySpreadPlugin.NAME, PodTopologySpreadPlugin.ERR_REASON_CONSTRAINTS_NOT_MATCH)) {
      int attempts = p.attempts();

      p.updateNode("node1", n -> n.annotation("heartbeat", "1").label("unrelated", "x"));
      p.updatePod(p.store().require(Pod.class, "default", "other").toBuilder().label("app", "y").build());
      p.store().delete(Pod.class, "default", "other", DeleteOptions.gracePeriod(0));
      p.run();

      assertThat(p.attempts()).as("node annotations and unrelated labels, pods its selector ignores do not retry it")
          .isEqualTo(attempts);

      p.store().delete(Pod.class, "default", "a1", DeleteOptions.gracePeriod(0));
      p.run();

      assertThat(p.boundNode()).isEqualTo("node1");
    }
  }
}
