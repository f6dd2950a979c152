package io.fleetkit.scheduler.plugins.nodeaffinity;

import static io.fleetkit.scheduler.plugins.helper.PluginFixtures.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.framework.ClusterEvent;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.scheduling.Affinity;
import io.fleetkit.api.scheduling.NodeAffinity;
import io.fleetkit.api.scheduling.NodeSelector;
import io.fleetkit.api.scheduling.NodeSelectorOperator;
import io.fleetkit.api.scheduling.NodeSelectorRequirement;
import io.fleetkit.api.scheduling.NodeSelectorTerm;
import io.fleetkit.scheduler.plugins.helper.ParkedPod;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The queueing hints of {@link NodeAffinityPlugin}, ported from kubernetes
 * {@code pkg/scheduler/framework/plugins/nodeaffinity/node_affinity_test.go}: Test_isSchedulableAfterNodeChange (10 of
 * 10; upstream's {@code Queue} is {@code true}, {@code QueueSkip} {@code false}; the two wrong-object cases keep their
 * {@code Queue} answer, FleetKit's hints return no error beside it; upstream's unnamed nodes are called {@code node}).
 * Then FleetKit's one deviation (a node that starts matching the added affinity alone is retried) and the hint at
 * work in the scheduler.
 */
final class NodeAffinityQueueingHintsTest {
  /** {@code foo In [bar]}, upstream's {@code NodeAffinityIn("foo", []string{"bar"}, NodeSelectorTypeMatchExpressions)}. */
  private static final NodeAffinity FOO_IN_BAR = new NodeAffinity(new NodeSelector(List.of(new NodeSelectorTerm(
      List.of(new NodeSelectorRequirement("foo", NodeSelectorOperator.In, List.of("bar"))), List.of()))), List.of());
  private static final Pod POD_WITH_NODE_AFFINITY = pod("p").affinity(new Affinity(FOO_IN_BAR, null, null)).build();
  private static final NodeAffinityPlugin PLAIN = new NodeAffinityPlugin();
  private static final NodeAffinityPlugin ENFORCED = new NodeAffinityPlugin(FOO_IN_BAR);

  record Case(String name, NodeAffinityPlugin plugin, @Nullable Object oldObj, @Nullable Object newObj,
      boolean queue) {
    @Override
    public String toString() {
      return name;
    }
  }

  private static Node node(String... labels) {
    Node.Builder n = io.fleetkit.scheduler.plugins.helper.PluginFixtures.node("node");
    for (int i = 0; i < labels.length; i += 2) {
      n.label(labels[i], labels[i + 1]);
    }
    return n.build();
  }

  static Stream<Case> nodeCases() {
    // st.MakeNode().Capacity(nil): upstream's wrapper always sets pods 32
    Node withCapacity = node().toBuilder().capacity(ResourceList.builder().put("pods", "32").build()).build();
    return Stream.of(
        new Case("backoff-wrong-new-object", PLAIN, null, "not-a-node", true),
        new Case("backoff-wrong-old-object", PLAIN, "not-a-node", node(), true),
        new Case("skip-queue-on-add", PLAIN, null, node(), false),
        new Case("queue-on-add", PLAIN, null, node("foo", "bar"), true),
        new Case("skip-unrelated-changes", PLAIN, node(), withCapacity, false),
        new Case("skip-unrelated-changes-on-labels", PLAIN, node(), node("k", "v"), false),
        new Case("skip-labels-changes-on-node-from-suitable-to-unsuitable", PLAIN, node("foo", "bar"),
            node("k", "v"), false),
        new Case("queue-on-labels-change-makes-pod-schedulable", PLAIN, node(), node("foo", "bar"), true),
        new Case("skip-queue-on-add-scheduler-enforced-node-affinity", ENFORCED, null, node(), false),
        new Case("queue-on-add-scheduler-enforced-node-affinity", ENFORCED, null, node("foo", "bar"), true));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("nodeCases")
  void isSchedulableAfterNodeChange(Case c) {
    ClusterEvent event = c.oldObj() == null ? ClusterEvent.NODE_ADD : ClusterEvent.NODE_UPDATE;
    assertThat(c.plugin().isSchedulableAfter(POD_WITH_NODE_AFFINITY, event, c.oldObj(), c.newObj()))
        .isEqualTo(c.queue());
  }

  @Test
  void isSchedulableAfterNodeChange_nodeStartsMatchingTheAddedAffinityAlone_queues() {
    Pod plain = pod("p").build(); // matches every node: only the added affinity can have rejected it
    assertThat(ENFORCED.isSchedulableAfter(plain, ClusterEvent.NODE_UPDATE, node(), node("foo", "bar"))).isTrue();
    assertThat(ENFORCED.isSchedulableAfter(plain, ClusterEvent.NODE_UPDATE, node("foo", "bar"),
        node("foo", "bar", "k", "v"))).isFalse();
  }

  @Test
  void isSchedulableAfterNodeChange_nodeSelectorCounts() {
    Pod selecting = pod("p").nodeSelector(Map.of("zone", "b")).build();
    assertThat(PLAIN.isSchedulableAfter(selecting, ClusterEvent.NODE_UPDATE, node("zone", "a"), node("zone", "b")))
        .isTrue();
    assertThat(PLAIN.isSchedulableAfter(selecting, ClusterEvent.NODE_ADD, null, node("zone", "a"))).isFalse();
  }

  @Test
  void eventsToRegister_nodeAddAndUpdate() {
    assertThat(PLAIN.eventsToRegister()).containsExactlyInAnyOrder(ClusterEvent.NODE_ADD, ClusterEvent.NODE_UPDATE);
  }

  @Test
  void scheduler_parkedPodIgnoresUnrelatedNodeUpdates_andIsRetriedWhenTheNodeStartsMatching() {
    Node zoneA = io.fleetkit.scheduler.plugins.helper.PluginFixtures.node("node1").label("zone", "a").ready()
        .capacity(ResourceList.builder().put("cpu", "4").put("memory", "8Gi").put("pods", "110").build()).build();
    try (ParkedPod p = ParkedPod.park(List.of(zoneA), pod("app").nodeSelector(Map.of("zone", "b")).build(),
        NodeAffinityPlugin.NAME, NodeAffinityPlugin.ERR_REASON_POD)) {
      int attempts = p.attempts();

      p.updateNode("node1", n -> n.annotation("heartbeat", "1").label("unrelated", "x"));

      assertThat(p.attempts()).as("an annotation or unrelated label does not retry it").isEqualTo(attempts);

      p.updateNode("node1", n -> n.label("zone", "b"));

      assertThat(p.boundNode()).isEqualTo("node1");
    }
  }
}
