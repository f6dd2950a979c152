package io.fleetkit.queueing.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.queueing.ClusterQueue;
import io.fleetkit.queueing.FlavorQuotas;
import io.fleetkit.queueing.FlavorResourceQuota;
import io.fleetkit.queueing.LocalQueue;
import io.fleetkit.queueing.QueueingStrategy;
import io.fleetkit.queueing.ResourceFlavor;
import io.fleetkit.queueing.StopPolicy;
import io.fleetkit.queueing.Workload;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link PendingWorkloads} over a real {@link QueueRegistry}: ClusterQueue {@code a} (BestEffortFIFO) behind
 * LocalQueue {@code team/qa}, ClusterQueue {@code b} (StrictFIFO) behind {@code team/qb}.
 */
final class PendingWorkloadsTest {
  private static final Instant T0 = Instant.parse("2026-03-01T12:00:00Z");

  private final QueueRegistry registry = new QueueRegistry(List.of(), gone -> pending().drop(gone));
  private final PendingWorkloads pending = new PendingWorkloads(registry);
  private long sequence;

  PendingWorkloadsTest() {
    registry.configure(List.of(ResourceFlavor.of("default")),
        List.of(cq("a", QueueingStrategy.BEST_EFFORT_FIFO), cq("b", QueueingStrategy.STRICT_FIFO)), List.of(),
        List.of(LocalQueue.of("team", "qa", "a"), LocalQueue.of("team", "qb", "b")));
  }

  private PendingWorkloads pending() {
    return pending;
  }

  static ClusterQueue cq(String name, QueueingStrategy strategy) {
    return ClusterQueue.builder(name).queueingStrategy(strategy)
        .resourceGroup(FlavorQuotas.of("default", FlavorResourceQuota.of("cpu", "4"))).build();
  }

  private PendingWorkload p(String name, String queue) {
    return p(name, queue, 0);
  }

  private PendingWorkload p(String name, String queue, int priority) {
    Workload wl = Workload.builder("team", name).queueName(queue).priority(priority).creationTime(T0)
        .request("cpu", "1").build();
    return new PendingWorkload(wl, sequence++);
  }

  private CqState a() {
    return registry.requireQueue("a");
  }

  private CqState b() {
    return registry.requireQueue("b");
  }

  @Test
  void enqueue_routedWorkload_isQueuedInItsLocalQueuesClusterQueue() {
    CqState in = pending.enqueue(p("w", "qa"), null);

    assertThat(in).isSameAs(a());
    assertThat(pending.placeOf("team/w")).isEqualTo(PendingWorkloads.Place.QUEUED);
    assertThat(pending.queueOf("team/w")).isSameAs(a());
    assertThat(pending.pendingKeys(a())).containsExactly("team/w");
    assertThat(pending.pendingKeys(b())).isEmpty();
    assertThat(pending.pendingCount()).isEqualTo(1);
    assertThat(pending.hasActive()).isTrue();
    assertThat(pending.workload("team/w").name()).isEqualTo("w");
  }

  @Test
  void pendingKeys_queueOrderThenParkedThenBackoff() {
    pending.enqueue(p("low", "qa", 0), null);
    pending.enqueue(p("high", "qa", 5), null);
    pending.enqueue(p("mid", "qa", 3), null);
    pending.backoff(p("waiting", "qa", 9), a(), T0.plusSeconds(10));
    PendingWorkload head = pending.popHead(a());
    assertThat(head.key()).isEqualTo("team/high");
    pending.requeueInadmissible(head); // BestEffortFIFO: parked

    assertThat(pending.pendingKeys(a())).containsExactly("team/mid", "team/low", "team/high", "team/waiting");
    assertThat(pending.parkedKeys(a())).containsExactly("team/high");
  }

