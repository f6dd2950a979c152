package io.fleetkit.queueing.controller;

import static io.fleetkit.queueing.controller.QueueFixtures.NS;
import static io.fleetkit.queueing.controller.QueueFixtures.job;
import static io.fleetkit.queueing.controller.QueueFixtures.quotaReserved;
import static io.fleetkit.queueing.controller.QueueFixtures.running;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.batch.Job;
import io.fleetkit.api.batch.JobCondition;
import io.fleetkit.api.batch.JobStatus;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.PodTemplateSpec;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.scheduling.PriorityClass;
import io.fleetkit.api.store.DeleteOptions;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import io.fleetkit.api.scheduling.Taint;
import io.fleetkit.api.scheduling.TaintEffect;
import io.fleetkit.api.scheduling.Toleration;
import io.fleetkit.queueing.AdmissionEngine;
import io.fleetkit.queueing.ClusterQueue;
import io.fleetkit.queueing.ClusterQueuePreemption;
import io.fleetkit.queueing.FlavorQuotas;
import io.fleetkit.queueing.FlavorResourceQuota;
import io.fleetkit.queueing.LocalQueue;
import io.fleetkit.queueing.QueuePreemptionPolicy;
import io.fleetkit.queueing.ResourceFlavor;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The controller on the embedded store, stepping, without a Job controller (Jobs are finished by hand). */
final class QueueAdmissionControllerTest {
  private final ManualClock clock = ManualClock.atEpoch2026();
  private final ObjectStore store = ObjectStore.builder().directDelivery().clock(clock.asClock()).build();
  private AdmissionEngine engine;
  private QueueAdmissionController ctl;

  private void start(String cpus) {
    start(QueueFixtures.engine(clock.asClock(), cpus));
  }

