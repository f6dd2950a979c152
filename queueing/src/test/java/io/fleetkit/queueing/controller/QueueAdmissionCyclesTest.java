package io.fleetkit.queueing.controller;

import static io.fleetkit.queueing.controller.QueueFixtures.NS;
import static io.fleetkit.queueing.controller.QueueFixtures.POOL;
import static io.fleetkit.queueing.controller.QueueFixtures.job;
import static io.fleetkit.queueing.controller.QueueFixtures.quotaReserved;
import static io.fleetkit.queueing.controller.QueueFixtures.running;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.batch.Job;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import io.fleetkit.queueing.AdmissionEngine;
import io.fleetkit.queueing.ClusterQueue;
import io.fleetkit.queueing.FlavorQuotas;
import io.fleetkit.queueing.FlavorResourceQuota;
import io.fleetkit.queueing.LocalQueue;
import io.fleetkit.queueing.ResourceFlavor;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A stepping controller with {@code cyclesPerRound} runs Kueue's scheduling cycles once per round: the Jobs that
 * reach the controller together (at one simulated instant) are heads of one cycle, ordered as Kueue's scheduler
 * orders them (kueue {@code pkg/scheduler/scheduler.go} {@code makeClassicalIterator}: not borrowing first, then
 * priority, then age; with fair sharing {@code fair_sharing_iterator.go}'s tournament on the dominant resource share
 * after the admission), not by which Job the controller happened to reconcile first.
 */
final class QueueAdmissionCyclesTest {
  private final ManualClock clock = ManualClock.atEpoch2026();
  private final ObjectStore store = ObjectStore.builder().directDelivery().clock(clock.asClock()).build();
  private QueueAdmissionController ctl;

  /**
   * Cohort {@code all}: ClusterQueue {@code shared} with 3 CPUs of flavor {@code batch}, and {@code a} and {@code b}
   * with none (they borrow what {@code shared} lends); a LocalQueue of each name. No preemption.
   */
  private static AdmissionEngine engine(ManualClock clock, boolean fairSharing) {
    AdmissionEngine.Builder b = AdmissionEngine.builder().clock(clock.asClock())
        .resourceFlavor(new ResourceFlavor("batch", POOL));
    for (String[] q : List.of(new String[] {"shared", "3"}, new String[] {"a", "0"}, new String[] {"b", "0"})) {
      b.clusterQueue(ClusterQueue.builder(q[0]).cohort("all")
          .resourceGroup(FlavorQuotas.of("batch", FlavorResourceQuota.of("cpu", q[1]))).build());
      b.localQueue(LocalQueue.of(NS, q[0], q[0]));
    }
    return b.fairSharing(fairSharing).build();
  }

  private void start(AdmissionEngine engine) {
    ctl = QueueAdmissionController.builder(store, engine).clock(clock).stepping().cyclesPerRound().build();
    ctl.start().join();
  }

  @Test
  void runUntilIdle_cyclesPerReconcile_firstJobReconciledTakesTheQuota() {
    // without cyclesPerRound each reconcile runs the cycles after its own submit: big is alone in its cycle
    ctl = QueueAdmissionController.builder(store, engine(clock, true)).clock(clock).stepping().build();
    ctl.start().join();
    store.create(job("big", "a", 3, "1", 0, true, 60));
    store.create(job("small", "b", 1, "1", 0, true, 60));
    ctl.runUntilIdle();

    assertThat(running(get("big"))).isTrue();
    assertThat(running(get("small"))).isFalse();
  }

  @Test
  void runOnce_cyclesPerRound_reconcilesThenEndsTheRound() {
    start(engine(clock, true));
    store.create(job("big", "a", 3, "1", 0, true, 60));
    store.create(job("small", "b", 1, "1", 0, true, 60));

    assertThat(ctl.runOnce()).isTrue(); // big submitted, waiting for the round's cycles
    assertThat(ctl.runOnce()).isTrue(); // small submitted
    assertThat(get("big").status().condition(QueueLabels.QUOTA_RESERVED)).isNull();
    int steps = 0;
    while (ctl.runOnce()) {
      steps++;
    }
    assertThat(steps).isBetween(1, 10);
    assertThat(running(get("small"))).isTrue();
    assertThat(running(get("big"))).isFalse();
  }

  @Test
  void build_cyclesPerRoundWithoutStepping_isRefused() {
    assertThatThrownBy(() -> QueueAdmissionController.builder(store, engine(clock, false)).cyclesPerRound().build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("QueueAdmissionController: cyclesPerRound needs stepping mode (a threaded controller has no end"
            + " of round to run the cycles at)");
  }

  @AfterEach
  void close() {
    if (ctl != null) {
      ctl.close();
    }
    store.close();
  }

  private Job get(String name) {
    return store.require(Job.class, NS, name);
  }

  @Test
  void runUntilIdle_fairSharing_jobsArrivingTogether_lowerShareAfterAdmissionFirst() {
    start(engine(clock, true));
    // created first, but its share after the admission (3 of the 3 CPUs the cohort lends a) is 1000, b's is 333
    store.create(job("big", "a", 3, "1", 0, true, 60));
    store.create(job("small", "b", 1, "1", 0, true, 60));
    ctl.runUntilIdle();

    assertThat(running(get("small"))).isTrue();
    assertThat(running(get("big"))).isFalse();
    assertThat(quotaReserved(get("big")).status()).isEqualTo(ConditionStatus.False);
    assertThat(quotaReserved(get("big")).reason()).isEqualTo(QueueLabels.REASON_PENDING);
  }

  @Test
  void runUntilIdle_jobsArrivingTogether_higherPriorityFirst() {
    start(engine(clock, false));
    store.create(job("low", "a", 3, "1", 0, true, 60));
    store.create(job("high", "b", 3, "1", 10, true, 60));
    ctl.runUntilIdle();

    assertThat(running(get("high"))).isTrue();
    assertThat(running(get("low"))).isFalse();
  }

  @Test
  void runUntilIdle_jobsArrivingTogether_notBorrowingFirst() {
    start(engine(clock, false));
    store.create(job("borrows", "a", 3, "1", 0, true, 60));
    store.create(job("nominal", "shared", 3, "1", 0, true, 60));
    ctl.runUntilIdle();

    assertThat(running(get("nominal"))).isTrue();
    assertThat(running(get("borrows"))).isFalse();
  }

  @Test
  void runUntilIdle_jobsArrivingInTurn_firstKeepsItsQuota() {
    start(engine(clock, true));
    store.create(job("big", "a", 3, "1", 0, true, 60));
    ctl.runUntilIdle();
    store.create(job("small", "b", 1, "1", 0, true, 60));
    ctl.runUntilIdle();

    // no preemption: what one cycle admitted stays admitted
    assertThat(running(get("big"))).isTrue();
    assertThat(running(get("small"))).isFalse();
  }
}