  @Test
  void enqueue_stoppedLocalQueue_waitsUnroutedUntilRerouted() {
    registry.putLocalQueue(LocalQueue.of("team", "qa", "a").withStopPolicy(StopPolicy.HOLD));

    assertThat(pending.enqueue(p("w", "qa"), null)).isNull();
    assertThat(pending.placeOf("team/w")).isEqualTo(PendingWorkloads.Place.UNROUTED);
    assertThat(pending.queueOf("team/w")).isNull();
    assertThat(pending.isPending("team/w")).isTrue();
    assertThat(pending.pendingCount()).isEqualTo(1);
    assertThat(pending.reroute()).as("still stopped").isEmpty();

    registry.putLocalQueue(LocalQueue.of("team", "qa", "a"));

    assertThat(pending.reroute()).containsExactly(java.util.Map.entry("team/w", a()));
    assertThat(pending.placeOf("team/w")).isEqualTo(PendingWorkloads.Place.QUEUED);
    assertThat(pending.pendingKeys(a())).containsExactly("team/w");
  }

  @Test
  void reroute_stoppedLocalQueue_takesItsWorkloadsOutOfTheQueueButNotThoseInBackoff() {
    pending.enqueue(p("queued", "qa"), null);
    pending.backoff(p("backoff", "qa"), a(), T0.plusSeconds(10));
    registry.putLocalQueue(LocalQueue.of("team", "qa", "a").withStopPolicy(StopPolicy.HOLD));

    assertThat(pending.reroute()).as("none is queued elsewhere").isEmpty();

    assertThat(pending.placeOf("team/queued")).isEqualTo(PendingWorkloads.Place.UNROUTED);
    assertThat(pending.placeOf("team/backoff")).isEqualTo(PendingWorkloads.Place.BACKOFF);
    assertThat(pending.pendingKeys(a())).containsExactly("team/backoff");
    assertThat(pending.pendingCount()).isEqualTo(2);
  }

  /**
   * The progress of a flavor search belongs to the queue it ran in: a workload whose LocalQueue is removed and added
   * back for another ClusterQueue loses it.
   */
  @Test
  void reroute_toAnotherClusterQueue_dropsTheFlavorScanProgress_backoffInTheSameQueueKeepsIt() {
    FlavorScanProgress progress = new FlavorScanProgress(List.of(java.util.Map.of("cpu", 0)), 0, 1, List.of());
    PendingWorkload moving = p("moving", "qa");
    moving.lastAssignment = progress;
    pending.enqueue(moving, null);
    PendingWorkload waiting = p("waiting", "qb");
    waiting.lastAssignment = progress;
    pending.backoff(waiting, b(), T0.plusSeconds(10));
    registry.removeLocalQueue("team", "qa");
    pending.reroute();
    registry.putLocalQueue(LocalQueue.of("team", "qa", "b"));

    assertThat(pending.reroute()).containsExactly(java.util.Map.entry("team/moving", b()));
    pending.releaseBackoff(T0.plusSeconds(10));

    assertThat(pending.lastAssignment("team/moving")).isNull();
    assertThat(pending.lastAssignment("team/waiting")).isSameAs(progress);
  }

