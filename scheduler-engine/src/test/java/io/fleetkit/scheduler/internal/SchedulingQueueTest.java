package io.fleetkit.scheduler.internal;

import static io.fleetkit.scheduler.testing.Fixtures.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.framework.ClusterEvent;
import io.fleetkit.api.framework.CycleState;
import io.fleetkit.api.framework.EnqueueExtensions;
import io.fleetkit.api.framework.FilterPlugin;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.PreEnqueuePlugin;
import io.fleetkit.api.framework.SchedulerProfile;
import io.fleetkit.api.framework.Status;
import io.fleetkit.api.framework.WaitingPods;
import io.fleetkit.scheduler.PendingPod;
import io.fleetkit.scheduler.PluginRegistry;
import io.fleetkit.scheduler.plugins.prioritysort.PrioritySortPlugin;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Queue semantics with explicit time, after kube's {@code scheduling_queue_test.go} scenarios. */
final class SchedulingQueueTest {
  private static final long S = 1_000_000_000L;
  private final Set<String> gatedNames = new HashSet<>();
  private final Framework fw;
  private final SchedulingQueue q;

  SchedulingQueueTest() {
    PreEnqueuePlugin gate = new PreEnqueuePlugin() {
      @Override
      public String name() {
        return "Gate";
      }

      @Override
      public Status preEnqueue(Pod pod) {
        return gatedNames.contains(pod.metadata().name()) ? Status.unresolvable("gated") : Status.success();
      }
    };
    PluginRegistry reg = PluginRegistry.defaults().with("Gate", h -> gate).with("Picky", h -> new Picky());
    SchedulerProfile p = SchedulerProfile.builder("s").plugin(PrioritySortPlugin.NAME).plugin("Gate").plugin("Picky")
        .build();
    fw = new Framework(p, reg, Clock.systemUTC(), new ClusterSnapshot(), WaitingPods.NONE, new ClusterObjects());
    q = new SchedulingQueue(fw.queueSort, S, 10 * S, 300 * S);
  }

  /** A filter that registers only node additions. */
  private static final class Picky implements FilterPlugin, EnqueueExtensions {
    @Override
    public String name() {
      return "Picky";
    }

    @Override
    public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
      return Status.unschedulable("picky");
    }

