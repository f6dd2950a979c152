package io.fleetkit.scheduler.internal;

import static io.fleetkit.scheduler.internal.QueueHarness.S;
import static io.fleetkit.scheduler.internal.QueueHarness.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.framework.ClusterEvent;
import io.fleetkit.scheduler.internal.QueueHarness.Hint;
import io.fleetkit.scheduler.internal.QueuedPod.Where;
import io.fleetkit.scheduler.plugins.schedulinggates.SchedulingGatesPlugin;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * How the queue answers an update of a waiting pod itself (the {@code TARGET_POD_*} events): the rejecting plugins'
 * registrations and hints decide, a pending plugin's Queue skips backoff, a gated pod is asked of its gating plugin,
 * and an update recorded while one pod is in flight counts for that pod only.
 */
final class SchedulingQueueTargetPodTest {
  private final QueueHarness h = new QueueHarness();

  @Test
  void parkedPod_onlyTheRegisteredKindOfUpdateAsksTheHint() {
    h.hint("fooPlugin", ClusterEvent.TARGET_POD_UPDATE_TOLERATION, Hint.QUEUE).build();
    Pod p = pod("p", "ns", 0);
    h.add(p);
    h.requeue(h.pop(p), "fooPlugin");
    h.update(p.toBuilder().label("a", "b").build());
    assertThat(h.where(p)).isEqualTo(Where.UNSCHEDULABLE);
    assertThat(h.hintCalls).isZero();

    h.update(p.toBuilder().label("a", "b").toleration(io.fleetkit.api.scheduling.Toleration.exists("k",
        io.fleetkit.api.scheduling.TaintEffect.NoSchedule)).build());
    assertThat(h.hintCalls).isOne();
    assertThat(h.where(p)).isEqualTo(Where.BACKOFF);
  }

  @Test
  void parkedPod_registeringTheGeneralUpdate_hearsEverySpecificOne() {
    h.hint("fooPlugin", ClusterEvent.TARGET_POD_UPDATE, Hint.QUEUE).build();
    Pod p = pod("p", "ns", 0);
    h.add(p);
    h.requeue(h.pop(p), "fooPlugin");
    h.update(p.toBuilder().label("a", "b").build());
    assertThat(h.where(p)).isEqualTo(Where.BACKOFF);
  }

  @Test
  void parkedPod_pendingPluginQueue_skipsBackoff() {
    h.hint("waits", ClusterEvent.TARGET_POD_UPDATE_LABEL, Hint.QUEUE).build();
    Pod p = pod("p", "ns", 0);
    h.add(p);
    h.requeuePending(h.pop(p), Set.of(), Set.of("waits"));
    assertThat(h.where(p)).isEqualTo(Where.UNSCHEDULABLE);
    h.update(p.toBuilder().label("a", "b").build());
    assertThat(h.where(p)).as("still within its backoff, yet in activeQ").isEqualTo(Where.ACTIVE);
  }

  @Test
  void parkedPod_hintSaysSkip_staysInItsPlaceForTheFlush() {
    h.hint("fooPlugin", ClusterEvent.TARGET_POD_UPDATE, Hint.SKIP).build();
    Pod first = pod("first", "ns", 0);
    Pod second = pod("second", "ns", 0);
    h.add(first);
    h.add(second);
    h.requeue(h.pop(first), "fooPlugin");
    h.now += S;
    h.requeue(h.pop(second), "fooPlugin");
    h.update(first.toBuilder().label("a", "b").build());
    h.now = QueueHarness.MAX_IN_UNSCHEDULABLE + S / 2;
    h.q.flushUnschedulableLeftover(h.now);
    assertThat(h.where(first)).as("its parking time is unchanged by the update").isNotEqualTo(Where.UNSCHEDULABLE);
    assertThat(h.where(second)).isEqualTo(Where.UNSCHEDULABLE);
  }

  @Test
  void inFlight_anotherPodsOwnUpdate_doesNotCountForThisPod() {
    h.hint("fooPlugin", ClusterEvent.TARGET_POD_UPDATE, Hint.QUEUE).build();
    Pod a = pod("a", "ns", 10);
    Pod b = pod("b", "ns", 0);
    h.add(a);
    h.add(b);
    QueuedPod pa = h.pop(a);
    QueuedPod pb = h.pop(b);
    h.update(b.toBuilder().label("x", "y").build());
    h.requeue(pa, "fooPlugin");
    assertThat(h.where(a)).as("b's update is b's event").isEqualTo(Where.UNSCHEDULABLE);
    h.requeue(pb, "fooPlugin");
    assertThat(h.where(b)).isEqualTo(Where.BACKOFF);
  }

  @Test
  void inFlight_updateItsRejectorDidNotRegister_parks() {
    h.hint("fooPlugin", ClusterEvent.TARGET_POD_UPDATE_SCALE_DOWN, Hint.QUEUE).build();
    Pod p = pod("p", "ns", 0);
    h.add(p);
    QueuedPod popped = h.pop(p);
    h.update(p.toBuilder().annotation("a", "b").build());
    assertThat(h.q.inFlightEvents()).extracting(SchedulingQueue.InFlightEvent::event)
        .containsExactly(ClusterEvent.TARGET_POD_UPDATE);
    h.requeue(popped, "fooPlugin");
    assertThat(h.where(p)).isEqualTo(Where.UNSCHEDULABLE);
  }

  @Test
  void gatedPod_leavesOnlyWhenItsLastGateGoes() {
    h.realPlugin(SchedulingGatesPlugin.NAME).build();
    Pod p = pod("p", "ns", 0).toBuilder().schedulingGate("a").schedulingGate("b").build();
    h.add(p);
    assertThat(h.where(p)).isEqualTo(Where.GATED);
    Pod oneLeft = pod("p", "ns", 0).toBuilder().schedulingGate("a").build();
    h.update(oneLeft);
    assertThat(h.where(p)).isEqualTo(Where.GATED);
    assertThat(h.q.get(p.metadata().key()).info.pod()).isEqualTo(oneLeft);
    h.update(pod("p", "ns", 0));
    assertThat(h.where(p)).isEqualTo(Where.ACTIVE);
  }

  @Test
  void gatedPod_itsGatingPluginsRegistrationsDecide() {
    // a PreEnqueue plugin without EnqueueExtensions registers every event: any update runs PreEnqueue again
    h.preEnqueue("gate", "allowed").build();
    Pod p = pod("p", "ns", 0);
    h.add(p);
    assertThat(h.where(p)).isEqualTo(Where.GATED);
    h.update(p.toBuilder().annotation("x", "y").build());
    assertThat(h.where(p)).isEqualTo(Where.GATED);
    h.update(p.toBuilder().annotation("x", "y").label("allowed", "").build());
    assertThat(h.where(p)).isEqualTo(Where.ACTIVE);
  }
}
