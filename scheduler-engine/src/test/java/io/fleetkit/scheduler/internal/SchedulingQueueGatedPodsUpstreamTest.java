package io.fleetkit.scheduler.internal;

import static io.fleetkit.scheduler.internal.QueueHarness.INITIAL_BACKOFF;
import static io.fleetkit.scheduler.internal.QueueHarness.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.framework.ClusterEvent;
import io.fleetkit.scheduler.internal.QueueHarness.Hint;
import io.fleetkit.scheduler.internal.QueuedPod.Where;
import io.fleetkit.scheduler.plugins.schedulinggates.SchedulingGatesPlugin;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Gated pods and cluster events: ported from {@code kubernetes/kubernetes
 * pkg/scheduler/backend/queue/scheduling_queue_test.go}, TestPriorityQueue_MoveAllToActiveOrBackoffQueueWithQueueingHint
 * (the three gated rows of commit 0113538e59bdee8f21d1948e27360427cfb349f8, and the three wildcard rows of the index's
 * later stored version, the one with {@code unschedulableEntities}). Upstream's set-up: {@code foo} has a NodeAdd
 * hint (the case's) and a PreEnqueue admitting pods labelled {@code foo}; SchedulingGates is the other PreEnqueue
 * plugin, registering only the pod's own update. Upstream writes the gating plugin into a popped pod's queue entry;
 * here a pod is gated by a PreEnqueue plugin that rejects it: at creation, or on an activation after a failed attempt
 * (so it still backs off, as upstream's attempted pod), {@code foo}'s allow list changed meanwhile. PopFromBackoffQ is
 * off, as in {@link SchedulingQueueHintsUpstreamTest}: PreEnqueue runs when a pod enters activeQ.
 */
final class SchedulingQueueGatedPodsUpstreamTest {
  private static final Pod P = pod("pod1", "ns1", 0).toBuilder().label("foo", "bar").build();
  /** Upstream's {@code gatedPod}: the same pod without the label foo's PreEnqueue admits. */
  private static final Pod GATED_POD = pod("pod1", "ns1", 0);
  private final QueueHarness h = new QueueHarness();

  private void setUp(Hint fooNodeAddHint) {
    h.hint("foo", ClusterEvent.NODE_ADD, fooNodeAddHint).preEnqueue("foo", "foo")
        .realPlugin(SchedulingGatesPlugin.NAME).build();
  }

  /** {@link #P} popped, rejected by foo, then gated by foo's PreEnqueue on an activation: it still backs off. */
  private void attemptedThenGatedByFoo() {
    h.add(P);
    h.requeue(h.pop(P), "foo");
    assertThat(h.where(P)).isEqualTo(Where.UNSCHEDULABLE);
    h.allowLists.put("foo", List.of());
    h.q.activate(List.of(P.metadata().key()), h.now);
    assertThat(h.where(P)).isEqualTo(Where.GATED);
    assertThat(h.q.get(P.metadata().key()).gatedBy).isEqualTo("foo");
    h.allowLists.put("foo", List.of("foo")); // foo's PreEnqueue would now admit it
  }

  private void nodeAdd() {
    h.q.moveAllToActiveOrBackoff(ClusterEvent.NODE_ADD, null, Node.builder().name("node").build(), h.now);
  }

  /**
   * "QueueHintFunction is not called when Pod is gated by the plugin that isn't interested in the event": SchedulingGates
   * registers no NodeAdd, so neither foo's hint (an error, which would queue) nor PreEnqueue runs.
   */
  @Test
  void gatedByAPluginNotInterested_hintNotCalled_staysGated() {
    setUp(Hint.ERROR);
    Pod gated = P.toBuilder().schedulingGate("example.com/gate").build();
    h.add(gated);
    assertThat(h.q.get(gated.metadata().key()).gatedBy).isEqualTo(SchedulingGatesPlugin.NAME);
    int preEnqueueRuns = h.preEnqueueCalls.get("foo");
    nodeAdd();
    assertThat(h.where(gated)).isEqualTo(Where.GATED);
    assertThat(h.hintCalls).isZero();
    assertThat(h.preEnqueueCalls.get("foo")).isEqualTo(preEnqueueRuns);
  }

  /** "QueueHintFunction is called when Pod is gated by the plugin that is interested in the event": to backoffQ. */
  @Test
  void gatedByAPluginInterested_hintQueues_toBackoffQ() {
    setUp(Hint.QUEUE);
    attemptedThenGatedByFoo();
    nodeAdd();
    assertThat(h.hintCalls).isEqualTo(1);
    assertThat(h.where(P)).isEqualTo(Where.BACKOFF);
  }

  /**
   * "Pod that experienced a scheduling failure before should be queued to backoffQ after un-gated" (0113538e); its
   * backoff over, PreEnqueue admits it into activeQ.
   */
  @Test
  void attemptedPodUngatedByAnEvent_backsOffThenActive() {
    setUp(Hint.QUEUE);
    attemptedThenGatedByFoo();
    nodeAdd();
    assertThat(h.where(P)).isEqualTo(Where.BACKOFF);
    assertThat(h.q.gatedSize()).isZero();
    h.now += INITIAL_BACKOFF;
    h.q.flushBackoffCompleted(h.now);
    assertThat(h.where(P)).isEqualTo(Where.ACTIVE);
  }

  /** FleetKit's own: the gating plugin's hint saying Skip keeps the pod gated, PreEnqueue not run. */
  @Test
  void gatedByAPluginInterested_hintSkips_staysGated() {
    setUp(Hint.SKIP);
    attemptedThenGatedByFoo();
    int preEnqueueRuns = h.preEnqueueCalls.get("foo");
    nodeAdd();
    assertThat(h.hintCalls).isEqualTo(1);
    assertThat(h.where(P)).isEqualTo(Where.GATED);
    assertThat(h.preEnqueueCalls.get("foo")).isEqualTo(preEnqueueRuns);
  }

  /** Later version, "Queue queues pod to backoffQ if Pod is not gated and the event is wildcard": no hint asked. */
  @Test
  void notGated_wildcard_toBackoffQWithoutHints() {
    setUp(Hint.ERROR);
    h.add(P);
    h.requeue(h.pop(P), "foo");
    h.q.moveAllToActiveOrBackoff(h.now);
    assertThat(h.where(P)).isEqualTo(Where.BACKOFF);
    assertThat(h.hintCalls).isZero();
  }

  /**
   * Later version, "Queue queues pod to backoffQ when Pod is no longer gated and the event is wildcard": a wildcard
   * event re-checks every gated pod, whatever its gating plugin registered.
   */
  @Test
  void gated_wildcard_noLongerGated_toBackoffQ() {
    setUp(Hint.ERROR);
    attemptedThenGatedByFoo();
    h.q.moveAllToActiveOrBackoff(h.now);
    assertThat(h.where(P)).isEqualTo(Where.BACKOFF);
    assertThat(h.hintCalls).isZero();
  }

  /** Later version, "Queue queues pod to unschedulableQ when Pod is gated and the event is wildcard". */
  @Test
  void gated_wildcard_stillGated_staysGated() {
    setUp(Hint.ERROR);
    h.add(GATED_POD);
    assertThat(h.where(GATED_POD)).isEqualTo(Where.GATED);
    int preEnqueueRuns = h.preEnqueueCalls.get("foo");
    h.q.moveAllToActiveOrBackoff(h.now);
    assertThat(h.where(GATED_POD)).isEqualTo(Where.GATED);
    assertThat(h.q.get(GATED_POD.metadata().key()).gatedBy).isEqualTo("foo");
    assertThat(h.preEnqueueCalls.get("foo")).isEqualTo(preEnqueueRuns + 1);
    assertThat(h.hintCalls).isZero();
  }

  /**
   * FleetKit's own: a pod gated by SchedulingGates is left alone by every event but its own gates going (no PreEnqueue
   * run), and enters activeQ when they go.
   */
  @Test
  void schedulingGated_onlyItsGatesGoingReleasesIt() {
    setUp(Hint.QUEUE);
    Pod gated = P.toBuilder().schedulingGate("example.com/gate").build();
    h.add(gated);
    int preEnqueueRuns = h.preEnqueueCalls.get("foo");
    for (ClusterEvent e : List.of(ClusterEvent.NODE_ADD, ClusterEvent.NODE_UPDATE, ClusterEvent.ASSIGNED_POD_ADD,
        ClusterEvent.ASSIGNED_POD_DELETE, ClusterEvent.UNSCHEDULED_POD_ADD, ClusterEvent.STORAGE)) {
      h.q.moveAllToActiveOrBackoff(e, h.now);
      h.q.moveAllToActiveOrBackoff(e, null, null, h.now);
      assertThat(h.where(gated)).as(e.toString()).isEqualTo(Where.GATED);
    }
    assertThat(h.preEnqueueCalls.get("foo")).isEqualTo(preEnqueueRuns);
    h.update(P);
    assertThat(h.where(P)).isEqualTo(Where.ACTIVE);
  }
}
