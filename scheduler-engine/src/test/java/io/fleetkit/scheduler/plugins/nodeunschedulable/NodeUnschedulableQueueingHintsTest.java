package io.fleetkit.scheduler.plugins.nodeunschedulable;

import static io.fleetkit.scheduler.plugins.helper.PluginFixtures.node;
import static io.fleetkit.scheduler.plugins.helper.PluginFixtures.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.framework.ClusterEvent;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.scheduling.Taint;
import io.fleetkit.api.scheduling.TaintEffect;
import io.fleetkit.api.scheduling.Toleration;
import io.fleetkit.scheduler.plugins.helper.ParkedPod;
import java.util.List;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The queueing hints of {@link NodeUnschedulablePlugin}, ported from kubernetes
 * {@code pkg/scheduler/framework/plugins/nodeunschedulable/node_unschedulable_test.go}: TestIsSchedulableAfterNodeChange
 * (7 of 7; upstream's {@code Queue} is {@code true}, {@code QueueSkip} {@code false}; the two wrong-object cases keep
 * their {@code Queue} answer, FleetKit's hints return no error beside it) and TestIsSchedulableAfterPodTolerationChange
 * (5 of 5, for {@link ClusterEvent#TARGET_POD_UPDATE_TOLERATION}; the two wrong-object cases likewise; pods told
 * apart by name where upstream gives them UIDs). Then the hints at work in the scheduler.
 */
final class NodeUnschedulableQueueingHintsTest {
  private static final NodeUnschedulablePlugin PLUGIN = NodeUnschedulablePlugin.INSTANCE;

  record Case(String name, @Nullable Object oldObj, @Nullable Object newObj, boolean queue) {
    @Override
    public String toString() {
      return name;
    }
  }

  private static Node cordoned(boolean unschedulable, Taint... taints) {
    return node("node-a").unschedulable(unschedulable).taints(List.of(taints)).build();
  }

  static Stream<Case> nodeCases() {
    Taint notReady = Taint.of("node.kubernetes.io/not-ready", "", TaintEffect.NoExecute);
    return Stream.of(
        new Case("error-wrong-new-object", null, "not-a-node", true),
        new Case("error-wrong-old-object", "not-a-node", cordoned(true), true),
        new Case("skip-queue-on-unschedulable-node-added", null, cordoned(true), false),
        new Case("queue-on-schedulable-node-added", null, cordoned(false), true),
        new Case("skip-unrelated-change-unschedulable-true", cordoned(true), cordoned(true, notReady), false),
        new Case("skip-unrelated-change-unschedulable-false", cordoned(false), cordoned(false, notReady), false),
        new Case("queue-on-unschedulable-field-change", cordoned(true), cordoned(false), true));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("nodeCases")
  void isSchedulableAfterNodeChange(Case c) {
    Pod p = pod("p").build();
    ClusterEvent event = c.oldObj() == null ? ClusterEvent.NODE_ADD : ClusterEvent.NODE_UPDATE;
    assertThat(PLUGIN.isSchedulableAfter(p, event, c.oldObj(), c.newObj())).isEqualTo(c.queue());
  }

  static Stream<Case> podTolerationCases() {
    Toleration unschedulable = Toleration.exists(NodeUnschedulablePlugin.TAINT_NODE_UNSCHEDULABLE,
        TaintEffect.NoSchedule);
    Toleration unrelated = Toleration.exists("unrelated-key", TaintEffect.NoSchedule);
    return Stream.of(
        new Case("error-wrong-new-object", null, "not-a-pod", true),
        new Case("error-wrong-old-object", "not-a-pod", pod("p").build(), true),
        new Case("skip-different-pod-update", pod("other").build(), pod("other").toleration(unschedulable).build(),
            false),
        new Case("queue-when-the-unsched-pod-gets-toleration", pod("p").build(),
            pod("p").toleration(unschedulable).build(), true),
        new Case("skip-when-the-unsched-pod-gets-unrelated-toleration", pod("p").build(),
            pod("p").toleration(unrelated).build(), false));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("podTolerationCases")
  void isSchedulableAfterPodTolerationChange(Case c) {
    assertThat(PLUGIN.isSchedulableAfter(pod("p").build(), ClusterEvent.TARGET_POD_UPDATE_TOLERATION, c.oldObj(),
        c.newObj())).isEqualTo(c.queue());
  }

  @Test
  void eventsToRegister_nodeAddAndUpdate_andThePodsOwnToleration() {
    assertThat(PLUGIN.eventsToRegister()).containsExactlyInAnyOrder(ClusterEvent.NODE_ADD, ClusterEvent.NODE_UPDATE,
        ClusterEvent.TARGET_POD_UPDATE_TOLERATION);
  }

  private static Node cordonedNode() {
    return node("node1").unschedulable(true).ready()
        .capacity(ResourceList.builder().put("cpu", "4").put("memory", "8Gi").put("pods", "110").build()).build();
  }

  @Test
  void scheduler_parkedPodIgnoresUnrelatedNodeUpdates_andIsRetriedWhenTheNodeIsUncordoned() {
    try (ParkedPod p = ParkedPod.park(List.of(cordonedNode()), pod("app").build(), NodeUnschedulablePlugin.NAME,
        NodeUnschedulablePlugin.ERR_REASON_UNSCHEDULABLE)) {
      int attempts = p.attempts();

      p.updateNode("node1", n -> n.annotation("heartbeat", "1").label("unrelated", "x"));

      assertThat(p.attempts()).as("an annotation or label change does not retry it").isEqualTo(attempts);

      p.updateNode("node1", n -> n.unschedulable(false));

      assertThat(p.boundNode()).isEqualTo("node1");
    }
  }

  @Test
  void scheduler_tolerationAddedToTheParkedPod_retriesAtOnce() {
    try (ParkedPod p = ParkedPod.park(List.of(cordonedNode()), pod("app").build(), NodeUnschedulablePlugin.NAME,
        NodeUnschedulablePlugin.ERR_REASON_UNSCHEDULABLE)) {
      Pod parked = p.pod();

      p.updatePod(parked.withTolerations(List.of(Toleration.exists(NodeUnschedulablePlugin.TAINT_NODE_UNSCHEDULABLE,
          TaintEffect.NoSchedule))));

      assertThat(p.boundNode()).isEqualTo("node1");
    }
  }

  @Test
  void scheduler_unrelatedTolerationOrLabelOnTheParkedPod_leavesItParked() {
    try (ParkedPod p = ParkedPod.park(List.of(cordonedNode()), pod("app").build(), NodeUnschedulablePlugin.NAME,
        NodeUnschedulablePlugin.ERR_REASON_UNSCHEDULABLE)) {
      int attempts = p.attempts();

      p.updatePod(p.pod().withTolerations(List.of(Toleration.exists("unrelated-key", TaintEffect.NoSchedule))));
      p.updatePod(p.pod().withMetadata(p.pod().metadata().withLabels(java.util.Map.of("tier", "batch"))));

      assertThat(p.attempts()).as("neither update lifts the rejection").isEqualTo(attempts);
    }
  }
}
