package io.fleetkit.scheduler.plugins.tainttoleration;

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
 * The queueing hints of {@link TaintTolerationPlugin}, ported from kubernetes
 * {@code pkg/scheduler/framework/plugins/tainttoleration/taint_toleration_test.go}: TestIsSchedulableAfterNodeChange
 * (6 of 6; upstream's {@code Queue} is {@code true}, {@code QueueSkip} {@code false}; the two wrong-object cases keep
 * their {@code Queue} answer, FleetKit's hints return no error beside it, and get a pod where upstream passes none).
 * The pod's own toleration ({@link ClusterEvent#TARGET_POD_UPDATE_TOLERATION}):
 * Test_isSchedulableAfterTargetPodTolerationChange 1/1 (commit 04c0d74f), and the 5 cases of the earlier Test_isSchedulableAfterPodChange (the revision whose hint,
 * isSchedulableAfterPodChange, also skipped other pods and updates that leave the tolerations as they were; the
 * wrong-object cases keep their Queue answer; pods told apart by namespace and name, not UID). Node names are
 * lower-cased ({@code nodeA} → {@code node-a}); "skip-unrelated-change" adds its second {@code dedicated} taint with
 * effect NoExecute, since FleetKit, like the API server, refuses two taints with the same key and effect (the pod
 * tolerates neither). Then the hint at work in the scheduler.
 */
final class TaintTolerationQueueingHintsTest {
  private static final TaintTolerationPlugin PLUGIN = new TaintTolerationPlugin();

  record Case(String name, Pod pod, @Nullable Object oldObj, @Nullable Object newObj, boolean queue) {
    @Override
    public String toString() {
      return name;
    }
  }

  /** Taints {@code dedicated=<value>}, NoSchedule then (a second one) NoExecute. */
  private static Node nodeWithTaints(String... values) {
    Node.Builder n = node("node-a");
    for (int i = 0; i < values.length; i++) {
      n.taint(Taint.of("dedicated", values[i], i == 0 ? TaintEffect.NoSchedule : TaintEffect.NoExecute));
    }
    return n.build();
  }

  private static Pod podTolerating(String value) {
    return pod("pod1").toleration(Toleration.equal("dedicated", value, TaintEffect.NoSchedule)).build();
  }

  static Stream<Case> nodeCases() {
    Pod user2 = podTolerating("user2");
    return Stream.of(
        new Case("backoff-wrong-new-object", pod("pod1").build(), null, "not-a-node", true),
        new Case("backoff-wrong-old-object", pod("pod1").build(), "not-a-node", nodeWithTaints("user1"), true),
        new Case("skip-queue-on-untoleratedtaint-node-added", user2, null, nodeWithTaints("user1"), false),
        new Case("queue-on-toleratedtaint-node-added", user2, null, nodeWithTaints("user2"), true),
        new Case("skip-unrelated-change", user2, nodeWithTaints("user1"), nodeWithTaints("user1", "user3"), false),
        new Case("queue-on-taint-change", user2, nodeWithTaints("user1"), nodeWithTaints("user2"), true));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("nodeCases")
  void isSchedulableAfterNodeChange(Case c) {
    ClusterEvent event = c.oldObj() == null ? ClusterEvent.NODE_ADD : ClusterEvent.NODE_UPDATE;
    assertThat(PLUGIN.isSchedulableAfter(c.pod(), event, c.oldObj(), c.newObj())).isEqualTo(c.queue());
  }

  @Test
  void isSchedulableAfterNodeChange_preferNoScheduleTaintsDoNotCount() {
    Node prefer = node("node-a").taint(Taint.of("dedicated", "user1", TaintEffect.PreferNoSchedule)).build();
    assertThat(PLUGIN.isSchedulableAfter(podTolerating("user2"), ClusterEvent.NODE_UPDATE, nodeWithTaints("user1"),
        prefer)).isTrue();
  }

  private static Pod pod1(String namespace, String name) {
    return Pod.builder().namespace(namespace).name(name).container("c", "pause", ResourceList.EMPTY).build();
  }

  static Stream<Case> podCases() {
    Toleration foo = Toleration.exists("foo", TaintEffect.NoSchedule);
    Pod pod1 = pod1("ns-1", "pod-1");
    return Stream.of(
        // Test_isSchedulableAfterTargetPodTolerationChange
        new Case("queue-on-toleration-added (target-pod test)", pod1, pod1, pod1.toBuilder().toleration(foo).build(),
            true),
        // the earlier Test_isSchedulableAfterPodChange
        new Case("backoff-wrong-new-object", pod1, null, "not-a-pod", true),
        new Case("backoff-wrong-old-object", pod1, "not-a-pod", pod1, true),
        new Case("skip-updates-other-pod", pod1, pod1("ns-1", "pod-2"),
            pod1("ns-1", "pod-2").toBuilder().toleration(foo).build(), false),
        new Case("skip-updates-not-toleration", pod1, pod1, pod1.toBuilder().label("foo", "bar").build(), false),
        new Case("queue-on-toleration-added", pod1, pod1, pod1.toBuilder().toleration(foo).build(), true));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("podCases")
  void isSchedulableAfterTargetPodTolerationChange(Case c) {
    assertThat(PLUGIN.isSchedulableAfter(c.pod(), ClusterEvent.TARGET_POD_UPDATE_TOLERATION, c.oldObj(), c.newObj()))
        .isEqualTo(c.queue());
  }

  @Test
  void eventsToRegister_nodeAddAndUpdate_andThePodsOwnToleration() {
    assertThat(PLUGIN.eventsToRegister()).containsExactlyInAnyOrder(ClusterEvent.NODE_ADD, ClusterEvent.NODE_UPDATE,
        ClusterEvent.TARGET_POD_UPDATE_TOLERATION);
  }

  private static Node taintedNode(String value) {
    return node("node1").ready().taint(Taint.of("dedicated", value, TaintEffect.NoSchedule))
        .capacity(ResourceList.builder().put("cpu", "4").put("memory", "8Gi").put("pods", "110").build()).build();
  }

  private static ParkedPod parked() {
    return ParkedPod.park(List.of(taintedNode("user1")), podTolerating("user2"), TaintTolerationPlugin.NAME,
        "untolerated taint {dedicated: user1}");
  }

  @Test
  void scheduler_parkedPodIgnoresUnrelatedNodeUpdates_andIsRetriedWhenTheTaintBecomesTolerated() {
    try (ParkedPod p = parked()) {
      int attempts = p.attempts();

      p.updateNode("node1", n -> n.annotation("heartbeat", "1").label("unrelated", "x"));
      p.updateNode("node1", n -> n.taint(Taint.of("dedicated", "user3", TaintEffect.NoExecute)));

      assertThat(p.attempts()).as("a label, an annotation or another untolerated taint does not retry it")
          .isEqualTo(attempts);

      p.updateNode("node1", n -> n.taints(List.of(Taint.of("dedicated", "user2", TaintEffect.NoSchedule))));

      assertThat(p.boundNode()).isEqualTo("node1");
    }
  }

  /** The scenario of upstream's integration case "Pod updated with toleration requeued to activeQ". */
  @Test
  void scheduler_tolerationAddedToTheParkedPod_retriesAtOnce() {
    try (ParkedPod p = parked()) {
      Pod parked = p.pod();

      List<Toleration> more = new java.util.ArrayList<>(parked.spec().tolerations()); // only additions may be made
      more.add(Toleration.exists("dedicated", TaintEffect.NoSchedule));
      p.updatePod(parked.withTolerations(more));

      assertThat(p.boundNode()).isEqualTo("node1");
    }
  }

  /**
   * The scenario of upstream's integration case "Updating pod label doesn't retry scheduling if the Pod was rejected
   * by TaintToleration" ({@code test/integration/scheduler/queueing/queue.go}).
   */
  @Test
  void scheduler_labelOrAnnotationOnTheParkedPod_leavesItParked() {
    try (ParkedPod p = parked()) {
      int attempts = p.attempts();

      p.updatePod(p.pod().withMetadata(p.pod().metadata().toBuilder().label("tier", "batch")
          .annotation("note", "x").build()));

      assertThat(p.attempts()).as("no plugin that rejected it registered such an update").isEqualTo(attempts);
    }
  }
}
