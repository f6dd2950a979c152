package io.fleetkit.scheduler.internal;

import static io.fleetkit.scheduler.internal.QueueHarness.MAX_BACKOFF;
import static io.fleetkit.scheduler.internal.QueueHarness.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.framework.ClusterEvent;
import io.fleetkit.scheduler.internal.QueueHarness.Hint;
import io.fleetkit.scheduler.internal.QueuedPod.Where;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/**
 * {@code TestMoveAllToActiveOrBackoffQueue_PreEnqueueChecks}, all 5 rows, from {@code kubernetes/kubernetes
 * pkg/scheduler/backend/queue/scheduling_queue_test.go} (commit 0113538e59bdee8f21d1948e27360427cfb349f8): pods p0..p4
 * (priority 0..4) rejected by {@code "plugin"} are parked; a move with a {@code PreEnqueueCheck} moves only the pods
 * the check accepts (to backoffQ, their backoff not over), and a check is not run for an event no plugin registered.
 * Upstream's {@code "plugin"} is in no hint map, so only the wildcard interests it; here it is a profile plugin
 * registering only NodeAdd (a name outside the profile would move on every event), and upstream's PvAdd is
 * {@link ClusterEvent#STORAGE}.
 */
final class SchedulingQueuePreEnqueueCheckUpstreamTest {
  private final QueueHarness h = new QueueHarness();
  private final List<Pod> pods = new ArrayList<>();

  private void park() {
    h.hint("plugin", ClusterEvent.NODE_ADD, Hint.QUEUE).build();
    for (int i = 0; i < 5; i++) {
      Pod p = pod("p" + i, "default", i);
      pods.add(p);
      h.add(p);
      h.requeue(h.pop(p), "plugin");
      assertThat(h.where(p)).isEqualTo(Where.UNSCHEDULABLE);
    }
  }

  private static int priority(Pod p) {
    return p.spec().priority();
  }

  /** The pods moved (backing off now, in activeQ once the backoff is over); the others stay parked. */
  private void assertMoved(String... want) {
    assertThat(h.names(Where.BACKOFF)).containsExactly(want);
    assertThat(h.names(Where.UNSCHEDULABLE)).hasSize(5 - want.length);
    h.now += 2 * MAX_BACKOFF;
    h.q.flushBackoffCompleted(h.now);
    assertThat(h.names(Where.ACTIVE)).containsExactly(want);
    assertThat(h.q.backoffSize()).isZero();
  }

  /** "nil PreEnqueueCheck". */
  @Test
  void noCheck_movesEveryPod() {
    park();
    assertThat(h.q.moveAllToActiveOrBackoff(h.now)).isEqualTo(5);
    assertMoved("p0", "p1", "p2", "p3", "p4");
  }

  /** "move Pods with priority greater than 2". */
  @Test
  void check_priorityAtLeast2() {
    park();
    assertThat(h.q.moveAllToActiveOrBackoff(null, p -> priority(p) >= 2, h.now)).isEqualTo(3);
    assertMoved("p2", "p3", "p4");
  }

  /** "move Pods with even priority and greater than 2". */
  @Test
  void check_evenPriorityAtLeast2() {
    park();
    assertThat(h.q.moveAllToActiveOrBackoff(null, p -> priority(p) % 2 == 0 && priority(p) >= 2, h.now))
        .isEqualTo(2);
    assertMoved("p2", "p4");
  }

  /** "move Pods with even and negative priority". */
  @Test
  void check_evenAndNegativePriority_movesNothing() {
    park();
    assertThat(h.q.moveAllToActiveOrBackoff(null, p -> priority(p) % 2 == 0 && priority(p) < 0, h.now)).isZero();
    assertMoved();
  }

  /** "preCheck isn't called if the event is not interested by any plugins". */
  @Test
  void check_notCalledForAnEventNoPluginRegistered() {
    park();
    Predicate<Pod> panic = p -> {
      throw new AssertionError("preCheck shouldn't be called");
    };
    assertThat(h.q.moveAllToActiveOrBackoff(ClusterEvent.STORAGE, panic, h.now)).isZero();
    assertMoved();
  }

  /** Beyond upstream: an event the rejecting plugin registered, with a check, moves only the accepted pods. */
  @Test
  void check_registeredEvent_movesOnlyAcceptedPods() {
    park();
    List<String> asked = new ArrayList<>();
    assertThat(h.q.moveAllToActiveOrBackoff(ClusterEvent.NODE_ADD, p -> {
      asked.add(p.metadata().name());
      return priority(p) == 1;
    }, h.now)).isEqualTo(1);
    assertThat(asked).containsExactlyInAnyOrder("p0", "p1", "p2", "p3", "p4");
    assertMoved("p1");
  }
}
