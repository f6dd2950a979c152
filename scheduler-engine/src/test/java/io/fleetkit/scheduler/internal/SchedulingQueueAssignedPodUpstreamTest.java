package io.fleetkit.scheduler.internal;

import static io.fleetkit.scheduler.internal.QueueHarness.INITIAL_BACKOFF;
import static io.fleetkit.scheduler.internal.QueueHarness.S;
import static io.fleetkit.scheduler.internal.QueueHarness.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.framework.ClusterEvent;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.labels.LabelSelectorOperator;
import io.fleetkit.api.labels.LabelSelectorRequirement;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.scheduling.Affinity;
import io.fleetkit.api.scheduling.PodAffinity;
import io.fleetkit.api.scheduling.PodAffinityTerm;
import io.fleetkit.scheduler.internal.QueueHarness.Hint;
import io.fleetkit.scheduler.internal.QueuedPod.Where;
import io.fleetkit.scheduler.plugins.interpodaffinity.InterPodAffinityPlugin;
import io.fleetkit.scheduler.plugins.noderesources.NodeResourcesFitPlugin;
import io.fleetkit.scheduler.plugins.podtopologyspread.PodTopologySpreadPlugin;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A bound pod appearing or changing re-queues the pods it may help: {@code TestPriorityQueue_AssignedPodAdded_} and
 * {@code TestPriorityQueue_AssignedPodUpdated} from {@code kubernetes/kubernetes
 * pkg/scheduler/backend/queue/scheduling_queue_test.go} (commit 0113538e59bdee8f21d1948e27360427cfb349f8). Upstream
 * gives every plugin a hint that always queues and tests its pre-filter of pods with cross-topology terms
 * ({@code getUnschedulablePodsWithCrossTopologyTerm}); FleetKit has no such pre-filter, so here the profile's real
 * InterPodAffinity, PodTopologySpread and NodeResourcesFit plugins answer with their own hints, and the bound pod
 * arrives through the event handlers as it would from the store.
 */
final class SchedulingQueueAssignedPodUpstreamTest {
  private final QueueHarness h = new QueueHarness();

  /** Upstream's {@code afp}: ns1, requiring pod affinity to pods with label {@code service} in the same region. */
  private static Pod afp() {
    PodAffinityTerm term = PodAffinityTerm.of(new LabelSelector(Map.of(),
        List.of(new LabelSelectorRequirement("service", LabelSelectorOperator.Exists, List.of()))), "region");
    return pod("afp", "ns1", 0).toBuilder().annotation("annot2", "val2")
        .affinity(new Affinity(null, new PodAffinity(List.of(term), List.of()), null)).build();
  }

  /** Upstream's {@code lbp}: bound to node1. */
  private static Pod lbp(String namespace, String labelKey, String labelValue) {
    return pod("lbp", namespace, 0).toBuilder().label(labelKey, labelValue).nodeName("node1").build();
  }

  /** Rejects {@code pending} by {@code plugin}, lets its backoff pass, then the bound pod {@code assigned} arrives. */
  private Where afterAssigned(Pod pending, String plugin, Pod... assigned) {
    h.realPlugin(InterPodAffinityPlugin.NAME).realPlugin(PodTopologySpreadPlugin.NAME)
        .hint("fakePlugin", ClusterEvent.ASSIGNED_POD_ADD, Hint.QUEUE)
        .hint("fakePlugin", ClusterEvent.ASSIGNED_POD_UPDATE, Hint.QUEUE).build();
    h.add(pending);
    h.requeue(h.pop(pending), plugin);
    assertThat(h.where(pending)).isEqualTo(Where.UNSCHEDULABLE);
    h.now += INITIAL_BACKOFF + S;
    for (Pod p : assigned) {
      h.handlers.putPod(p);
    }
    return h.where(pending);
  }

  /** TestPriorityQueue_AssignedPodAdded_, "Pod rejected by pod affinity is requeued with matching Pod's update". */
  @Test
  void added_affinityMatch_requeues() {
    assertThat(afterAssigned(afp(), InterPodAffinityPlugin.NAME, lbp("ns1", "service", "securityscan")))
        .isEqualTo(Where.ACTIVE);
  }

  /** TestPriorityQueue_AssignedPodAdded_, "Pod rejected by pod affinity isn't requeued with unrelated Pod's update". */
  @Test
  void added_affinityUnrelated_staysParked() {
    assertThat(afterAssigned(afp(), InterPodAffinityPlugin.NAME, lbp("unrelated", "unrelated", "unrelated")))
        .isEqualTo(Where.UNSCHEDULABLE);
  }

  /**
   * TestPriorityQueue_AssignedPodAdded_, "Pod rejected by pod topology spread isn't requeued with unrelated Pod's
   * update".
   */
  @Test
  void added_spreadUnrelated_staysParked() {
    assertThat(afterAssigned(afp(), PodTopologySpreadPlugin.NAME, lbp("unrelated", "unrelated", "unrelated")))
        .isEqualTo(Where.UNSCHEDULABLE);
  }

  /** TestPriorityQueue_AssignedPodUpdated, "Pod rejected by pod affinity is requeued with matching Pod's update". */
  @Test
  void updated_affinityLabelsStartMatching_requeues() {
    Pod before = pod("lbp", "ns1", 0).toBuilder().nodeName("node1").build();
    assertThat(afterAssigned(afp(), InterPodAffinityPlugin.NAME, before, lbp("ns1", "service", "securityscan")))
        .isEqualTo(Where.ACTIVE);
  }

  /** TestPriorityQueue_AssignedPodUpdated, "Pod rejected by pod affinity isn't requeued with unrelated Pod's update". */
  @Test
  void updated_affinityUnrelated_staysParked() {
    Pod before = pod("lbp", "unrelated", 0).toBuilder().nodeName("node1").build();
    assertThat(afterAssigned(afp(), InterPodAffinityPlugin.NAME, before,
        lbp("unrelated", "unrelated", "unrelated"))).isEqualTo(Where.UNSCHEDULABLE);
  }

  /**
   * TestPriorityQueue_AssignedPodUpdated, "Pod rejected by pod topology spread isn't requeued with unrelated Pod's
   * update".
   */
  @Test
  void updated_spreadUnrelated_staysParked() {
    Pod before = pod("lbp", "unrelated", 0).toBuilder().nodeName("node1").build();
    assertThat(afterAssigned(afp(), PodTopologySpreadPlugin.NAME, before,
        lbp("unrelated", "unrelated", "unrelated"))).isEqualTo(Where.UNSCHEDULABLE);
  }

  /**
   * TestPriorityQueue_AssignedPodUpdated, "Pod rejected by resource fit is requeued with assigned Pod's scale down":
   * the bound pod's requests shrink in place.
   */
  @Test
  void updated_fitScaleDown_requeues() {
    h.realPlugin(NodeResourcesFitPlugin.NAME);
    Pod rp = pod("rp", "ns1", 0).toBuilder().annotation("annot2", "val2").build();
    Pod big = Pod.builder().name("lbp").namespace("ns2").nodeName("node1")
        .container("app", "pause", ResourceList.ofCpuMemory(2000, 1 << 20)).build();
    Pod small = Pod.builder().name("lbp").namespace("ns2").nodeName("node1")
        .container("app", "pause", ResourceList.ofCpuMemory(1000, 1 << 20)).build();
    assertThat(afterAssigned(rp, NodeResourcesFitPlugin.NAME, big, small)).isEqualTo(Where.ACTIVE);
  }
}
