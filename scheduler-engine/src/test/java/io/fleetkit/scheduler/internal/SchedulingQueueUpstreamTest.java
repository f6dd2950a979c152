package io.fleetkit.scheduler.internal;

import static io.fleetkit.scheduler.internal.QueueHarness.INITIAL_BACKOFF;
import static io.fleetkit.scheduler.internal.QueueHarness.MAX_BACKOFF;
import static io.fleetkit.scheduler.internal.QueueHarness.MAX_IN_UNSCHEDULABLE;
import static io.fleetkit.scheduler.internal.QueueHarness.S;
import static io.fleetkit.scheduler.internal.QueueHarness.hpp;
import static io.fleetkit.scheduler.internal.QueueHarness.hppNominated;
import static io.fleetkit.scheduler.internal.QueueHarness.mpp;
import static io.fleetkit.scheduler.internal.QueueHarness.nominated;
import static io.fleetkit.scheduler.internal.QueueHarness.pod;
import static io.fleetkit.scheduler.internal.QueueHarness.up;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.framework.ClusterEvent;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.Status;
import io.fleetkit.scheduler.PendingPod;
import io.fleetkit.scheduler.internal.QueueHarness.Hint;
import io.fleetkit.scheduler.internal.QueuedPod.Where;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The queue's basic operations, ported from {@code kubernetes/kubernetes
 * pkg/scheduler/backend/queue/scheduling_queue_test.go} (commit 0113538e59bdee8f21d1948e27360427cfb349f8). Upstream's
 * {@code Add}/{@code Update}/{@code Delete} are FleetKit's event handlers (which also keep the nominator), its fake
 * clock is {@link QueueHarness#now}, its {@code EventUnschedulableTimeout} wildcard move is
 * {@link SchedulingQueue#moveAllToActiveOrBackoff(long)}, and its rejecting plugin {@code "plugin"}, which no hint
 * names, is a name outside the profile (such a rejector moves on every event).
 */
final class SchedulingQueueUpstreamTest {
  private final QueueHarness h = new QueueHarness();

  /** TestPriorityQueue_Add. */
  @Test
  void add_popsByPriority_andNominatesPodsWithNominatedNodeName() {
    h.build();
    h.add(mpp());
    h.add(up());
    h.add(hpp());
    assertThat(h.nominator.forNode("node1")).extracting(PodInfo::key).containsExactly("ns2/mpp", "ns1/up");
    assertThat(h.nominator.nodeOf("ns1/hpp")).isNull();
    h.pop(hpp());
    h.pop(mpp());
    h.pop(up());
    assertThat(h.nominator.forNode("node1")).hasSize(2);
  }

  /** TestPriorityQueue_AddWithReversePriorityLessFunc. */
  @Test
  void add_higherPriorityAddedLater_popsFirst() {
    h.build();
    h.add(mpp());
    h.add(hpp());
    h.pop(hpp());
    h.pop(mpp());
  }

  /** TestPriorityQueue_AddUnschedulableIfNotPresent. */
  @Test
  void addUnschedulable_noEventDuringAttempt_parksThePod() {
    h.build();
    h.add(up());
    QueuedPod p = h.pop(up());
    h.add(hppNominated());
    h.requeue(p, "plugin");
    h.pop(hppNominated());
    assertThat(h.nominator.forNode("node1")).extracting(PodInfo::key).containsExactlyInAnyOrder("ns1/up", "ns1/hpp");
    assertThat(h.where(up())).isEqualTo(Where.UNSCHEDULABLE);
  }

  /** TestPriorityQueue_AddUnschedulableIfNotPresent_Backoff. */
  @Test
  void addUnschedulable_moveRequestDuringAttempt_backsOff() {
    h.build();
    List<Pod> pods = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      pods.add(pod("pod" + i, "ns" + i, i));
      h.add(pods.get(i));
    }
    List<QueuedPod> popped = new ArrayList<>();
    for (int i = 9; i > 0; i--) {
      popped.add(h.pop(pods.get(i)));
    }
    h.q.moveAllToActiveOrBackoff(h.now);
    h.pop(pods.get(0));
    for (QueuedPod p : popped) {
      h.requeue(p, "plugin");
    }
    for (int i = 1; i < 10; i++) {
      assertThat(h.where(pods.get(i))).as(pods.get(i).metadata().name()).isEqualTo(Where.BACKOFF);
    }
  }

  /**
   * TestPriorityQueue_Pop, "Pop pod only from activeQ when PopFromBackoffQ is disabled": pods backing off (one
   * rejected naming no plugin, one failed by an error) and a parked pod are not popped.
   */
  @Test
  void pop_onlyFromActiveQ() {
    h.build();
    Pod hpp2 = pod("hpp2", "ns1", 1000);
    h.add(up());
    h.requeue(h.pop(up()), "plugin");
    h.add(hpp());
    h.add(hpp2);
    h.requeue(h.pop(hpp()));
    h.q.requeueAfterFailure(h.pop(hpp2), Status.Code.ERROR, "boom", Set.of(), h.now);
    h.add(mpp());
    assertThat(h.names(Where.BACKOFF)).containsExactly("hpp", "hpp2");
    assertThat(h.drain()).containsExactly("mpp");
  }

  /** TestPriorityQueue_Delete. */
  @Test
  void delete_removesFromActiveQAndNominator() {
    h.build();
    h.update(hppNominated()); // not queued yet: added
    h.add(up());
    h.delete(hppNominated());
    assertThat(h.where(up())).isEqualTo(Where.ACTIVE);
    assertThat(h.where(hpp())).isEqualTo(Where.NONE);
    assertThat(h.nominator.forNode("node1")).extracting(PodInfo::key).containsExactly("ns1/up");
    h.delete(up());
    assertThat(h.nominator.isEmpty()).isTrue();
  }

  // --------------------------------------------------------------------------------- TestPriorityQueue_Activate

  /** Activates upstream's {@code highPriNominatedPodInfo}, as {@code q.Activate(map{"test_pod": pod})}. */
  private int activateHpp() {
    return h.q.activate(List.of(hppNominated().metadata().key()), h.now);
  }

  /** TestPriorityQueue_Activate, "pod already in activeQ". */
  @Test
  void activate_podAlreadyInActiveQ_staysThere() {
    h.build();
    h.add(hppNominated());
    assertThat(activateHpp()).isZero();
    assertThat(h.q.activeSize()).isEqualTo(1);
    assertThat(h.where(hppNominated())).isEqualTo(Where.ACTIVE);
  }

  /** TestPriorityQueue_Activate, "pod not in unschedulablePods/backoffQ". */
  @Test
  void activate_unknownPod_isIgnored() {
    h.build();
    assertThat(activateHpp()).isZero();
    assertThat(h.q.activeSize()).isZero();
    assertThat(h.q.size()).isZero();
  }

  /**
   * TestPriorityQueue_Activate, "[QHint] pod not in unschedulablePods/backoffQ but in-flight": the activation is
   * recorded as an in-flight wildcard event aimed at the pod (upstream's {@code EventForceActivate} with the pod as
   * its new object, no old object).
   */
  @Test
  void activate_podInFlight_recordsAForceActivateEventForIt() {
    h.build();
    h.add(hppNominated());
    h.pop(hppNominated());
    assertThat(activateHpp()).isZero();
    assertThat(h.q.activeSize()).isZero();
    assertThat(h.q.inFlightEvents()).singleElement().satisfies(e -> {
      assertThat(e.event()).isNull();
      assertThat(e.oldObject()).isNull();
      assertThat(e.newObject()).isEqualTo(hppNominated());
    });
  }

  /** TestPriorityQueue_Activate, "[QHint] pod not in unschedulablePods/backoffQ and not in-flight". */
  @Test
  void activate_anotherPodInFlight_recordsNothing() {
    h.build();
    h.add(mpp());
    h.pop(mpp());
    assertThat(activateHpp()).isZero();
    assertThat(h.q.activeSize()).isZero();
    assertThat(h.q.inFlightEvents()).isEmpty();
  }

  /** TestPriorityQueue_Activate, "pod in unschedulablePods". */
  @Test
  void activate_parkedPod_movesToActiveQ() {
    h.build();
    h.add(hppNominated());
    h.requeue(h.pop(hppNominated()), "plugin");
    assertThat(h.where(hppNominated())).isEqualTo(Where.UNSCHEDULABLE);
    assertThat(activateHpp()).isEqualTo(1);
    assertThat(h.q.activeSize()).isEqualTo(1);
    assertThat(h.where(hppNominated())).isEqualTo(Where.ACTIVE);
    assertThat(h.q.unschedulableSize()).isZero();
  }

  /** TestPriorityQueue_Activate, "pod in backoffQ": moved to activeQ though still backing off. */
  @Test
  void activate_podBackingOff_movesToActiveQ() {
    h.build();
    h.add(hppNominated());
    h.requeue(h.pop(hppNominated())); // no rejecting plugin: backoffQ
    assertThat(h.where(hppNominated())).isEqualTo(Where.BACKOFF);
    assertThat(activateHpp()).isEqualTo(1);
    assertThat(h.q.activeSize()).isEqualTo(1);
    assertThat(h.where(hppNominated())).isEqualTo(Where.ACTIVE);
    assertThat(h.q.backoffSize()).isZero();
  }

  /** TestPriorityQueue_NominatedPodsForNode (upstream's deep-copy check has no Java counterpart: pods are records). */
  @Test
  void nominatedPodsForNode_listsPendingNominatedPods() {
    h.build();
    h.add(mpp());
    h.add(up());
    h.add(hpp());
    h.pop(hpp());
    assertThat(h.nominator.forNode("node1")).extracting(PodInfo::key).containsExactly("ns2/mpp", "ns1/up");
    assertThat(h.nominator.forNode("node2")).isNullOrEmpty();
  }

  /** TestPriorityQueue_PendingPods. */
  @Test
  void pendingPods_listEveryQueuedPodWithItsQueue() {
    h.build();
    h.add(up());
    QueuedPod u = h.pop(up());
    h.add(hpp());
    QueuedPod hi = h.pop(hpp());
    h.add(mpp());
    h.requeue(u, "plugin");
    h.requeue(hi, "plugin");
    assertThat(h.q.pending()).extracting(PendingPod::podKey).containsExactlyInAnyOrder("ns2/mpp", "ns1/up", "ns1/hpp");
    assertThat(summary()).containsExactly(1, 0, 2);
    h.q.moveAllToActiveOrBackoff(h.now);
    assertThat(h.q.pending()).extracting(PendingPod::podKey).containsExactlyInAnyOrder("ns2/mpp", "ns1/up", "ns1/hpp");
    assertThat(summary()).containsExactly(1, 2, 0);
  }

  /** Upstream's pending pods summary: activeQ, backoffQ, unschedulablePods. */
  private List<Integer> summary() {
    return List.of(h.q.activeSize(), h.q.backoffSize(), h.q.unschedulableSize());
  }

  /** TestPriorityQueue_NewWithOptions. */
  @Test
  void newWithOptions_backoffBoundsAreTheConfiguredOnes() {
    h.build(2 * S, 20 * S, MAX_IN_UNSCHEDULABLE);
    assertThat(h.q.backoffDuration(1)).isEqualTo(2 * S);
    assertThat(h.q.backoffDuration(100)).isEqualTo(20 * S);
  }

  /** TestRecentlyTriedPodsGoBack. */
  @Test
  void recentlyTriedPods_goBehindPodsOfTheSamePriority() {
    h.build();
    for (int i = 0; i < 5; i++) {
      h.add(nominated(pod("test-pod-" + i, "ns1", 1000), "node1"));
    }
    h.now += 1_000;
    QueuedPod p1 = h.pop();
    h.requeue(p1, "plugin");
    h.now += MAX_BACKOFF;
    h.q.moveAllToActiveOrBackoff(h.now);
    for (int i = 0; i < 5; i++) {
      QueuedPod p = h.pop();
      assertThat(p == p1).as("pop %d is the pod tried before", i).isEqualTo(i == 4);
    }
  }

  /** TestPodFailedSchedulingMultipleTimesDoesNotBlockNewerPod. */
  @Test
  void podFailedMultipleTimes_doesNotBlockNewerPod() {
    h.build();
    Pod unschedulable = nominated(pod("test-pod-unscheduled", "ns1", 1000), "node1");
    h.add(unschedulable);
    h.requeue(h.pop(unschedulable), "plugin");
    h.now += INITIAL_BACKOFF + S;
    h.q.moveAllToActiveOrBackoff(h.now);
    QueuedPod p1 = h.pop(unschedulable);
    Pod newer = nominated(pod("test-newer-pod", "ns1", 1000), "node1");
    h.add(newer);
    h.requeue(p1, "plugin");
    h.now += INITIAL_BACKOFF + S;
    h.q.moveAllToActiveOrBackoff(h.now);
    h.pop(newer);
  }

  /** TestHighPriorityBackoff. */
  @Test
  void highPriorityBackoff_doesNotBlockOthers() {
    h.build();
    Pod mid = nominated(pod("test-midpod", "ns1", 100), "node1");
    Pod high = nominated(pod("test-highpod", "ns1", 1000), "node1");
    h.add(mid);
    h.add(high);
    QueuedPod p = h.pop(high);
    h.requeue(p); // no rejecting plugin: backoffQ
    h.q.moveAllToActiveOrBackoff(h.now);
    h.pop(mid);
  }

  /** TestHighPriorityFlushUnschedulablePodsLeftover. */
  @Test
  void flushUnschedulableLeftover_movesPodsAfterTheLimit_poppedByPriority() {
    h.hint("fakePlugin", ClusterEvent.NODE_ADD, Hint.QUEUE).build();
    Pod mid = nominated(pod("test-midpod", "ns1", 100), "node1");
    Pod high = nominated(pod("test-highpod", "ns1", 1000), "node1");
    h.add(high);
    QueuedPod hp = h.pop(high);
    h.add(mid);
    QueuedPod mp = h.pop(mid);
    h.requeue(hp, "fakePlugin");
    h.requeue(mp, "fakePlugin");
    h.now += MAX_IN_UNSCHEDULABLE + S;
    h.q.flushUnschedulableLeftover(h.now);
    h.pop(high);
    h.pop(mid);
  }

  /**
   * TestPriorityQueue_initPodMaxInUnschedulablePodsDuration, both rows (the default 5 minutes and 30 s): pods parked 2
   * s and 1 s before the queue's clock leave unschedulablePods after the limit, ordered by timestamp.
   */
  @Test
  void initPodMaxInUnschedulable_defaultAndUserDefined() {
    for (long limit : new long[] {MAX_IN_UNSCHEDULABLE, 30 * S}) {
      QueueHarness t = new QueueHarness();
      t.build(INITIAL_BACKOFF, MAX_BACKOFF, limit);
      Pod pod1 = nominated(pod("test-pod-1", "ns1", 0), "node1");
      Pod pod2 = nominated(pod("test-pod-2", "ns2", 0), "node2");
      t.now = 100 * S;
      t.add(pod1);
      t.add(pod2);
      QueuedPod p1 = t.pop(pod1);
      QueuedPod p2 = t.pop(pod2);
      t.q.requeueAfterFailure(p2, Status.Code.UNSCHEDULABLE, "x", Set.of("plugin"), t.now - 2 * S);
      t.q.requeueAfterFailure(p1, Status.Code.UNSCHEDULABLE, "x", Set.of("plugin"), t.now - S);
      t.now += limit;
      t.q.flushUnschedulableLeftover(t.now);
      assertThat(t.q.activeSize()).as("limit %d", limit).isEqualTo(2);
      assertThat(t.drain()).containsExactly("test-pod-2", "test-pod-1");
    }
  }

  /** TestPodTimestamp, "add two pod to activeQ and sort them by the timestamp". */
  @Test
  void podTimestamp_activeQSortsByTimestamp() {
    h.build();
    h.q.add(new QueuedPod(EnginePodInfo.of(pod("test-pod-2", "ns2", 0)), h.fw, S));
    h.q.add(new QueuedPod(EnginePodInfo.of(pod("test-pod-1", "ns1", 0)), h.fw, 0));
    assertThat(h.drain()).containsExactly("test-pod-1", "test-pod-2");
  }

  /** TestPodTimestamp, "add two pod to unschedulablePods then move them to activeQ and sort them by the timestamp". */
  @Test
  void podTimestamp_unschedulableMovedToActiveQ_sortedByTimestamp() {
    h.build();
    h.add(pod("test-pod-2", "ns2", 0));
    h.add(pod("test-pod-1", "ns1", 0));
    QueuedPod a = h.pop();
    QueuedPod b = h.pop();
    QueuedPod p2 = a.key().equals("ns2/test-pod-2") ? a : b;
    QueuedPod p1 = p2 == a ? b : a;
    h.q.requeueAfterFailure(p2, Status.Code.UNSCHEDULABLE, "x", Set.of("plugin"), S);
    h.q.requeueAfterFailure(p1, Status.Code.UNSCHEDULABLE, "x", Set.of("plugin"), 0);
    h.now = 3 * S;
    h.q.moveAllToActiveOrBackoff(h.now);
    assertThat(h.q.activeSize()).isEqualTo(2);
    assertThat(h.drain()).containsExactly("test-pod-1", "test-pod-2");
  }

  /** TestPodTimestamp, "add one pod to BackoffQ and move it to activeQ". */
  @Test
  void podTimestamp_backoffFlushedToActiveQ_sortedByTimestamp() {
    h.build();
    Pod pod1 = pod("test-pod-1", "ns1", 0);
    h.add(pod1);
    h.q.requeueAfterFailure(h.pop(pod1), Status.Code.ERROR, "x", Set.of(), 0);
    h.q.add(new QueuedPod(EnginePodInfo.of(pod("test-pod-2", "ns2", 0)), h.fw, S));
    h.now = 3 * S;
    h.q.flushBackoffCompleted(h.now);
    h.q.moveAllToActiveOrBackoff(h.now);
    assertThat(h.q.activeSize()).isEqualTo(2);
    assertThat(h.drain()).containsExactly("test-pod-1", "test-pod-2");
  }

  /**
   * TestPerPodSchedulingMetrics, the first three rows: attempts count pops, and the initial attempt timestamp stays.
   */
  @Test
  void perPodSchedulingMetrics_attemptsAndInitialAttemptTimestamp() {
    // "pod is created and scheduled after 1 attempt"
    QueueHarness t = new QueueHarness().build();
    Pod pod = pod("test-pod", "test-ns", 0);
    t.now = 7 * S;
    t.add(pod);
    QueuedPod p = t.pop(pod);
    assertThat(p.attempts).isEqualTo(1);
    assertThat(p.initialAttemptNanos).isEqualTo(7 * S);
    // "pod is created and scheduled after 2 attempts", with and without an update before the second pop
    for (boolean update : new boolean[] {false, true}) {
      t = new QueueHarness().build();
      t.now = 7 * S;
      t.add(pod);
      t.requeue(t.pop(pod), "plugin");
      t.now = 7 * S + MAX_IN_UNSCHEDULABLE + 1;
      t.q.flushUnschedulableLeftover(t.now);
      if (update) {
        t.update(pod.toBuilder().annotation("generation", "1").build());
      }
      p = t.pop(pod);
      assertThat(p.attempts).as("update %s", update).isEqualTo(2);
      assertThat(p.initialAttemptNanos).isEqualTo(7 * S);
    }
  }

  /**
   * TestPerPodSchedulingMetrics, "A gated pod is created and scheduled after lifting gate": the initial attempt
   * timestamp is when the pod first entered activeQ, a minute after it was queued gated.
   */
  @Test
  void perPodSchedulingMetrics_gatedPod_initialAttemptIsWhenTheGateLifted() {
    h.preEnqueue("preEnqueuePlugin", "foo").build();
    Pod pod = pod("test-pod", "test-ns", 0);
    h.now = 7 * S;
    h.add(pod);
    assertThat(h.where(pod)).isEqualTo(Where.GATED);
    h.now += 60 * S;
    h.update(pod.toBuilder().label("foo", "").build());
    QueuedPod p = h.pop(pod);
    assertThat(p.attempts).isEqualTo(1);
    assertThat(p.initialAttemptNanos).isEqualTo(67 * S);
    assertThat(p.queued.initialAttemptNanos()).isEqualTo(67 * S);
    // later attempts keep it
    h.requeue(p); // no rejecting plugin: backoffQ
    h.now += MAX_BACKOFF;
    assertThat(h.pop(pod).initialAttemptNanos).isEqualTo(67 * S);
  }

  /**
   * TestBackOffFlow, its 7 steps with PopFromBackoffQ off: each attempt backs off 1, 2, 4, 8, 10, 10, 10 s. Upstream
   * checks the pod is still backing off after one 1 s ordering window (a PopFromBackoffQ notion); here 1 ns before
   * the expiry.
   */
  @Test
  void backOffFlow_doublesUpToTheMaximum() {
    h.build();
    long[] want = {1, 2, 4, 8, 10, 10, 10};
    Pod pod = pod("test-pod", "test-ns", 0);
    h.add(pod);
    for (int i = 0; i < want.length; i++) {
      long timestamp = h.now;
      QueuedPod p = h.pop(pod);
      assertThat(p.attempts).as("step %d", i).isEqualTo(i + 1);
      h.requeue(p);
      h.q.moveAllToActiveOrBackoff(h.now);
      assertThat(p.where).as("step %d", i).isEqualTo(Where.BACKOFF);
      long backoff = p.backoffExpiryNanos - timestamp;
      assertThat(backoff).as("step %d", i).isEqualTo(want[i] * S);
      h.now += backoff - 1;
      h.q.flushBackoffCompleted(h.now);
      assertThat(p.where).as("step %d, early flush", i).isEqualTo(Where.BACKOFF);
      h.now += 1;
      h.q.flushBackoffCompleted(h.now);
      assertThat(p.where).as("step %d, after backoff", i).isEqualTo(Where.ACTIVE);
    }
  }

  /** Test_queuedPodInfo_gatedSetUponCreationAndUnsetUponUpdate (a PreEnqueue plugin in place of SchedulingGates). */
  @Test
  void gatedPod_gatedOnCreation_ungatedOnUpdate() {
    h.preEnqueue("gate", "ungated").build();
    Pod gated = pod("p", "default", 0);
    h.add(gated);
    assertThat(h.where(gated)).isEqualTo(Where.GATED);
    h.update(gated.toBuilder().label("ungated", "").build());
    QueuedPod p = h.pop(gated);
    assertThat(p.where).isEqualTo(Where.IN_FLIGHT);
  }

  /** TestPriorityQueue_GetPod, all 4 rows. */
  @Test
  void getPod_findsPodsInEveryQueue() {
    h.build();
    Pod pod1 = pod("pod1", "default", 0);
    Pod pod2 = pod("pod2", "default", 0);
    Pod pod3 = pod("pod3", "default", 0);
    h.add(pod2);
    h.add(pod3);
    QueuedPod a = h.pop();
    QueuedPod b = h.pop();
    QueuedPod p2 = a.key().equals("default/pod2") ? a : b;
    h.q.requeueAfterFailure(p2, Status.Code.ERROR, "x", Set.of(), h.now);
    h.requeue(p2 == a ? b : a, "plugin");
    h.add(pod1);
    assertThat(h.q.get("default/pod1").info.pod()).isEqualTo(pod1);
    assertThat(h.q.get("default/pod1").where).isEqualTo(Where.ACTIVE);
    assertThat(h.q.get("default/pod2").info.pod()).isEqualTo(pod2);
    assertThat(h.q.get("default/pod2").where).isEqualTo(Where.BACKOFF);
    assertThat(h.q.get("default/pod3").info.pod()).isEqualTo(pod3);
    assertThat(h.q.get("default/pod3").where).isEqualTo(Where.UNSCHEDULABLE);
    assertThat(h.q.get("default/pod4")).isNull();
  }
}