    @Override
    public Set<ClusterEvent> eventsToRegister() {
      return Set.of(ClusterEvent.NODE_ADD);
    }
  }

  @Test
  void moveAll_onlyEventsRegisteredByRejectingPluginsMovePods() {
    add("picky", 0, 0);
    add("other", 0, 0);
    QueuedPod a = q.pop(0);
    QueuedPod b = q.pop(0);
    QueuedPod picky = a.key().equals("default/picky") ? a : b;
    QueuedPod other = picky == a ? b : a;
    q.requeueAfterFailure(picky, Status.Code.UNSCHEDULABLE, "picky", Set.of("Picky"), 0);
    q.requeueAfterFailure(other, Status.Code.UNSCHEDULABLE, "x", Set.of("NotEnqueueAware"), 0);
    assertThat(q.moveAllToActiveOrBackoff(ClusterEvent.ASSIGNED_POD_DELETE, 10 * S)).isEqualTo(1);
    assertThat(q.unschedulableSize()).isEqualTo(1);
    assertThat(q.get("default/picky").where).isEqualTo(QueuedPod.Where.UNSCHEDULABLE);
    assertThat(q.moveAllToActiveOrBackoff(ClusterEvent.NODE_ADD, 10 * S)).isEqualTo(1);
    assertThat(q.unschedulableSize()).isZero();
  }

  @Test
  void activate_gatedPod_movesOnlyOncePreEnqueueAdmitsIt() {
    gatedNames.add("g");
    add("g", 0, 0);
    assertThat(q.activate(List.of("default/g"), 0)).isZero();
    assertThat(q.get("default/g").where).isEqualTo(QueuedPod.Where.GATED);
    gatedNames.clear();
    assertThat(q.activate(List.of("default/g"), 0)).isEqualTo(1);
    assertThat(q.get("default/g").where).isEqualTo(QueuedPod.Where.ACTIVE);
  }

  @Test
  void activate_podWaitingOnPermit_backsOffWhenRejected() {
    add("w", 0, 0);
    QueuedPod w = q.pop(0);
    q.markWaiting(w);
    q.activate(List.of("default/w"), 0);
    q.requeueAfterFailure(w, Status.Code.UNSCHEDULABLE, "rejected", Set.of("Picky"), 0);
    assertThat(w.where).as("the activation during its wait helps it").isEqualTo(QueuedPod.Where.BACKOFF);
  }

  /**
   * As kube's {@code Pop} (the contract behind upstream's TestPop and Test_InFlightPods "popped pod must have empty
   * UnschedulablePlugins and PendingPlugins"): the rejecting plugins of the last attempt are not carried into the next
   * one, whose result (and trace) names only its own; a failure naming no plugin then backs off.
   */
  @Test
  void pop_clearsTheLastAttemptsRejectors() {
    add("p", 0, 0);
    QueuedPod p = q.pop(0);
    q.requeueAfterFailure(p, Status.Code.UNSCHEDULABLE, "picky", Set.of("Picky"), 0);
    assertThat(p.rejectors).containsExactly("Picky");
    assertThat(q.moveAllToActiveOrBackoff(ClusterEvent.NODE_ADD, 10 * S)).isEqualTo(1);
    assertThat(q.pop(10 * S)).isSameAs(p);
    assertThat(p.rejectors).isEmpty();
    q.requeueAfterFailure(p, Status.Code.UNSCHEDULABLE, "failed", Set.of(), 10 * S);
    assertThat(p.where).isEqualTo(QueuedPod.Where.BACKOFF);
  }

  private QueuedPod add(String name, int priority, long now) {
    QueuedPod p = new QueuedPod(EnginePodInfo.of(pod(name, 100, 10, priority)), fw, now);
    q.add(p);
    return p;
  }

  @Test
  void backoffDuration_doublesFromOneSecondUpToTen() {
    assertThat(q.backoffDuration(1)).isEqualTo(S);
    assertThat(q.backoffDuration(2)).isEqualTo(2 * S);
    assertThat(q.backoffDuration(3)).isEqualTo(4 * S);
    assertThat(q.backoffDuration(4)).isEqualTo(8 * S);
    assertThat(q.backoffDuration(5)).isEqualTo(10 * S);
    assertThat(q.backoffDuration(50)).isEqualTo(10 * S);
  }

  @Test
  void errors_backOff_1_2_4_8_10_seconds() {
    add("p", 0, 0);
    long now = 0;
    long[] expected = {1, 2, 4, 8, 10, 10};
    for (long waitSeconds : expected) {
      QueuedPod p = q.pop(now);
      assertThat(p).isNotNull();
      q.requeueAfterFailure(p, Status.Code.ERROR, "boom", Set.of(), now);
      assertThat(q.pop(now + waitSeconds * S - 1)).as("still backing off").isNull();
      now += waitSeconds * S;
    }
    assertThat(q.pop(now)).isNotNull();
  }

  @Test
  void pop_ordersByPriorityThenTimestamp() {
    add("a", 1, 10);
    add("b", 5, 20);
    add("c", 5, 5);
    add("d", 1, 1);
    List<String> order = new ArrayList<>();
    QueuedPod p;
    while ((p = q.pop(100)) != null) {
      order.add(p.info.pod().metadata().name());
    }
    assertThat(order).containsExactly("c", "b", "d", "a");
  }

  @Test
  void unschedulable_flushedAfterFiveMinutes_thenPoppedByPriority() {
    add("low", 1, 0);
    add("high", 9, 0);
    QueuedPod a = q.pop(0);
    QueuedPod b = q.pop(0);
    q.requeueAfterFailure(a, Status.Code.UNSCHEDULABLE, "no", Set.of("Picky"), 0);
    q.requeueAfterFailure(b, Status.Code.UNSCHEDULABLE, "no", Set.of("Picky"), 0);
    q.flushUnschedulableLeftover(300 * S - 1);
    assertThat(q.unschedulableSize()).isEqualTo(2);
    q.flushUnschedulableLeftover(300 * S + S);
    assertThat(q.unschedulableSize()).isZero();
    assertThat(q.pop(300 * S + S).info.pod().metadata().name()).isEqualTo("high");
    assertThat(q.pop(300 * S + S).info.pod().metadata().name()).isEqualTo("low");
  }

  @Test
  void moveAll_sendsBackingOffPodsToBackoffAndOthersToActive() {
    add("recent", 0, 0);
    add("old", 0, 0);
    QueuedPod r = q.pop(0);
    QueuedPod o = q.pop(0);
    q.requeueAfterFailure(o, Status.Code.UNSCHEDULABLE, "no", Set.of("Picky"), 0);
    q.requeueAfterFailure(r, Status.Code.UNSCHEDULABLE, "no", Set.of("Picky"), 5 * S);
    assertThat(q.moveAllToActiveOrBackoff(ClusterEvent.NODE_ADD, 5 * S)).isEqualTo(2);
    assertThat(q.activeSize()).isEqualTo(1);
    assertThat(q.backoffSize()).isEqualTo(1);
    assertThat(q.pop(5 * S).info.pod().metadata().name()).isEqualTo("old");
  }

  @Test
  void rejectionDuringCycleWithMoveRequest_goesToBackoffNotUnschedulable() {
    add("p", 0, 0);
    QueuedPod p = q.pop(0);
    q.moveAllToActiveOrBackoff(ClusterEvent.NODE_ADD, 0); // a cluster event while p was being scheduled
    q.requeueAfterFailure(p, Status.Code.UNSCHEDULABLE, "no", Set.of("Picky"), 0);
    assertThat(q.unschedulableSize()).isZero();
    assertThat(q.backoffSize()).isEqualTo(1);
  }

  @Test
  void rejectionDuringCycleWithUnregisteredEvent_parksThePod() {
    add("p", 0, 0);
    QueuedPod p = q.pop(0);
    q.moveAllToActiveOrBackoff(ClusterEvent.ASSIGNED_POD_DELETE, 0); // Picky did not register it
    q.requeueAfterFailure(p, Status.Code.UNSCHEDULABLE, "no", Set.of("Picky"), 0);
    assertThat(q.unschedulableSize()).isEqualTo(1);
  }

  @Test
  void rejectionNamingNoPlugin_backsOff() {
    add("p", 0, 0);
    q.requeueAfterFailure(q.pop(0), Status.Code.UNSCHEDULABLE, "no", Set.of(), 0);
    assertThat(q.backoffSize()).isEqualTo(1);
  }

  @Test
  void preEnqueue_gatesUntilAnEventLiftsTheGate() {
    gatedNames.add("g");
    add("g", 0, 0);
    assertThat(q.gatedSize()).isEqualTo(1);
    assertThat(q.pop(0)).isNull();
    assertThat(q.pending()).singleElement().satisfies(pp -> {
      assertThat(pp.queue()).isEqualTo(PendingPod.Queue.GATED);
      assertThat(pp.message()).isEqualTo("gated");
    });
    q.moveAllToActiveOrBackoff(ClusterEvent.NODE_ADD, 0);
    assertThat(q.gatedSize()).isEqualTo(1);
    gatedNames.clear();
    q.moveAllToActiveOrBackoff(ClusterEvent.NODE_ADD, 0);
    assertThat(q.pop(0)).isNotNull();
  }

  @Test
  void everyPodIsInExactlyOnePlace_neverLost() {
    for (int i = 0; i < 50; i++) {
      add("p" + i, i % 3, i);
    }
    long now = 100;
    for (int round = 0; round < 20; round++) {
      QueuedPod p = q.pop(now);
      if (p != null) {
        q.requeueAfterFailure(p, round % 2 == 0 ? Status.Code.UNSCHEDULABLE : Status.Code.ERROR, "x", Set.of(), now);
      }
      if (round % 5 == 0) {
        q.moveAllToActiveOrBackoff(ClusterEvent.NODE_ADD, now);
      }
      now += S / 2;
      assertThat(q.activeSize() + q.backoffSize() + q.unschedulableSize() + q.gatedSize()).isEqualTo(50);
      assertThat(q.size()).isEqualTo(50);
    }
    assertThat(q.remove("default/p7")).isNotNull();
    assertThat(q.size()).isEqualTo(49);
    assertThat(q.activeSize() + q.backoffSize() + q.unschedulableSize() + q.gatedSize()).isEqualTo(49);
  }
}
