package io.fleetkit.scheduler.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodCondition;
import io.fleetkit.api.framework.ClusterEvent;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.scheduler.internal.QueuedPod.Where;
import org.junit.jupiter.api.Test;

/**
 * An update of a queued pod that changes only its status, resourceVersion, generation or finalizers, such as the
 * scheduler's own {@code PodScheduled=False} write after a failed attempt, is at most the general
 * {@link ClusterEvent#TARGET_POD_UPDATE}: a pod whose rejecting plugin registered only specific events stays where it
 * is, with its new object (parked stays parked, and a pod updated so while in flight is still parked by its
 * rejection: kube records the event in flight, but no plugin's hint queues the pod for it); a gated pod whose gating
 * plugin registers everything is checked again and stays gated. An annotation is no specific event either (kube's
 * queue re-queues on any such change only with queueing hints off, through {@code isPodUpdated});
 * a label change is one the plugin registered, and moves the pod.
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
    h.hint("fooPlugin", ClusterEvent.NODE_ADD, QueueHarness.Hint.QUEUE)
        .hint("fooPlugin", ClusterEvent.TARGET_POD_UPDATE_LABEL, QueueHarness.Hint.QUEUE).build();
    Pod p = QueueHarness.hpp();
    h.add(p);
    h.requeue(h.pop(p), "fooPlugin");
    assertThat(h.where(p)).isEqualTo(Where.UNSCHEDULABLE);

    Pod written = failed(p, "2");
    h.update(written);
    assertThat(h.where(p)).isEqualTo(Where.UNSCHEDULABLE);
    assertThat(h.q.get("ns1/hpp").info.pod()).isEqualTo(written);

    Pod annotated = written.toBuilder().annotation("foo", "test").build();
    h.update(annotated);
    assertThat(h.where(p)).as("an annotation, which fooPlugin did not register").isEqualTo(Where.UNSCHEDULABLE);
    assertThat(h.q.get("ns1/hpp").info.pod()).isEqualTo(annotated);

    h.update(annotated.toBuilder().label("tier", "batch").build());
    assertThat(h.where(p)).isIn(Where.ACTIVE, Where.BACKOFF);
  }

  @Test
  void inFlightPod_statusOnlyUpdate_isStillParkedByItsRejection() {
    h.hint("fooPlugin", ClusterEvent.NODE_ADD, QueueHarness.Hint.QUEUE)
        .hint("fooPlugin", ClusterEvent.TARGET_POD_UPDATE_LABEL, QueueHarness.Hint.QUEUE).build();
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
    assertThat(h.where(q)).as("a change in flight its rejector registered backs off").isEqualTo(Where.BACKOFF);
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
