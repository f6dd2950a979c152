package io.fleetkit.queueing.controller;

import static io.fleetkit.queueing.controller.QueueFixtures.NS;
import static io.fleetkit.queueing.controller.QueueFixtures.job;
import static io.fleetkit.queueing.controller.QueueFixtures.quotaReserved;
import static io.fleetkit.queueing.controller.QueueFixtures.running;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.batch.Job;
import io.fleetkit.api.batch.JobStatus;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import io.fleetkit.queueing.AdmissionEngine;
import io.fleetkit.queueing.ClusterQueue;
import io.fleetkit.queueing.FlavorQuotas;
import io.fleetkit.queueing.FlavorResourceQuota;
import io.fleetkit.queueing.LocalQueue;
import io.fleetkit.queueing.PodsReadyCondition;
import io.fleetkit.queueing.RequeueState;
import io.fleetkit.queueing.ResourceFlavor;
import io.fleetkit.queueing.WaitForPodsReady;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Jobs through an engine with {@code waitForPodsReady}: the controller reports the Job's ready pods (Kueue's {@code
 * ready + succeeded >= count}), a Job whose pods are not ready in time is suspended and started again after its
 * backoff, and {@code blockAdmission} holds the next Job until the running one is ready.
 */
final class QueueWaitForPodsReadyControllerTest {
  private final ManualClock clock = ManualClock.atEpoch2026();
  private final ObjectStore store = ObjectStore.builder().directDelivery().clock(clock.asClock()).build();
  private AdmissionEngine engine;
  private QueueAdmissionController ctl;

  private void start(WaitForPodsReady cfg) {
    engine = AdmissionEngine.builder().clock(clock.asClock())
        .resourceFlavor(new ResourceFlavor("batch", QueueFixtures.POOL))
        .clusterQueue(ClusterQueue.builder("cq")
            .resourceGroup(FlavorQuotas.of("batch", FlavorResourceQuota.of("cpu", "4"))).build())
        .localQueue(LocalQueue.of(NS, "lq", "cq"))
        .waitForPodsReady(cfg)
        .build();
    ctl = QueueAdmissionController.builder(store, engine).clock(clock).stepping().build();
    ctl.start().join();
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

  /** The Job controller's count of ready pods. */
  private void ready(String name, int ready) {
    Job j = get(name);
    JobStatus s = j.status();
    store.updateStatus(j.withStatus(new JobStatus(ready, s.succeeded(), s.failed(), ready, s.conditions(),
        s.startTime(), s.completionTime(), s.completedIndexes())));
    ctl.runUntilIdle();
  }

  private void advance(Duration d) {
    clock.advance(d);
    ctl.runUntilIdle();
  }

  @Test
  void podsNotReadyInTime_jobIsSuspended_andStartedAgainAfterTheBackoff() {
    start(WaitForPodsReady.builder().timeout(Duration.ofMinutes(1)).backoffBaseSeconds(30).backoffJitter(0).build());
    store.create(job("a", "lq", 2, "1", 0, true, 10));
    ctl.runUntilIdle();
    assertThat(running(get("a"))).isTrue();
    ready("a", 1); // one of two pods ready
    assertThat(engine.podsReady(NS + "/a")).get().extracting(PodsReadyCondition::reason)
        .isEqualTo(PodsReadyCondition.REASON_WAIT_FOR_START);

    advance(Duration.ofSeconds(59));
    assertThat(running(get("a"))).isTrue();
    advance(Duration.ofSeconds(1));
    Job a = get("a");
    assertThat(a.spec().suspend()).isTrue();
    assertThat(quotaReserved(a).status()).isEqualTo(ConditionStatus.False);
    assertThat(quotaReserved(a).reason()).isEqualTo(QueueLabels.REASON_PODS_READY_TIMEOUT);
    assertThat(quotaReserved(a).message()).isEqualTo("Exceeded the PodsReady timeout default/a");
    Instant evictedAt = clock.instant();
    assertThat(engine.requeueState(NS + "/a")).contains(new RequeueState(1, evictedAt.plusSeconds(30)));

    ready("a", 0); // the Job controller deleted the suspended Job's pods
    advance(Duration.ofSeconds(29));
    assertThat(get("a").spec().suspend()).isTrue();
    advance(Duration.ofSeconds(1));
    assertThat(running(get("a"))).isTrue();
    assertThat(engine.requeueState(NS + "/a")).contains(new RequeueState(1, null));
  }

  @Test
  void pastTheRequeuingLimit_jobIsDeactivatedAndStaysSuspended() {
    start(WaitForPodsReady.builder().timeout(Duration.ofMinutes(1)).backoffLimitCount(0).backoffJitter(0).build());
    store.create(job("a", "lq", 1, "1", 0, true, 10));
    ctl.runUntilIdle();
    assertThat(running(get("a"))).isTrue();
    advance(Duration.ofMinutes(1));
    Job a = get("a");
    assertThat(a.spec().suspend()).isTrue();
    assertThat(quotaReserved(a).reason()).isEqualTo(QueueLabels.REASON_DEACTIVATED);
    assertThat(quotaReserved(a).message())
        .isEqualTo("The workload is deactivated due to exceeding the maximum number of re-queuing retries");
    advance(Duration.ofHours(2));
    assertThat(get("a").spec().suspend()).isTrue();
    assertThat(engine.admission(NS + "/a")).isEmpty();
  }

  @Test
  void podsReadyInTime_jobKeepsRunning() {
    start(WaitForPodsReady.builder().timeout(Duration.ofMinutes(1)).backoffJitter(0).build());
    store.create(job("a", "lq", 2, "1", 0, true, 10));
    ctl.runUntilIdle();
    advance(Duration.ofSeconds(30));
    ready("a", 2);
    assertThat(engine.podsReady(NS + "/a")).get().extracting(PodsReadyCondition::status).isEqualTo(true);
    advance(Duration.ofMinutes(10));
    assertThat(running(get("a"))).isTrue();
    assertThat(engine.requeueState(NS + "/a")).isEmpty();
  }

  @Test
  void blockAdmission_nextJobWaitsUntilTheRunningOneIsReady() {
    start(WaitForPodsReady.builder().blockAdmission(true).build());
    store.create(job("a", "lq", 1, "1", 0, true, 10));
    ctl.runUntilIdle();
    store.create(job("b", "lq", 1, "1", 0, true, 10));
    ctl.runUntilIdle();
    assertThat(running(get("a"))).isTrue();
    Job b = get("b");
    assertThat(b.spec().suspend()).isTrue();
    assertThat(quotaReserved(b).reason()).isEqualTo(QueueLabels.REASON_WAITING_FOR_PODS_READY);
    assertThat(quotaReserved(b).message()).isEqualTo(WaitForPodsReady.MESSAGE_WAITING_FOR_PODS_READY);

    ready("a", 1);
    assertThat(running(get("b"))).isTrue();
  }
}
