package io.fleetkit.scheduler.internal;

import static io.fleetkit.scheduler.internal.QueueHarness.INITIAL_BACKOFF;
import static io.fleetkit.scheduler.internal.QueueHarness.MAX_BACKOFF;
import static io.fleetkit.scheduler.internal.QueueHarness.MAX_IN_UNSCHEDULABLE;
import static io.fleetkit.scheduler.internal.QueueHarness.S;
import static io.fleetkit.scheduler.internal.QueueHarness.hpp;
import static io.fleetkit.scheduler.internal.QueueHarness.hppNominated;
import static io.fleetkit.scheduler.internal.QueueHarness.mpp;
import static io.fleetkit.scheduler.internal.QueueHarness.pod;
import static io.fleetkit.scheduler.internal.QueueHarness.up;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.framework.ClusterEvent;
import io.fleetkit.api.framework.Status;
import io.fleetkit.scheduler.internal.QueueHarness.Hint;
import io.fleetkit.scheduler.internal.QueuedPod.Where;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Where a rejected or updated pod goes, with queueing hints and PreEnqueue: ported from {@code kubernetes/kubernetes
 * pkg/scheduler/backend/queue/scheduling_queue_test.go} (commit 0113538e59bdee8f21d1948e27360427cfb349f8), with
 * queueing hints on and PopFromBackoffQ off. Upstream's events map onto FleetKit's coarser ones: {@code NodeAdd} is
 * {@link ClusterEvent#NODE_ADD}, {@code AssignedPodAdd} {@link ClusterEvent#ASSIGNED_POD_ADD}, the PV, PVC and CSINode
 * events {@link ClusterEvent#STORAGE} ({@code PvUpdate}, which no plugin registered, is {@link ClusterEvent#OTHER}),
 * and {@code UnschedulableTimeout} the wildcard {@link SchedulingQueue#moveAllToActiveOrBackoff(long)}. Upstream's
 * in-flight event lists are not compared: FleetKit records every event received while a pod is in flight (upstream
 * leaves out events no plugin registered); the pods in flight and the queue each pod lands in are.
 */
final class SchedulingQueueHintsUpstreamTest {
  private static final Pod POD1 = pod("targetpod", "default", 0);
  private static final Pod POD2 = pod("targetpod2", "default", 0);
  private static final Pod POD3 = pod("targetpod3", "default", 0);
  private final QueueHarness h = new QueueHarness();

  /** Upstream's initial pods: added one second apart, so they pop in that order. */
  private void initialPods(Pod... pods) {
    for (Pod p : pods) {
      h.add(p);
      h.now += S;
    }
  }

  private void event(ClusterEvent e) {
    h.q.moveAllToActiveOrBackoff(e, null, null, h.now);
  }

  // ---------------------------------------------------------------------------------------- Test_InFlightPods

  /** Test_InFlightPods, "Pod and interested events are registered in inFlightPods/inFlightEvents". */
  @Test
  void inFlight_poppedPodIsInFlight() {
    h.hint("fooPlugin1", ClusterEvent.STORAGE, Hint.QUEUE).build();
    initialPods(POD1);
    event(ClusterEvent.STORAGE); // PvcAdd, no pod in flight
    h.pop(POD1);
    event(ClusterEvent.STORAGE); // PvAdd
    event(ClusterEvent.OTHER); // PvUpdate
    assertThat(h.names(Where.IN_FLIGHT)).containsExactly("targetpod");
  }

  /** Test_InFlightPods, "Pod, registered in inFlightPods, is enqueued back to activeQ". */
  @Test
  void inFlight_podEnqueuedBack_leavesTheOtherInFlight() {
    h.hint("fooPlugin1", ClusterEvent.STORAGE, Hint.QUEUE).hint("fooPlugin1", ClusterEvent.NODE_ADD, Hint.QUEUE)
        .build();
    initialPods(POD1, POD2);
    event(ClusterEvent.STORAGE);
    QueuedPod p1 = h.pop(POD1);
    event(ClusterEvent.STORAGE);
    h.pop(POD2);
    event(ClusterEvent.NODE_ADD);
    h.requeue(p1); // no rejecting plugin: backoffQ
    assertThat(h.names(Where.BACKOFF)).containsExactly("targetpod");
    assertThat(h.names(Where.IN_FLIGHT)).containsExactly("targetpod2");
  }

  /** Test_InFlightPods, "All Pods registered in inFlightPods are enqueued back to activeQ". */
  @Test
  void inFlight_allPodsEnqueuedBack_noneInFlight() {
    h.hint("fooPlugin1", ClusterEvent.STORAGE, Hint.QUEUE).hint("fooPlugin1", ClusterEvent.NODE_ADD, Hint.QUEUE)
        .build();
    initialPods(POD1, POD2);
    event(ClusterEvent.STORAGE);
    QueuedPod p1 = h.pop(POD1);
    event(ClusterEvent.STORAGE);
    QueuedPod p2 = h.pop(POD2);
    event(ClusterEvent.NODE_ADD);
    h.requeue(p1);
    event(ClusterEvent.STORAGE); // CSINodeUpdate
    h.requeue(p2);
    assertThat(h.names(Where.BACKOFF)).containsExactly("targetpod", "targetpod2");
    assertThat(h.names(Where.IN_FLIGHT)).isEmpty();
  }

  /** Test_InFlightPods, "One intermediate Pod registered in inFlightPods is enqueued back to activeQ". */
  @Test
  void inFlight_intermediatePodEnqueuedBack() {
    h.hint("fooPlugin1", ClusterEvent.STORAGE, Hint.QUEUE).hint("fooPlugin1", ClusterEvent.NODE_ADD, Hint.QUEUE)
        .hint("fooPlugin1", ClusterEvent.ASSIGNED_POD_ADD, Hint.QUEUE).build();
    initialPods(POD1, POD2, POD3);
    event(ClusterEvent.STORAGE);
    h.pop(POD1);
    event(ClusterEvent.STORAGE);
    QueuedPod p2 = h.pop(POD2);
    event(ClusterEvent.NODE_ADD);
    h.pop(POD3);
    event(ClusterEvent.ASSIGNED_POD_ADD);
    h.requeue(p2);
    assertThat(h.names(Where.BACKOFF)).containsExactly("targetpod2");
    assertThat(h.names(Where.IN_FLIGHT)).containsExactly("targetpod", "targetpod3");
  }

  /** Test_InFlightPods, "events before popping Pod are ignored when Pod is enqueued back to queue". */
  @Test
  void inFlight_eventsBeforePopAreIgnored() {
    h.hint("fooPlugin1", ClusterEvent.ASSIGNED_POD_ADD, Hint.SKIP).build();
    initialPods(POD1);
    h.q.moveAllToActiveOrBackoff(h.now); // UnschedulableTimeout
    QueuedPod p = h.pop(POD1);
    event(ClusterEvent.ASSIGNED_POD_ADD);
    h.requeue(p, "fooPlugin1");
    assertThat(h.names(Where.UNSCHEDULABLE)).containsExactly("targetpod");
    assertThat(h.names(Where.IN_FLIGHT)).isEmpty();
  }

  /**
   * Test_InFlightPods, "pod is enqueued to activeQ because the Pending plugins has a hint fn and it returns Queue": a
   * Queue from a pending plugin's hint beats the others' Skip and Queue, and no backoff applies.
   */
  @Test
  void inFlight_pendingPluginsHintQueues_activeQ() {
    h.hint("fooPlugin3", ClusterEvent.ASSIGNED_POD_ADD, Hint.SKIP)
        .hint("fooPlugin2", ClusterEvent.ASSIGNED_POD_ADD, Hint.QUEUE)
        .hint("fooPlugin1", ClusterEvent.ASSIGNED_POD_ADD, Hint.QUEUE).build();
    initialPods(POD1);
    QueuedPod p = h.pop(POD1);
    event(ClusterEvent.ASSIGNED_POD_ADD);
    h.requeuePending(p, Set.of("fooPlugin2", "fooPlugin3"), Set.of("fooPlugin1"));
    assertThat(h.names(Where.ACTIVE)).containsExactly("targetpod");
    assertThat(h.names(Where.IN_FLIGHT)).isEmpty();
  }

  /**
   * Test_InFlightPods, "pod is enqueued to activeQ because the failed plugin has a hint fn and it returns Queue for a
   * concurrent event that was received while some other pod was in flight": pod1 (no rejector) backs off; pod2,
   * popped before the AssignedPodAdd that pod1's flight also saw, goes straight to activeQ through its pending plugin.
   */
  @Test
  void inFlight_concurrentEventQueuesThePendingPlugin_activeQ() {
    h.hint("fooPlugin3", ClusterEvent.ASSIGNED_POD_ADD, Hint.SKIP)
        .hint("fooPlugin2", ClusterEvent.ASSIGNED_POD_ADD, Hint.QUEUE)
        .hint("fooPlugin1", ClusterEvent.ASSIGNED_POD_ADD, Hint.QUEUE).build();
    initialPods(POD1, POD2);
    QueuedPod p1 = h.pop(POD1);
    event(ClusterEvent.NODE_ADD);
    QueuedPod p2 = h.pop(POD2);
    event(ClusterEvent.ASSIGNED_POD_ADD);
    h.requeue(p1);
    h.requeuePending(p2, Set.of("fooPlugin2", "fooPlugin3"), Set.of("fooPlugin1"));
    assertThat(h.names(Where.ACTIVE)).containsExactly("targetpod2");
    assertThat(h.names(Where.BACKOFF)).containsExactly("targetpod");
    assertThat(h.names(Where.IN_FLIGHT)).isEmpty();
  }

  /**
   * Test_InFlightPods, "popped pod must have empty UnschedulablePlugins and PendingPlugins": parked by a pending and an
   * unschedulable plugin, the pod goes back to activeQ on the pending plugin's event (no backoff), pops with neither
   * set, and a failure naming no plugin then backs it off.
   */
  @Test
  void inFlight_poppedPodHasNoRejectorsNorPendingPlugins() {
    h.hint("fooPlugin1", ClusterEvent.STORAGE, Hint.QUEUE).plugin("fooPlugin2").build();
    initialPods(POD1);
    QueuedPod p = h.pop(POD1);
    h.requeuePending(p, Set.of("fooPlugin2"), Set.of("fooPlugin1"));
    assertThat(h.where(POD1)).isEqualTo(Where.UNSCHEDULABLE);
    event(ClusterEvent.STORAGE); // PvAdd
    assertThat(h.where(POD1)).isEqualTo(Where.ACTIVE);
    p = h.pop(POD1);
    assertThat(p.rejectors).isEmpty();
    assertThat(p.pending).isEmpty();
    h.requeue(p);
    assertThat(h.where(POD1)).isEqualTo(Where.BACKOFF);
  }

  /**
   * TestPop (with hints): a pod parked by a pending plugin, moved back by that plugin's event without backoff, pops
   * with no pending plugins of its last attempt.
   */
  @Test
  void pop_withHints_pendingPluginsClearedOnPop() {
    h.hint("fooPlugin1", ClusterEvent.STORAGE, Hint.QUEUE).build();
    h.add(POD1);
    QueuedPod p = h.pop(POD1);
    h.requeuePending(p, Set.of(), Set.of("fooPlugin1"));
    event(ClusterEvent.STORAGE); // PvAdd
    p = h.pop(POD1);
    assertThat(p.pending).isEmpty();
    assertThat(p.rejectors).isEmpty();
  }

  /** Test_InFlightPods, "pod is enqueued to backoff if no failed plugin". */
  @Test
  void inFlight_noFailedPlugin_backsOff() {
    h.hint("fooPlugin1", ClusterEvent.ASSIGNED_POD_ADD, Hint.QUEUE).build();
    initialPods(POD1);
    QueuedPod p = h.pop(POD1);
    event(ClusterEvent.ASSIGNED_POD_ADD);
    h.requeue(p);
    assertThat(h.names(Where.BACKOFF)).containsExactly("targetpod");
    assertThat(h.names(Where.IN_FLIGHT)).isEmpty();
  }

  /** Test_InFlightPods, "pod is enqueued to unschedulable pod pool if no events that can make the pod schedulable". */
  @Test
  void inFlight_noEventThatMayHelp_parks() {
    h.hint("fooPlugin1", ClusterEvent.ASSIGNED_POD_ADD, Hint.QUEUE).build();
    initialPods(POD1);
    QueuedPod p = h.pop(POD1);
    event(ClusterEvent.NODE_ADD);
    h.requeue(p, "fooPlugin1");
    assertThat(h.names(Where.UNSCHEDULABLE)).containsExactly("targetpod");
    assertThat(h.names(Where.IN_FLIGHT)).isEmpty();
  }

  /**
   * Test_InFlightPods, "pod is enqueued to unschedulable pod pool because the failed plugin has a hint fn but it
   * returns Skip".
   */
  @Test
  void inFlight_hintSkips_parks() {
    h.hint("fooPlugin1", ClusterEvent.ASSIGNED_POD_ADD, Hint.SKIP).build();
    initialPods(POD1);
    QueuedPod p = h.pop(POD1);
    event(ClusterEvent.ASSIGNED_POD_ADD);
    h.requeue(p, "fooPlugin1");
    assertThat(h.names(Where.UNSCHEDULABLE)).containsExactly("targetpod");
    assertThat(h.names(Where.IN_FLIGHT)).isEmpty();
  }

  /**
   * Test_InFlightPods, "pod is enqueued to backoffQ because the failed plugin has a hint fn and it returns Queue".
   */
  @Test
  void inFlight_oneRejectorsHintQueues_backsOff() {
    h.hint("fooPlugin2", ClusterEvent.ASSIGNED_POD_ADD, Hint.SKIP)
        .hint("fooPlugin1", ClusterEvent.ASSIGNED_POD_ADD, Hint.QUEUE).build();
    initialPods(POD1);
    QueuedPod p = h.pop(POD1);
    event(ClusterEvent.ASSIGNED_POD_ADD);
    h.requeue(p, "fooPlugin1", "fooPlugin2");
    assertThat(h.names(Where.BACKOFF)).containsExactly("targetpod");
    assertThat(h.names(Where.IN_FLIGHT)).isEmpty();
  }

  // ------------------------------------------------------------------------------ TestPriorityQueue_Update

  /** TestPriorityQueue_Update, "Update pod that didn't exist in the queue". */
  @Test
  void update_podNotInQueue_addedToActiveQ() {
    h.build();
    Pod updated = mpp().toBuilder().annotation("foo", "test").build();
    h.update(updated);
    assertThat(h.where(updated)).isEqualTo(Where.ACTIVE);
    assertThat(h.q.get(updated.metadata().key()).info.pod()).isEqualTo(updated);
  }

  /** TestPriorityQueue_Update, "Update highPriorityPodInfo and add a nominatedNodeName to it". */
  @Test
  void update_addsNominatedNodeName() {
    h.build();
    h.update(hppNominated());
    assertThat(h.where(hpp())).isEqualTo(Where.ACTIVE);
    assertThat(h.q.get("ns1/hpp").info.pod()).isEqualTo(hppNominated());
    assertThat(h.nominator.forNode("node1")).hasSize(1);
  }

  /** TestPriorityQueue_Update, "When updating a pod that is already in activeQ, the pod should remain in activeQ". */
  @Test
  void update_podInActiveQ_staysThere() {
    h.build();
    h.add(hpp());
    h.update(hpp());
    assertThat(h.where(hpp())).isEqualTo(Where.ACTIVE);
    assertThat(h.q.get("ns1/hpp").info.pod()).isEqualTo(hpp());
  }

  /** TestPriorityQueue_Update, "When updating a pod that is in backoff queue and is still backing off ...". */
  @Test
  void update_podBackingOff_updatedInBackoffQ() {
    h.build();
    h.add(mpp());
    h.q.requeueAfterFailure(h.pop(mpp()), Status.Code.ERROR, "x", Set.of(), h.now);
    Pod updated = mpp().toBuilder().annotation("foo", "test").build();
    h.update(updated);
    assertThat(h.where(updated)).isEqualTo(Where.BACKOFF);
    assertThat(h.q.get(updated.metadata().key()).info.pod()).isEqualTo(updated);
  }

  /** Upstream's hint map of TestPriorityQueue_Update: queuePlugin and skipPlugin on the pod's own update. */
  private void updateHints() {
    h.hint("queuePlugin", ClusterEvent.TARGET_POD_UPDATE, Hint.QUEUE)
        .hint("skipPlugin", ClusterEvent.TARGET_POD_UPDATE, Hint.SKIP).build();
  }

  /** TestPriorityQueue_Update, "when updating a pod which is in unschedulable queue and is backing off ...". */
  @Test
  void update_parkedPodStillBackingOff_movesToBackoffQ() {
    updateHints();
    h.add(mpp());
    h.requeue(h.pop(mpp()), "queuePlugin");
    assertThat(h.where(mpp())).isEqualTo(Where.UNSCHEDULABLE);
    Pod updated = mpp().toBuilder().annotation("foo", "test").build();
    h.update(updated);
    assertThat(h.where(updated)).isEqualTo(Where.BACKOFF);
    assertThat(h.q.get(updated.metadata().key()).info.pod()).isEqualTo(updated);
  }

  /** TestPriorityQueue_Update, "when updating a pod which is in unschedulable queue and is not backing off ...". */
  @Test
  void update_parkedPodDoneBackingOff_movesToActiveQ() {
    updateHints();
    h.add(mpp());
    h.requeue(h.pop(mpp()), "queuePlugin");
    Pod updated = mpp().toBuilder().annotation("foo", "test1").build();
    h.now += MAX_BACKOFF;
    h.update(updated);
    assertThat(h.where(updated)).isEqualTo(Where.ACTIVE);
    assertThat(h.q.get(updated.metadata().key()).info.pod()).isEqualTo(updated);
  }

  /**
   * TestPriorityQueue_Update, "when updating a pod which is in unschedulable pods but the plugin returns skip, it will
   * remain in unschedulablePods".
   */
  @Test
  void update_parkedPodWhoseRejectorSkips_staysParkedWithTheNewObject() {
    updateHints();
    h.add(mpp());
    h.requeue(h.pop(mpp()), "skipPlugin");
    Pod updated = mpp().toBuilder().annotation("foo", "test1").build();
    h.update(updated);
    assertThat(h.where(updated)).isEqualTo(Where.UNSCHEDULABLE);
    assertThat(h.q.get(updated.metadata().key()).info.pod()).isEqualTo(updated);
  }

  /** TestPriorityQueue_Update, "when updating a pod which is in flightPods, the pod will not be added to any queue". */
  @Test
  void update_podInFlight_joinsNoQueue() {
    h.build();
    h.add(mpp());
    h.pop(mpp());
    h.update(mpp().toBuilder().annotation("foo", "bar").build());
    assertThat(h.where(mpp())).isEqualTo(Where.IN_FLIGHT);
    assertThat(h.q.activeSize() + h.q.backoffSize() + h.q.unschedulableSize() + h.q.gatedSize()).isZero();
  }

  /**
   * TestPriorityQueue_UpdateWhenInflight: a pod that gets a toleration while being scheduled, rejected by a plugin
   * registering every update of the pod itself (upstream's {@code EventUnscheduledPodUpdate}) whose hint queues, backs
   * off with its new object.
   */
  @Test
  void updateWhenInFlight_rejectionBacksOff() {
    h.hint("fakePlugin", ClusterEvent.TARGET_POD_UPDATE, Hint.QUEUE).build();
    Pod test = pod("test-pod", "test-ns", 0);
    h.add(test);
    QueuedPod p = h.pop(test);
    Pod updated = test.toBuilder().toleration(io.fleetkit.api.scheduling.Toleration.exists("foo",
        io.fleetkit.api.scheduling.TaintEffect.NoSchedule)).build();
    h.update(updated);
    h.requeue(p, "fakePlugin");
    assertThat(h.where(updated)).isEqualTo(Where.BACKOFF);
    assertThat(h.q.get(updated.metadata().key()).info.pod()).isEqualTo(updated);
  }

  // ------------------------------------------------------------- TestPriorityQueue_MoveAllToActiveOrBackoffQueue

  /**
   * TestPriorityQueue_MoveAllToActiveOrBackoffQueue. Two differences: upstream's {@code popAllBackoffCompleted}
   * discards the pods it pops (here they are removed), and upstream's second {@code Add} of the in-flight medium
   * priority pod puts a second copy in activeQ, where FleetKit keeps one entry per pod and takes it as an update of
   * the pod in flight; so activeQ holds 3 pods at the end, not 4, with the medium priority pod still in flight.
   */
  @Test
  void moveAll_withQueueingHints() {
    h.hint("fooPlugin", ClusterEvent.NODE_ADD, Hint.QUEUE).plugin("barPlugin").build();
    Pod hpp1 = pod("hpp1", "ns1", 1000);
    Pod hpp2 = pod("hpp2", "ns1", 1000);
    h.add(up());
    QueuedPod u = h.pop(up());
    assertThat(h.names(Where.IN_FLIGHT)).containsExactly("up");
    h.add(hpp());
    QueuedPod hi = h.pop(hpp());
    assertThat(h.names(Where.IN_FLIGHT)).containsExactly("hpp", "up");
    h.requeue(u, "fooPlugin");
    h.requeue(hi, "fooPlugin");
    assertThat(h.names(Where.IN_FLIGHT)).isEmpty();
    h.add(hpp1);
    h.requeue(h.pop(hpp1)); // no rejecting plugin: backoffQ
    h.add(hpp2);
    h.requeue(h.pop(hpp2), "barPlugin");
    event(ClusterEvent.NODE_ADD); // moves up and hpp to backoffQ
    h.add(mpp());
    assertThat(h.q.activeSize()).isEqualTo(1);
    h.pop(mpp());
    assertThat(h.names(Where.IN_FLIGHT)).containsExactly("mpp");
    assertThat(h.q.backoffSize()).isEqualTo(3);

    h.now += MAX_BACKOFF;
    h.q.flushBackoffCompleted(h.now);
    for (Pod gone : List.of(up(), hpp(), hpp1)) {
      h.q.remove(gone.metadata().key());
    }
    assertThat(h.names(Where.IN_FLIGHT)).containsExactly("mpp");

    h.add(up());
    QueuedPod u2 = h.pop(up());
    h.add(hpp());
    QueuedPod hi2 = h.pop(hpp());
    h.add(hpp1);
    QueuedPod h1 = h.pop(hpp1);
    assertThat(h.names(Where.IN_FLIGHT)).containsExactly("hpp", "hpp1", "mpp", "up");
    h.requeue(u2, "fooPlugin");
    assertThat(h.names(Where.IN_FLIGHT)).containsExactly("hpp", "hpp1", "mpp");
    h.requeue(hi2, "fooPlugin");
    assertThat(h.names(Where.IN_FLIGHT)).containsExactly("hpp1", "mpp");
    h.requeue(h1);
    assertThat(h.names(Where.IN_FLIGHT)).containsExactly("mpp");
    h.add(mpp());
    assertThat(h.names(Where.UNSCHEDULABLE)).containsExactly("hpp", "hpp2", "up");
    assertThat(h.where(hpp1)).isEqualTo(Where.BACKOFF);

    h.now += MAX_BACKOFF;
    h.q.flushBackoffCompleted(h.now);
    event(ClusterEvent.NODE_ADD);
    assertThat(h.names(Where.ACTIVE)).containsExactly("hpp", "hpp1", "up");
    assertThat(h.q.backoffSize()).isZero();
    assertThat(h.names(Where.IN_FLIGHT)).containsExactly("mpp");
    assertThat(h.names(Where.UNSCHEDULABLE)).containsExactly("hpp2");
  }

  // ------------------------------------------------- TestPriorityQueue_MoveAllToActiveOrBackoffQueueWithQueueingHint

  /** A pod popped and rejected by {@code foo}, whose NodeAdd hint is {@code hint}, then a NodeAdd after {@code wait}. */
  private Where moveAllWithHint(Hint hint, long wait) {
    h.hint("foo", ClusterEvent.NODE_ADD, hint).preEnqueue("fooPreEnqueue", "foo").build();
    Pod p = pod("pod1", "ns1", 0).toBuilder().label("foo", "bar").build();
    h.add(p);
    h.requeue(h.pop(p), "foo");
    h.now += wait;
    event(ClusterEvent.NODE_ADD);
    return h.where(p);
  }

  /**
   * TestPriorityQueue_MoveAllToActiveOrBackoffQueueWithQueueingHint, "Queue queues pod to activeQ": the pod's pending
   * plugin answers Queue, so it skips the backoff it is still in.
   */
  @Test
  void moveAllWithHint_queueFromAPendingPlugin_toActiveQ() {
    h.hint("foo", ClusterEvent.NODE_ADD, Hint.QUEUE).preEnqueue("fooPreEnqueue", "foo").build();
    Pod p = pod("pod1", "ns1", 0).toBuilder().label("foo", "bar").build();
    h.add(p);
    h.requeuePending(h.pop(p), Set.of(), Set.of("foo"));
    assertThat(h.where(p)).isEqualTo(Where.UNSCHEDULABLE);
    event(ClusterEvent.NODE_ADD);
    assertThat(h.where(p)).isEqualTo(Where.ACTIVE);
  }

  /** TestPriorityQueue_MoveAllToActiveOrBackoffQueueWithQueueingHint, "Queue queues pod to backoffQ if Pod is backing off". */
  @Test
  void moveAllWithHint_queue_backingOff_toBackoffQ() {
    assertThat(moveAllWithHint(Hint.QUEUE, 0)).isEqualTo(Where.BACKOFF);
  }

  /** ... "Queue queues pod to activeQ if Pod is not backing off". */
  @Test
  void moveAllWithHint_queue_doneBackingOff_toActiveQ() {
    assertThat(moveAllWithHint(Hint.QUEUE, INITIAL_BACKOFF)).isEqualTo(Where.ACTIVE);
  }

  /** ... "Skip queues pod to unschedulablePods". */
  @Test
  void moveAllWithHint_skip_staysParked() {
    assertThat(moveAllWithHint(Hint.SKIP, 0)).isEqualTo(Where.UNSCHEDULABLE);
  }

  // -------------------------------------------------------- TestPriorityQueue_moveToActiveQ / moveToBackoffQ

  /**
   * TestPriorityQueue_moveToActiveQ rows "no plugins registered", "preEnqueue plugin registered, pod name not in
   * allowlists", "... pod failed one preEnqueue plugin", "... pod passed all preEnqueue plugins": a pod PreEnqueue
   * rejects is gated (upstream's unschedulablePods), and an update that does not change that keeps it there.
   */
  @Test
  void moveToActiveQ_preEnqueueGates() {
    record Row(List<String> allow1, List<String> allow2, String name, boolean wantSuccess) {}
    List<Row> rows = List.of(
        new Row(null, null, "p", true),
        new Row(List.of(), List.of(), "p", false),
        new Row(List.of("foo", "bar"), List.of("foo"), "bar", false),
        new Row(List.of("foo", "bar"), List.of("bar"), "bar", true));
    for (Row r : rows) {
      QueueHarness t = new QueueHarness();
      if (r.allow1() != null) {
        t.preEnqueue("preEnqueue1", r.allow1().toArray(String[]::new));
        t.preEnqueue("preEnqueue2", r.allow2().toArray(String[]::new));
      }
      t.build(30 * S, 60 * S, MAX_IN_UNSCHEDULABLE);
      Pod pod = pod(r.name(), "default", 0).toBuilder().label(r.name(), "").build();
      t.add(pod);
      assertThat(t.where(pod)).as(r.toString()).isEqualTo(r.wantSuccess() ? Where.ACTIVE : Where.GATED);
      assertThat(t.q.gatedSize()).as(r.toString()).isEqualTo(r.wantSuccess() ? 0 : 1);
      t.update(pod.toBuilder().annotation("foo", "").build());
      assertThat(t.q.gatedSize()).as(r.toString()).isEqualTo(r.wantSuccess() ? 0 : 1);
    }
  }

  /**
   * TestPriorityQueue_moveToActiveQ, "preEnqueue plugin registered, preEnqueue plugin would reject the pod, but isn't
   * run" (PopFromBackoffQ off: PreEnqueue does run when backoff completes). FleetKit reaches that move through a
   * failed attempt: the allow lists change while the pod backs off.
   */
  @Test
  void moveToActiveQ_backoffComplete_runsPreEnqueue() {
    h.preEnqueue("preEnqueue1", "bar").preEnqueue("preEnqueue2", "bar").build(30 * S, 60 * S, MAX_IN_UNSCHEDULABLE);
    Pod pod = pod("bar", "default", 0).toBuilder().label("bar", "").build();
    h.add(pod);
    h.q.requeueAfterFailure(h.pop(pod), Status.Code.ERROR, "x", Set.of(), h.now);
    h.allowLists.put("preEnqueue1", List.of("foo", "bar"));
    h.allowLists.put("preEnqueue2", List.of("foo"));
    h.now += 30 * S;
    h.q.flushBackoffCompleted(h.now);
    assertThat(h.where(pod)).isEqualTo(Where.GATED);
    assertThat(h.q.gatedSize()).isEqualTo(1);
    h.update(pod.toBuilder().annotation("foo", "").build());
    assertThat(h.q.gatedSize()).isEqualTo(1);
  }

  /**
   * TestPriorityQueue_moveToBackoffQ, the rows with PopFromBackoffQ off ("no plugins registered", "... pod name would
   * not be in allowlists", "... preEnqueue plugin would reject the pod, but isn't run", "... pod passed all preEnqueue
   * plugins"): entering backoffQ runs no PreEnqueue. The allow lists are set after the pod was admitted.
   */
  @Test
  void moveToBackoffQ_runsNoPreEnqueue() {
    record Row(List<String> allow1, List<String> allow2, String name) {}
    List<Row> rows = List.of(
        new Row(null, null, "p"),
        new Row(List.of(), List.of(), "p"),
        new Row(List.of("foo", "bar"), List.of("foo"), "bar"),
        new Row(List.of("foo", "bar"), List.of("bar"), "bar"));
    for (Row r : rows) {
      QueueHarness t = new QueueHarness();
      if (r.allow1() != null) {
        t.preEnqueue("preEnqueue1", r.name());
        t.preEnqueue("preEnqueue2", r.name());
      }
      t.build(30 * S, 60 * S, MAX_IN_UNSCHEDULABLE);
      Pod pod = pod(r.name(), "default", 0).toBuilder().label(r.name(), "").build();
      t.add(pod);
      QueuedPod p = t.pop(pod);
      if (r.allow1() != null) {
        t.allowLists.put("preEnqueue1", r.allow1());
        t.allowLists.put("preEnqueue2", r.allow2());
      }
      t.q.requeueAfterFailure(p, Status.Code.ERROR, "x", Set.of(), t.now);
      assertThat(t.where(pod)).as(r.toString()).isEqualTo(Where.BACKOFF);
      assertThat(t.q.unschedulableSize() + t.q.gatedSize()).as(r.toString()).isZero();
    }
  }

  // ------------------------------------------------------------------------------ Test_isPodWorthRequeuing

  private static final Pod POD = pod("pod1", "ns1", 0);
  private static final Node NODE = Node.builder().name("node").build();

  /** Test_isPodWorthRequeuing, "return Queue when no queueing hint function is registered for the event". */
  @Test
  void worthRequeuing_noHintForTheEvent_skips() {
    h.hint("fooPlugin1", ClusterEvent.ASSIGNED_POD_ADD, Hint.QUEUE).build();
    assertThat(h.fw.movesOn(Set.of("fooPlugin1"), ClusterEvent.NODE_ADD, POD, null, NODE)).isFalse();
    assertThat(h.hintCalls).isZero();
  }

  /** Test_isPodWorthRequeuing, "Treat the event as Queue when QueueHintFn returns error". */
  @Test
  void worthRequeuing_hintError_queues() {
    h.hint("fooPlugin1", ClusterEvent.NODE_ADD, Hint.ERROR).build();
    assertThat(h.fw.movesOn(Set.of("fooPlugin1"), ClusterEvent.NODE_ADD, POD, null, NODE)).isTrue();
    assertThat(h.hintCalls).isEqualTo(1);
  }

  /** Test_isPodWorthRequeuing, "return Queue when the event is wildcard". */
  @Test
  void worthRequeuing_wildcard_queuesWithoutHints() {
    h.plugin("fooPlugin1").build();
    h.add(POD);
    h.requeue(h.pop(POD), "fooPlugin1");
    h.q.moveAllToActiveOrBackoff(h.now);
    assertThat(h.where(POD)).isEqualTo(Where.BACKOFF);
    assertThat(h.hintCalls).isZero();
  }

  /**
   * Test_isPodWorthRequeuing, "return Queue when the event is wildcard and the wildcard targets the pod to be requeued
   * right now": upstream's {@code EventForceActivate} aimed at the pod is an activation during its flight.
   */
  @Test
  void worthRequeuing_forceActivateForThePod_queues() {
    h.plugin("fooPlugin1").build();
    h.add(POD);
    QueuedPod p = h.pop(POD);
    h.q.activate(List.of(POD.metadata().key()), h.now);
    h.requeue(p, "fooPlugin1");
    assertThat(h.where(POD)).isEqualTo(Where.BACKOFF);
    assertThat(h.hintCalls).isZero();
  }

  /**
   * Test_isPodWorthRequeuing, "return Skip when the event is wildcard, but the wildcard targets a different pod": an
   * activation of another pod in flight at the same time.
   */
  @Test
  void worthRequeuing_forceActivateForAnotherPod_skips() {
    h.plugin("fooPlugin1").build();
    Pod different = pod("pod-different", "ns2", 0);
    h.add(POD);
    h.now += S;
    h.add(different);
    QueuedPod p = h.pop(POD);
    h.pop(different);
    h.q.activate(List.of(different.metadata().key()), h.now);
    h.requeue(p, "fooPlugin1");
    assertThat(h.where(POD)).isEqualTo(Where.UNSCHEDULABLE);
    assertThat(h.hintCalls).isZero();
  }

  /**
   * Test_isPodWorthRequeuing, "interprets Queue from the Pending plugin as queueImmediately": fooPlugin1's Queue is
   * after-backoff and the hints go on, fooPlugin2 (pending) answers Queue and decides; fooPlugin3 and fooPlugin4 are
   * not asked (two hint calls).
   */
  @Test
  void worthRequeuing_queueFromThePendingPlugin_immediately() {
    h.hint("fooPlugin1", ClusterEvent.NODE_ADD, Hint.QUEUE).hint("fooPlugin2", ClusterEvent.NODE_ADD, Hint.QUEUE)
        .hint("fooPlugin3", ClusterEvent.NODE_ADD, Hint.QUEUE).hint("fooPlugin4", ClusterEvent.NODE_ADD, Hint.ERROR)
        .build();
    assertThat(h.fw.requeueStrategy(Set.of("fooPlugin1", "fooPlugin2", "fooPlugin3"), Set.of("fooPlugin2"),
        ClusterEvent.NODE_ADD, true, POD, null, NODE)).isEqualTo(Framework.REQUEUE_IMMEDIATELY);
    assertThat(h.hintCalls).isEqualTo(2);
  }

  /** Test_isPodWorthRequeuing, "interprets Queue from the Unschedulable plugin as queueAfterBackoff". */
  @Test
  void worthRequeuing_oneRejectorQueues() {
    h.hint("fooPlugin1", ClusterEvent.NODE_ADD, Hint.SKIP).hint("fooPlugin2", ClusterEvent.NODE_ADD, Hint.QUEUE)
        .build();
    assertThat(h.fw.movesOn(Set.of("fooPlugin1", "fooPlugin2"), ClusterEvent.NODE_ADD, POD, null, NODE)).isTrue();
    assertThat(h.hintCalls).isEqualTo(2);
    assertThat(h.fw.requeueStrategy(Set.of("fooPlugin1", "fooPlugin2"), Set.of(), ClusterEvent.NODE_ADD, true, POD,
        null, NODE)).isEqualTo(Framework.REQUEUE_AFTER_BACKOFF);
  }

  /**
   * Test_isPodWorthRequeuing, "Queueing hint function that isn't from the plugin in
   * UnschedulablePlugins/PendingPlugins is ignored".
   */
  @Test
  void worthRequeuing_hintOfANonRejectorIsIgnored() {
    h.hint("fooPlugin1", ClusterEvent.NODE_ADD, Hint.SKIP).hint("fooPlugin2", ClusterEvent.NODE_ADD, Hint.SKIP)
        .hint("fooPlugin3", ClusterEvent.NODE_ADD, Hint.QUEUE).build();
    assertThat(h.fw.movesOn(Set.of("fooPlugin1", "fooPlugin2"), ClusterEvent.NODE_ADD, POD, null, NODE)).isFalse();
    assertThat(h.hintCalls).isEqualTo(2);
  }
}
