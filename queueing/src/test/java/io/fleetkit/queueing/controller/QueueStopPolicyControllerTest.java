package io.fleetkit.queueing.controller;

import static io.fleetkit.queueing.controller.QueueFixtures.NS;
import static io.fleetkit.queueing.controller.QueueFixtures.job;
import static io.fleetkit.queueing.controller.QueueFixtures.quotaReserved;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.batch.Job;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import io.fleetkit.queueing.AdmissionEngine;
import io.fleetkit.queueing.ClusterQueue;
import io.fleetkit.queueing.ClusterQueuePreemption;
import io.fleetkit.queueing.FlavorQuotas;
import io.fleetkit.queueing.FlavorResourceQuota;
import io.fleetkit.queueing.LocalQueue;
import io.fleetkit.queueing.QueuePreemptionPolicy;
import io.fleetkit.queueing.StopPolicy;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The controller following runtime queue changes ({@link QueueAdmissionController#updateQueues}), stepping. */
final class QueueStopPolicyControllerTest {
  private final ManualClock clock = ManualClock.atEpoch2026();
  private final ObjectStore store = ObjectStore.builder().directDelivery().clock(clock.asClock()).build();
  private AdmissionEngine engine;
  private QueueAdmissionController ctl;

  private static ClusterQueue.Builder cq(String cpus) {
    return ClusterQueue.builder("cq").resourceGroup(FlavorQuotas.of("batch", FlavorResourceQuota.of("cpu", cpus)))
        .preemption(ClusterQueuePreemption.of(QueuePreemptionPolicy.LOWER_PRIORITY, QueuePreemptionPolicy.NEVER));
  }

  @BeforeEach
  void start() {
    engine = QueueFixtures.engine(clock.asClock(), "4");
    ctl = QueueAdmissionController.builder(store, engine).clock(clock).stepping().build();
    ctl.start().join();
  }

  @AfterEach
  void close() {
    ctl.close();
    store.close();
  }

  private Job get(String name) {
    return store.require(Job.class, NS, name);
  }

  @Test
  void updateQueues_holdAndDrain_suspendsRunningJobsWithTheQueueReason_resumedTheyStartAgain() {
    store.create(job("a", "lq", 2, "1", 0, true, 10));
    ctl.runUntilIdle();
    assertThat(get("a").spec().suspend()).isFalse();

    ctl.updateQueues(e -> e.putClusterQueue(cq("4").stopPolicy(StopPolicy.HOLD_AND_DRAIN).build()));
    ctl.runUntilIdle();

    Job a = get("a");
    assertThat(a.spec().suspend()).isTrue();
    assertThat(a.metadata().annotations()).doesNotContainKey(QueueLabels.ADMISSION);
    assertThat(quotaReserved(a).status()).isEqualTo(ConditionStatus.False);
    assertThat(quotaReserved(a).reason()).isEqualTo(QueueLabels.REASON_SUSPENDED);
    assertThat(quotaReserved(a).message()).isEqualTo("ClusterQueue cq is inactive");
    assertThat(engine.usage("cq", "batch", "cpu")).isEqualTo(Quantity.ZERO);

    ctl.updateQueues(e -> e.putClusterQueue(cq("4").build()));
    ctl.runUntilIdle();

    assertThat(get("a").spec().suspend()).isFalse();
    assertThat(quotaReserved(get("a")).status()).isEqualTo(ConditionStatus.True);
  }

  @Test
  void updateQueues_holdLocalQueue_keepsRunningJobsAndHoldsNewOnes() {
    store.create(job("running", "lq", 1, "1", 0, true, 10));
    ctl.runUntilIdle();

    ctl.updateQueues(e -> e.putLocalQueue(LocalQueue.of(NS, "lq", "cq").withStopPolicy(StopPolicy.HOLD)));
    store.create(job("new", "lq", 1, "1", 0, true, 10));
    ctl.runUntilIdle();

    assertThat(get("running").spec().suspend()).isFalse();
    assertThat(get("new").spec().suspend()).isTrue();
    assertThat(quotaReserved(get("new")).reason()).isEqualTo(QueueLabels.REASON_SUSPENDED);
    assertThat(quotaReserved(get("new")).message()).isEqualTo("LocalQueue lq is inactive");

    ctl.updateQueues(e -> e.putLocalQueue(LocalQueue.of(NS, "lq", "cq")));
    ctl.runUntilIdle();
    assertThat(get("new").spec().suspend()).isFalse();
  }

  @Test
  void updateQueues_quotaIncrease_startsAWaitingJob() {
    store.create(job("big", "lq", 3, "2", 0, true, 10));
    ctl.runUntilIdle();
    assertThat(get("big").spec().suspend()).isTrue();

    ctl.updateQueues(e -> e.putClusterQueue(cq("6").build()));
    ctl.runUntilIdle();

    assertThat(get("big").spec().suspend()).isFalse();
  }

  @Test
  void updateQueues_removedLocalQueue_keepsTheAdmittedJobRunning() {
    store.create(job("a", "lq", 1, "1", 0, true, 10));
    ctl.runUntilIdle();

    ctl.updateQueues(e -> e.removeLocalQueue(NS, "lq"));
    ctl.runUntilIdle();

    assertThat(get("a").spec().suspend()).isFalse();
    assertThat(engine.isAdmitted(NS + "/a")).isTrue();
  }

  @Test
  void updateQueues_refusedChange_leavesTheEngineAndJobsAsTheyWere() {
    store.create(job("a", "lq", 1, "1", 0, true, 10));
    ctl.runUntilIdle();

    assertThatThrownBy(() -> ctl.updateQueues(e -> e.putLocalQueue(LocalQueue.of(NS, "lq", "elsewhere"))))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("field is immutable");
    ctl.runUntilIdle();
    assertThat(get("a").spec().suspend()).isFalse();
  }
}
