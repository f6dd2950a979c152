package io.fleetkit.scheduler.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodCondition;
import io.fleetkit.api.framework.ClusterEvent;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.scheduler.internal.QueuedPod.Where;
import org.junit.jupiter.api.Test;

/**
 * An update of a queued pod that changes only what kube's {@code isPodUpdated} strips (its status, resourceVersion,
 * generation, finalizers), such as the scheduler's own {@code PodScheduled=False} write after a failed attempt, leaves
 * the pod where it is, with its new object: parked stays parked, gated stays gated, and a pod updated so while in
 * flight is still parked by its rejection (kube records the event in flight, but no plugin's hint queues the pod for
 * it). Any other change behaves as before.
 */
final class SchedulingQueueStatusUpdateTest {
  private final QueueHarness h = new QueueHarness();

  private static Pod failed(Pod pod, String resourceVersion) {
    return pod.toBuilder().status(pod.status().withCondition(PodCondition.of(PodCondition.POD_SCHEDULED,
        ConditionStatus.False, PodCondition.REASON_UNSCHEDULABLE, "0/1 nodes are available: 1 fooPlugin.", null)))
        .build().withMetadata(pod.metadata().withResourceVersion(resourceVersion));
  }

  @Test
  void parkedPod_statusOnlyUpdate_staysParkedWithTheNewObject() {
    h.hint("fooPlugin", ClusterEvent.NODE_ADD, QueueHarness.Hint.QUEUE).build();
    Pod p = QueueHarness.hpp();
    h.add(p);
    h.requeue(h.pop(p), "fooPlugin");
    assertThat(h.where(p)).isEqualTo(Where.UNSCHEDULABLE);

    Pod written = failed(p, "2");
    h.update(written);
    assertThat(h.where(p)).isEqualTo(Where.UNSCHEDULABLE);
    assertThat(h.q.get("ns1/hpp").info.pod()).isEqualTo(written);

    h.update(written.toBuilder().annotation("foo", "test").build());
    assertThat(h.where(p)).isIn(Where.ACTIVE, Where.BACKOFF);
  }

  @Test
  void inFlightPod_statusOnlyUpdate_isStillParkedByItsRejection() {
    h.hint("fooPlugin", ClusterEvent.NODE_ADD, QueueHarness.Hint.QUEUE).build();
    Pod p = QueueHarness.hpp();
    h.add(p);
    QueuedPod popped = h.pop(p);
    h.update(failed(p, "2"));
    h.requeue(popped, "fooPlugin");
    assertThat(h.where(p)).isEqualTo(Where.UNSCHEDULABLE);

    Pod q = QueueHarness.pod("other", "ns1", 0);
    h.add(q);
    QueuedPod poppedQ = h.pop(q);
    h.update(q.toBuilder().label("tier", "batch").build());
    h.requeue(poppedQ, "fooPlugin");
    assertThat(h.where(q)).as("a real change in flight backs off").isEqualTo(Where.BACKOFF);
  }

  @Test
  void gatedPod_statusOnlyUpdate_staysGated() {
    h.preEnqueue("gate", "allowed").build();
    Pod p = QueueHarness.hpp();
    h.add(p);
    assertThat(h.where(p)).isEqualTo(Where.GATED);
    h.update(failed(p, "2"));
    assertThat(h.where(p)).isEqualTo(Where.GATED);
    h.update(p.toBuilder().label("allowed", "").build());
    assertThat(h.where(p)).isEqualTo(Where.ACTIVE);
  }
}