  private void start(AdmissionEngine e) {
    engine = e;
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

  private void finish(String name, String type) {
    Job j = get(name);
    store.updateStatus(j.withStatus(new JobStatus(0, 1, 0, null,
        List.of(new JobCondition(type, ConditionStatus.True, "", "", clock.now(), clock.now())), null, clock.now(),
        "")));
  }

  @Test
  void reconcile_fittingJob_isAdmittedAnnotatedPinnedAndResumed() {
    start("4");
    store.create(job("a", "lq", 2, "1", 0, true, 10));
    ctl.runUntilIdle();

    Job a = get("a");
    assertThat(a.spec().suspend()).isFalse();
    assertThat(a.metadata().annotations()).containsEntry(QueueLabels.ADMISSION, "cq/cpu=batch")
        .containsEntry(QueueLabels.INJECTED_NODE_SELECTOR, "pool")
        .containsEntry(QueueLabels.ADMITTED_AT, clock.now().toString());
    assertThat(a.spec().template().spec().nodeSelector()).containsEntry("pool", "batch");
    assertThat(quotaReserved(a).status()).isEqualTo(ConditionStatus.True);
    assertThat(quotaReserved(a).message()).isEqualTo("Quota reserved in ClusterQueue cq");
    assertThat(engine.usage("cq", "batch", "cpu")).isEqualTo(Quantity.parse("2"));
  }

  @Test
  void reconcile_unsuspendedJobWithoutQuota_isSuspendedWithPendingReason() {
    start("4");
    store.create(job("big", "lq", 3, "2", 0, false, 10));
    ctl.runUntilIdle();

    Job big = get("big");
    assertThat(big.spec().suspend()).isTrue();
    assertThat(big.metadata().annotations()).doesNotContainKey(QueueLabels.ADMISSION);
    assertThat(quotaReserved(big).status()).isEqualTo(ConditionStatus.False);
    assertThat(quotaReserved(big).reason()).isEqualTo(QueueLabels.REASON_PENDING);
    assertThat(quotaReserved(big).message()).contains("cpu");
  }

  @Test
  void reconcile_unknownLocalQueue_staysSuspendedWithReasonNamingTheQueue() {
    start("4");
    store.create(job("lost", "nope", 1, "1", 0, false, 10));
    ctl.runUntilIdle();

    Job lost = get("lost");
    assertThat(lost.spec().suspend()).isTrue();
    assertThat(quotaReserved(lost).reason()).isEqualTo(QueueLabels.REASON_INADMISSIBLE);
    assertThat(quotaReserved(lost).message()).isEqualTo("LocalQueue nope doesn't exist in namespace default");
    assertThat(engine.pendingCount()).isZero();
  }

  @Test
  void reconcile_invalidQueueName_isInadmissibleWithValidationMessage() {
    start("4");
    store.create(job("bad", "Not_A_Queue", 1, "1", 0, true, 10));
    ctl.runUntilIdle();

    assertThat(quotaReserved(get("bad")).reason()).isEqualTo(QueueLabels.REASON_INADMISSIBLE);
    assertThat(quotaReserved(get("bad")).message()).contains("Not_A_Queue");
  }

  @Test
  void reconcile_unlabelledJob_isLeftAlone() {
    start("4");
    Job created = store.create(job("free", null, 1, "1", 0, false, 10));
    ctl.runUntilIdle();

    assertThat(get("free")).isEqualTo(created);
  }

  @Test
  void finish_releasesQuota_andTheWaitingJobIsAdmitted() {
    start("4");
    store.create(job("a", "lq", 1, "2", 0, true, 10));
    store.create(job("b", "lq", 1, "2", 0, true, 10));
    store.create(job("c", "lq", 1, "2", 0, true, 10));
    ctl.runUntilIdle();
    assertThat(running(get("a"))).isTrue();
    assertThat(running(get("b"))).isTrue();
    assertThat(get("c").spec().suspend()).isTrue();

    finish("a", JobCondition.COMPLETE);
    ctl.runUntilIdle();

    assertThat(running(get("c"))).isTrue();
    assertThat(engine.admitted("cq")).extracting(a -> a.workload()).containsExactlyInAnyOrder("default/b",
        "default/c");
  }

  @Test
  void failedOrDeletedJob_releasesQuota() {
    start("2");
    store.create(job("a", "lq", 1, "2", 0, true, 10));
    store.create(job("b", "lq", 1, "2", 0, true, 10));
    store.create(job("c", "lq", 1, "2", 0, true, 10));
    ctl.runUntilIdle();
    assertThat(running(get("a"))).isTrue();

    finish("a", JobCondition.FAILED);
    ctl.runUntilIdle();
    assertThat(running(get("b"))).isTrue();

    store.delete(Job.class, NS, "b", DeleteOptions.background()); // as kubectl delete
    ctl.runUntilIdle();
    assertThat(running(get("c"))).isTrue();
    assertThat(engine.admittedCount()).isEqualTo(1);
  }

  @Test
  void preemption_lowPriorityJobIsSuspendedUnpinnedAndRequeued() {
    start("4");
    store.create(job("low", "lq", 2, "2", 0, true, 10));
    ctl.runUntilIdle();
    assertThat(running(get("low"))).isTrue();

    clock.advance(Duration.ofSeconds(5));
    store.create(job("high", "lq", 1, "4", 100, true, 10));
    ctl.runUntilIdle();

    Job low = get("low");
    assertThat(low.spec().suspend()).isTrue();
    assertThat(low.metadata().annotations()).doesNotContainKeys(QueueLabels.ADMISSION,
        QueueLabels.INJECTED_NODE_SELECTOR, QueueLabels.ADMITTED_AT);
    assertThat(low.spec().template().spec().nodeSelector()).isEmpty();
    assertThat(quotaReserved(low).reason()).isEqualTo(QueueLabels.REASON_PREEMPTED);
    assertThat(quotaReserved(low).message()).contains("default/high");
    assertThat(running(get("high"))).isTrue();
    assertThat(engine.pending("cq")).containsExactly("default/low");

    finish("high", JobCondition.COMPLETE);
    ctl.runUntilIdle();
    assertThat(running(get("low"))).isTrue();
  }

  /** A Job whose template's nodeSelector is {@code selector}, created suspended in queue {@code lq}. */
  private void createWithNodeSelector(String name, Map<String, String> selector) {
    Job j = job(name, "lq", 1, "1", 0, true, 10);
    PodSpec spec = j.spec().template().spec().toBuilder().nodeSelector(selector).build();
    store.create(j.withSpec(new io.fleetkit.api.batch.JobSpec(
        j.spec().parallelism(), j.spec().completions(), j.spec().completionMode(), j.spec().backoffLimit(), null,
        null, true, null, new PodTemplateSpec(j.spec().template().metadata(), spec))));
  }

  @Test
  void admission_keepsTheUsersNodeSelectorKeys() {
    start("4");
    createWithNodeSelector("mine", Map.of("pool", "batch", "zone", "a"));
    ctl.runUntilIdle();

    Job mine = get("mine");
    assertThat(running(mine)).isTrue();
    assertThat(mine.spec().template().spec().nodeSelector()).isEqualTo(Map.of("pool", "batch", "zone", "a"));
    assertThat(mine.metadata().annotations()).doesNotContainKey(QueueLabels.INJECTED_NODE_SELECTOR);
  }

  @Test
  void nodeSelectorThatNoFlavorMatches_staysPendingSayingWhy() {
    start("4");
    createWithNodeSelector("elsewhere", Map.of("pool", "mine"));
    ctl.runUntilIdle();

    Job j = get("elsewhere");
    assertThat(j.spec().suspend()).isTrue();
    assertThat(j.spec().template().spec().nodeSelector()).isEqualTo(Map.of("pool", "mine"));
    assertThat(quotaReserved(j).status()).isEqualTo(ConditionStatus.False);
    assertThat(quotaReserved(j).reason()).isEqualTo(QueueLabels.REASON_PENDING);
    assertThat(quotaReserved(j).message()).contains("flavor batch doesn't match node affinity");
  }

  @Test
  void taintedFlavor_itsTolerationsAreInjectedAndTakenOutWhenPreempted() {
    Toleration spot = Toleration.equal("instance", "spot", TaintEffect.NoSchedule);
    engine = AdmissionEngine.builder().clock(clock.asClock())
        .resourceFlavor(new ResourceFlavor("spot", Map.of("pool", "spot"))
            .withNodeTaints(List.of(Taint.of("instance", "spot", TaintEffect.NoSchedule)))
            .withTolerations(List.of(spot)))
        .clusterQueue(ClusterQueue.builder("cq")
            .resourceGroup(FlavorQuotas.of("spot", FlavorResourceQuota.of("cpu", "4")))
            .preemption(ClusterQueuePreemption.of(QueuePreemptionPolicy.LOWER_PRIORITY, QueuePreemptionPolicy.NEVER))
            .build())
        .localQueue(LocalQueue.of(NS, "lq", "cq"))
        .build();
    ctl = QueueAdmissionController.builder(store, engine).clock(clock).stepping().build();
    ctl.start().join();
    store.create(job("low", "lq", 2, "2", 0, true, 10));
    ctl.runUntilIdle();

    Job low = get("low");
    assertThat(running(low)).isTrue(); // the flavor's own toleration covers its taint
    assertThat(low.spec().template().spec().tolerations()).containsExactly(spot);
    assertThat(low.spec().template().spec().nodeSelector()).isEqualTo(Map.of("pool", "spot"));
    assertThat(low.metadata().annotations()).containsEntry(QueueLabels.INJECTED_TOLERATIONS, "1");

    clock.advance(Duration.ofSeconds(5));
    store.create(job("high", "lq", 1, "4", 100, true, 10));
    ctl.runUntilIdle();

    low = get("low");
    assertThat(low.spec().suspend()).isTrue();
    assertThat(low.spec().template().spec().tolerations()).isEmpty();
    assertThat(low.spec().template().spec().nodeSelector()).isEmpty();
    assertThat(low.metadata().annotations()).doesNotContainKeys(QueueLabels.INJECTED_TOLERATIONS,
        QueueLabels.INJECTED_NODE_SELECTOR);
  }

  @Test
  void userResumesPendingJob_isSuspendedAgain() {
    start("2");
    store.create(job("a", "lq", 1, "2", 0, true, 10));
    store.create(job("b", "lq", 1, "2", 0, true, 10));
    ctl.runUntilIdle();
    Job b = get("b");
    store.update(b.withSpec(b.spec().withSuspend(false)));
    ctl.runUntilIdle();

    assertThat(get("b").spec().suspend()).isTrue();
    assertThat(running(get("a"))).isTrue();
  }

  @Test
  void priorityClassName_isResolvedFromTheStore() {
    start("2");
    store.create(PriorityClass.of("urgent", 1000));
    store.create(job("low", "lq", 1, "2", 0, true, 10));
    ctl.runUntilIdle();
    Job high = job("high", "lq", 1, "2", 0, true, 10);
    PodSpec spec = high.spec().template().spec().withPriority(null).toBuilder().priorityClassName("urgent").build();
    store.create(high.withSpec(new io.fleetkit.api.batch.JobSpec(1, 1, high.spec().completionMode(), 6, null, null,
        true, null, new PodTemplateSpec(high.spec().template().metadata(), spec))));
    ctl.runUntilIdle();

    assertThat(running(get("high"))).isTrue();
    assertThat(quotaReserved(get("low")).reason()).isEqualTo(QueueLabels.REASON_PREEMPTED);
  }

  @Test
  void restart_rebuildsAdmissionsFromTheAnnotations() {
    start("4");
    store.create(job("a", "lq", 1, "2", 0, true, 10));
    store.create(job("b", "lq", 1, "2", 0, true, 10));
    ctl.runUntilIdle();
    Job a = get("a");
    ctl.close();

    // a new process: new engine, new controller; one more Job arrives meanwhile
    store.create(job("c", "lq", 1, "2", 0, true, 10));
    start("4");
    ctl.runUntilIdle();

    assertThat(get("a")).isEqualTo(a);
    assertThat(running(get("b"))).isTrue();
    assertThat(get("c").spec().suspend()).isTrue();
    assertThat(engine.usage("cq", "batch", "cpu")).isEqualTo(Quantity.parse("4"));
    assertThat(engine.admission("default/a").orElseThrow().admittedAt().toString())
        .isEqualTo(a.metadata().annotations().get(QueueLabels.ADMITTED_AT));

    finish("a", JobCondition.COMPLETE);
    ctl.runUntilIdle();
    assertThat(running(get("c"))).isTrue();
  }

  @Test
  void podsQuota_holdsTheSecondJob_countsPodsAfterARestart_andAdmitsItOnceTheFirstFinishes() {
    start(QueueFixtures.engineWithPods(clock.asClock(), "100", "3"));
    store.create(job("a", "lq", 2, "1", 0, true, 10));
    store.create(job("b", "lq", 2, "1", 0, true, 10));
    ctl.runUntilIdle();

    assertThat(running(get("a"))).isTrue();
    assertThat(get("a").metadata().annotations()).containsEntry(QueueLabels.ADMISSION, "cq/cpu=batch,pods=batch");
    assertThat(get("b").spec().suspend()).isTrue();
    assertThat(quotaReserved(get("b")).reason()).isEqualTo(QueueLabels.REASON_PENDING);
    assertThat(quotaReserved(get("b")).message())
        .contains("insufficient unused quota for pods in flavor batch, 1 more needed");
    assertThat(engine.usage("cq", "batch", "pods")).isEqualTo(Quantity.parse("2"));

    // a new process restores a's admission from its annotation, pods included: b still does not fit
    ctl.close();
    start(QueueFixtures.engineWithPods(clock.asClock(), "100", "3"));
    ctl.runUntilIdle();
    assertThat(engine.usage("cq", "batch", "pods")).isEqualTo(Quantity.parse("2"));
    assertThat(running(get("a"))).isTrue();
    assertThat(get("b").spec().suspend()).isTrue();

    finish("a", JobCondition.COMPLETE);
    ctl.runUntilIdle();
    assertThat(running(get("b"))).isTrue();
    assertThat(engine.usage("cq", "batch", "pods")).isEqualTo(Quantity.parse("2"));
  }

  @Test
  void restart_annotationNamingAnUnknownQueue_isSuspendedAndRequeued() {
    start("4");
    Job j = job("stale", "lq", 1, "1", 0, false, 10);
    Job created = store.create(
        j.withMetadata(j.metadata().toBuilder().annotation(QueueLabels.ADMISSION, "gone/cpu=batch").build()));
    store.updateStatus(created.withStatus(new JobStatus(1, 0, 0, null, List.of(), clock.now(), null, "")));
    ctl.runUntilIdle();

    // not restorable (no ClusterQueue "gone"): stopped first, and not resumed while it still counts an active pod
    assertThat(get("stale").spec().suspend()).isTrue();
    assertThat(get("stale").metadata().annotations()).doesNotContainKey(QueueLabels.ADMISSION);
    clock.advance(Duration.ofSeconds(2));
    ctl.runUntilIdle();
    assertThat(get("stale").spec().suspend()).isTrue();

    // the Job controller deleted the pod: admitted afresh in cq
    Job s = get("stale");
    store.updateStatus(s.withStatus(new JobStatus(0, 0, 0, null, s.status().conditions(), null, null, "")));
    ctl.runUntilIdle();
    Job stale = get("stale");
    assertThat(stale.metadata().annotations()).containsEntry(QueueLabels.ADMISSION, "cq/cpu=batch");
    assertThat(running(stale)).isTrue();
  }

  @Test
  void builder_badSettings_areRejected() {
    engine = QueueFixtures.engine(clock.asClock(), "1");
    assertThatThrownBy(() -> QueueAdmissionController.builder(store, engine).workers(0))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("workers must be at least 1 but was 0");
    assertThatThrownBy(() -> QueueAdmissionController.builder(store, engine).maxCyclesPerReconcile(0))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxCyclesPerReconcile");
    assertThatThrownBy(() -> QueueAdmissionController.builder(store, engine).clock(clock).clock(clock))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("clock was already set");
  }
}