  @Test
  void enqueue_workloadAlreadyHere_isRefusedNamingWhereItIs() {
    PendingWorkload w = p("w", "qa");
    pending.enqueue(w, null);

    assertThatThrownBy(() -> pending.enqueue(w, null))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("Workload team/w: cannot be queued, it is QUEUED already");
    assertThatThrownBy(() -> pending.deactivate(w.workload, a(), "m"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("Workload team/w: cannot be deactivated, it is QUEUED already");
    assertThat(pending.pendingKeys(a())).containsExactly("team/w");
  }

  @Test
  void popHead_isAHeadUntilRequeued() {
    pending.enqueue(p("w", "qa"), null);

    PendingWorkload head = pending.popHead(a());

    assertThat(pending.placeOf("team/w")).isEqualTo(PendingWorkloads.Place.HEAD);
    assertThat(pending.queueOf("team/w")).isSameAs(a());
    assertThat(pending.pendingCount()).as("a head is still pending").isEqualTo(1);
    assertThat(pending.hasActive()).isFalse();
    assertThat(pending.popHead(a())).isNull();
    assertThat(pending.workload("team/w")).isSameAs(head.workload);

    pending.requeue(head);

    assertThat(pending.placeOf("team/w")).isEqualTo(PendingWorkloads.Place.QUEUED);
    assertThat(pending.hasActive()).isTrue();
    assertThat(pending.parkedKeys(a())).isEmpty();
  }

  @Test
  void requeueInadmissible_parksUnderBestEffortFifo_keepsTheHeadUnderStrictFifo() {
    pending.enqueue(p("x", "qa"), null);
    pending.enqueue(p("y", "qb"), null);

    pending.requeueInadmissible(pending.popHead(a()));
    pending.requeueInadmissible(pending.popHead(b()));

    assertThat(pending.parkedKeys(a())).containsExactly("team/x");
    assertThat(pending.parkedKeys(b())).isEmpty();
    assertThat(a().pending.hasActive()).isFalse();
    assertThat(b().pending.hasActive()).isTrue();
    assertThat(pending.placeOf("team/x")).isEqualTo(PendingWorkloads.Place.QUEUED);
  }

  @Test
  void park_anyStrategy_waitsUntilUnparked() {
    pending.enqueue(p("y", "qb"), null);
    pending.park(pending.popHead(b()));

    assertThat(pending.parkedKeys(b())).containsExactly("team/y");
    assertThat(pending.hasActive()).isFalse();

    pending.unpark(a());
    assertThat(pending.hasActive()).as("another queue unparked").isFalse();
    pending.unparkAll();

    assertThat(pending.parkedKeys(b())).isEmpty();
    assertThat(pending.popHead(b()).key()).isEqualTo("team/y");
  }

  @Test
  void admit_headLeavesEveryPlace() {
    pending.enqueue(p("w", "qa"), null);
    PendingWorkload head = pending.popHead(a());

    pending.admit(head);

    assertThat(pending.placeOf("team/w")).isNull();
    assertThat(pending.contains("team/w")).isFalse();
    assertThat(pending.queueOf("team/w")).isNull();
    assertThat(pending.pendingCount()).isZero();
    assertThat(pending.pendingKeys(a())).isEmpty();
  }

  @Test
  void requeue_notAHead_isRefused() {
    PendingWorkload w = p("w", "qa");
    pending.enqueue(w, null);

    assertThatThrownBy(() -> pending.requeue(w))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("Workload team/w: not a head of the running cycle (it is QUEUED)");
    assertThatThrownBy(() -> pending.admit(w)).isInstanceOf(IllegalStateException.class);
    assertThat(pending.pendingKeys(a())).as("nothing changed").containsExactly("team/w");
  }

  @Test
  void releaseBackoff_queuesOnlyTheWorkloadsWhoseTimeCame() {
    pending.backoff(p("early", "qa"), a(), T0.plusSeconds(5));
    pending.backoff(p("late", "qa"), a(), T0.plusSeconds(10));
    assertThat(pending.placeOf("team/early")).isEqualTo(PendingWorkloads.Place.BACKOFF);
    assertThat(pending.hasActive()).isFalse();
    assertThat(pending.pendingCount()).isEqualTo(2);

    assertThat(pending.releaseBackoff(T0.plusSeconds(4))).isEmpty();
    assertThat(pending.releaseBackoff(T0.plusSeconds(5))).extracting(PendingWorkload::key)
        .containsExactly("team/early");

    assertThat(pending.placeOf("team/early")).isEqualTo(PendingWorkloads.Place.QUEUED);
    assertThat(pending.placeOf("team/late")).isEqualTo(PendingWorkloads.Place.BACKOFF);
    assertThat(pending.pendingKeys(a())).containsExactly("team/early", "team/late");
  }

  @Test
  void releaseBackoff_stoppedLocalQueue_waitsUnrouted() {
    pending.backoff(p("w", "qa"), a(), T0);
    registry.putLocalQueue(LocalQueue.of("team", "qa", "a").withStopPolicy(StopPolicy.HOLD));

    pending.releaseBackoff(T0);

    assertThat(pending.placeOf("team/w")).isEqualTo(PendingWorkloads.Place.UNROUTED);
  }

  @Test
  void delayQueued_queuedWorkload_waitsInItsQueueForTheBackoff() {
    pending.enqueue(p("w", "qa"), null);

    assertThat(pending.delayQueued("team/w", T0.plusSeconds(10))).isTrue();
    assertThat(pending.placeOf("team/w")).isEqualTo(PendingWorkloads.Place.BACKOFF);
    assertThat(pending.hasActive()).isFalse();
    assertThat(pending.delayQueued("team/w", T0.plusSeconds(20))).as("already waiting").isFalse();
    assertThat(pending.delayQueued("team/other", T0)).as("not here").isFalse();

    pending.releaseBackoff(T0.plusSeconds(10));
    assertThat(pending.placeOf("team/w")).as("the first time kept").isEqualTo(PendingWorkloads.Place.QUEUED);
  }

  @Test
  void deactivate_thenReactivate_givesBackTheWorkloadAndItsQueue() {
    PendingWorkload w = p("w", "qa");
    pending.deactivate(w.workload, b(), "The workload is deactivated due to x");

    assertThat(pending.placeOf("team/w")).isEqualTo(PendingWorkloads.Place.DEACTIVATED);
    assertThat(pending.isPending("team/w")).isFalse();
    assertThat(pending.contains("team/w")).isTrue();
    assertThat(pending.pendingCount()).as("deactivated is not pending").isZero();
    assertThat(pending.deactivatedMessage("team/w")).isEqualTo("The workload is deactivated due to x");
    assertThat(pending.workload("team/w")).isSameAs(w.workload);

    PendingWorkloads.Deactivated d = pending.reactivate("team/w");

    assertThat(d).isEqualTo(new PendingWorkloads.Deactivated(w.workload, b(), "The workload is deactivated due to x"));
    assertThat(pending.placeOf("team/w")).isNull();
    assertThat(pending.deactivatedMessage("team/w")).isNull();
    assertThat(pending.reactivate("team/w")).isNull();
  }

  @Test
  void drop_queuedAndBackoffWorkloadsWaitUnrouted() {
    pending.enqueue(p("queued", "qb"), null);
    pending.backoff(p("backoff", "qb"), b(), T0.plusSeconds(10));
    CqState gone = b();

    registry.removeClusterQueue("b");

    assertThat(pending.placeOf("team/queued")).isEqualTo(PendingWorkloads.Place.UNROUTED);
    assertThat(pending.placeOf("team/backoff")).isEqualTo(PendingWorkloads.Place.UNROUTED);
    assertThat(gone.pending.size()).isZero();
    assertThat(pending.pendingCount()).isEqualTo(2);
    assertThat(pending.releaseBackoff(T0.plusSeconds(10))).as("its backoff no longer counts").isEmpty();

    registry.putClusterQueue(cq("b", QueueingStrategy.STRICT_FIFO));
    assertThat(pending.reroute()).containsOnlyKeys("team/queued", "team/backoff");
    assertThat(pending.pendingKeys(b())).containsExactlyInAnyOrder("team/queued", "team/backoff");
  }

  @Test
  void remove_fromEveryPlace_leavesNothingBehind() {
    pending.enqueue(p("queued", "qa"), null);
    pending.enqueue(p("head", "qb"), null);
    PendingWorkload head = pending.popHead(b());
    pending.backoff(p("backoff", "qa"), a(), T0);
    registry.putLocalQueue(LocalQueue.of("team", "qb", "b").withStopPolicy(StopPolicy.HOLD));
    pending.enqueue(p("unrouted", "qb"), null);
    pending.deactivate(p("deactivated", "qa").workload, a(), "m");

    for (String name : List.of("queued", "head", "backoff", "unrouted", "deactivated")) {
      assertThat(pending.remove("team/" + name)).as(name).isTrue();
      assertThat(pending.placeOf("team/" + name)).as(name).isNull();
      assertThat(pending.remove("team/" + name)).as(name + " again").isFalse();
    }

    assertThat(pending.pendingCount()).isZero();
    assertThat(a().pending.size() + b().pending.size()).isZero();
    assertThat(pending.releaseBackoff(T0)).isEmpty();
    assertThatThrownBy(() -> pending.requeue(head)).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void forEachQueued_skipsBackoffUnroutedAndDeactivated() {
    pending.enqueue(p("queued", "qa"), null);
    pending.enqueue(p("other", "qb"), null);
    pending.backoff(p("backoff", "qa"), a(), T0);
    pending.deactivate(p("deactivated", "qa").workload, a(), "m");
    List<String> seen = new ArrayList<>();

    pending.forEachQueued((key, cq) -> seen.add(key + "@" + cq.name));

    assertThat(seen).containsExactlyInAnyOrder("team/queued@a", "team/other@b");
  }
}
