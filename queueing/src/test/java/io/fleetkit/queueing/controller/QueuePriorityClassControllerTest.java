package io.fleetkit.queueing.controller;

import static io.fleetkit.queueing.controller.QueueFixtures.NS;
import static io.fleetkit.queueing.controller.QueueFixtures.quotaReserved;
import static io.fleetkit.queueing.controller.QueueFixtures.running;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.batch.Job;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.PodTemplateSpec;
import io.fleetkit.api.scheduling.PriorityClass;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import io.fleetkit.queueing.AdmissionEngine;
import io.fleetkit.queueing.PriorityClassSource;
import io.fleetkit.queueing.WorkloadPriority;
import io.fleetkit.queueing.WorkloadPriorityClass;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Jobs labelled {@value QueueLabels#PRIORITY_CLASS}. The cases named after upstream are ported from
 * kubernetes-sigs/kueue {@code pkg/controller/jobs/job/job_controller_test.go} {@code TestReconciler} (commit
 * ff69552e): the workload's priority and class after the reconcile; upstream's warning events (FleetKit records
 * none) are the Job's {@code QuotaReserved} condition where no workload is created, and not asserted where one
 * exists. The workload-slice cases are listed in docs/conformance.md with the reason.
 */
final class QueuePriorityClassControllerTest {
  private final ManualClock clock = ManualClock.atEpoch2026();
  private final ObjectStore store = ObjectStore.builder().directDelivery().clock(clock.asClock()).build();
  private AdmissionEngine engine;
  private QueueAdmissionController ctl;

  /** An engine of {@code cpus} CPUs (LowerPriority preemption within the queue) with test-wpc 100, test-wpc-high 200. */
  private void start(String cpus) {
    engine = QueueFixtures.engine(clock.asClock(), cpus);
    engine.putWorkloadPriorityClass(WorkloadPriorityClass.of("test-wpc", 100));
    engine.putWorkloadPriorityClass(WorkloadPriorityClass.of("test-wpc-high", 200));
    restart();
  }

  private void restart() {
    ctl = QueueAdmissionController.builder(store, engine).clock(clock).stepping().build();
    ctl.start().join();
    ctl.runUntilIdle();
  }

  @AfterEach
  void close() {
    if (ctl != null) {
      ctl.close();
    }
    store.close();
  }

  /** A suspended Job of one pod of 2 CPUs, its template without a priority, with the label and class if given. */
  private static Job job(String name, @Nullable String wpc, @Nullable String podPriorityClass) {
    Job j = QueueFixtures.job(name, "lq", 1, "2", 0, true, 10);
    PodSpec spec = j.spec().template().spec().withPriority(null);
    if (podPriorityClass != null) {
      spec = spec.toBuilder().priorityClassName(podPriorityClass).build();
    }
    j = j.withSpec(j.spec().withTemplate(new PodTemplateSpec(j.spec().template().metadata(), spec)));
    return wpc == null ? j : j.withMetadata(j.metadata().toBuilder().label(QueueLabels.PRIORITY_CLASS, wpc).build());
  }

  private Job get(String name) {
    return store.require(Job.class, NS, name);
  }

  private void relabel(String name, @Nullable String wpc) {
    Job j = get(name);
    java.util.Map<String, String> labels = new java.util.HashMap<>(j.metadata().labels());
    if (wpc == null) {
      labels.remove(QueueLabels.PRIORITY_CLASS);
    } else {
      labels.put(QueueLabels.PRIORITY_CLASS, wpc);
    }
    store.update(j.withMetadata(j.metadata().withLabels(labels)));
    ctl.runUntilIdle();
  }

  private WorkloadPriority priority(String name) {
    return engine.workload(NS + "/" + name).orElseThrow().priorityInfo();
  }

  private static WorkloadPriority wpc(String name, int value) {
    return new WorkloadPriority(value, PriorityClassSource.WORKLOAD_PRIORITY_CLASS, name);
  }

  private static WorkloadPriority pod(String name, int value) {
    return new WorkloadPriority(value, PriorityClassSource.POD_PRIORITY_CLASS, name);
  }

  @Test
  void theWorkloadIsCreatedWhenQueueNameIsSet_withWorkloadPriorityClass() {
    start("1");
    store.create(job("job", "test-wpc", null));
    ctl.runUntilIdle();
    assertThat(priority("job")).isEqualTo(wpc("test-wpc", 100));
  }

  @Test
  void theWorkloadIsCreatedWhenQueueNameIsSet_withPriorityClass() {
    start("1");
    store.create(PriorityClass.of("test-pc", 200));
    store.create(job("job", null, "test-pc"));
    ctl.runUntilIdle();
    assertThat(priority("job")).isEqualTo(pod("test-pc", 200));
  }

  @Test
  void theWorkloadIsCreatedWhenQueueNameIsSet_withWorkloadPriorityClassAndPriorityClass() {
    start("1");
    store.create(PriorityClass.of("test-pc", 200));
    store.create(job("job", "test-wpc", "test-pc"));
    ctl.runUntilIdle();
    assertThat(priority("job")).isEqualTo(wpc("test-wpc", 100));
    // the pods keep their own class
    assertThat(get("job").spec().template().spec().priorityClassName()).isEqualTo("test-pc");
  }

  @Test
  void aWarningNamesTheWorkloadPriorityClassThatDoesNotExist() {
    start("2");
    store.create(job("job", "missing-wpc", null));
    ctl.runUntilIdle();

    Job j = get("job");
    assertThat(j.spec().suspend()).isTrue();
    assertThat(engine.workload(NS + "/job")).isEmpty();
    assertThat(engine.pendingCount()).isZero();
    assertThat(quotaReserved(j).reason()).isEqualTo(QueueLabels.REASON_WORKLOAD_PRIORITY_CLASS_NOT_FOUND);
    assertThat(quotaReserved(j).message()).isEqualTo("WorkloadPriorityClass \"missing-wpc\" not found");

    // FleetKit's: the class added through updateQueues reconciles the Job, which then runs with its value
    ctl.updateQueues(e -> e.putWorkloadPriorityClass(WorkloadPriorityClass.of("missing-wpc", 7)));
    ctl.runUntilIdle();
    assertThat(priority("job")).isEqualTo(wpc("missing-wpc", 7));
    assertThat(running(get("job"))).isTrue();
  }

  @Test
  void aPodPriorityClassBackedWorkloadIsLeftAloneAndReportsNothing() {
    start("1");
    store.create(PriorityClass.of("pod-high", 2000));
    store.create(job("job", null, "pod-high"));
    ctl.runUntilIdle();
    assertThat(priority("job")).isEqualTo(pod("pod-high", 2000));

    relabel("job", "missing-wpc");
    assertThat(priority("job")).isEqualTo(pod("pod-high", 2000));
    assertThat(quotaReserved(get("job")).reason()).isEqualTo(QueueLabels.REASON_PENDING);
  }

  @Test
  void aWarningNamesTheWorkloadPriorityClassTheLabelWasChangedTo() {
    start("1");
    store.create(job("job", "test-wpc", null));
    ctl.runUntilIdle();

    relabel("job", "missing-wpc");
    assertThat(priority("job")).isEqualTo(wpc("test-wpc", 100));
    assertThat(engine.pending("cq")).containsExactly(NS + "/job");
  }

  @Test
  void theWorkloadIsUpdatedWhenPriorityClassHasChangedForSuspendedJob() {
    start("1");
    store.create(job("job", "test-wpc", null));
    ctl.runUntilIdle();

    relabel("job", "test-wpc-high");
    assertThat(priority("job")).isEqualTo(wpc("test-wpc-high", 200));
  }

  @Test
  void shouldntUpdateWorkloadWhenPriorityClassNoChanges() {
    start("1");
    store.create(PriorityClass.of("test-pc", 200));
    store.create(job("job", null, "test-pc"));
    ctl.runUntilIdle();
    Job j = get("job");
    store.update(j.withMetadata(j.metadata().toBuilder().label("other", "x").build()));
    ctl.runUntilIdle();
    assertThat(priority("job")).isEqualTo(pod("test-pc", 200));
  }

  @Test
  void missingPodPriorityClass_isInadmissibleWithKueuesNotFound() {
    start("2");
    store.create(job("job", null, "nope"));
    ctl.runUntilIdle();
    assertThat(engine.workload(NS + "/job")).isEmpty();
    assertThat(quotaReserved(get("job")).reason()).isEqualTo(QueueLabels.REASON_INADMISSIBLE);
    assertThat(quotaReserved(get("job")).message()).isEqualTo("priorityclasses.scheduling.k8s.io \"nope\" not found");
  }

  @Test
  void labelRaisedOnAPendingJob_preemptsTheRunningOne() {
    start("2");
    store.create(job("low", "test-wpc", null));
    ctl.runUntilIdle();
    store.create(job("other", "test-wpc", null));
    ctl.runUntilIdle();
    assertThat(running(get("low"))).isTrue();
    assertThat(get("other").spec().suspend()).isTrue();

    relabel("other", "test-wpc-high");
    assertThat(running(get("other"))).isTrue();
    assertThat(get("low").spec().suspend()).isTrue();
    assertThat(quotaReserved(get("low")).reason()).isEqualTo(QueueLabels.REASON_PREEMPTED);
  }

  @Test
  void labelLoweredOnARunningJob_letsTheWaitingOnePreemptIt() {
    start("2");
    engine.putWorkloadPriorityClass(WorkloadPriorityClass.of("low", 10));
    store.create(job("a", "test-wpc-high", null));
    ctl.runUntilIdle();
    store.create(job("b", "test-wpc", null));
    ctl.runUntilIdle();
    assertThat(running(get("a"))).isTrue();

    relabel("a", "low");
    assertThat(priority("a")).isEqualTo(wpc("low", 10));
    assertThat(running(get("b"))).isTrue();
    assertThat(quotaReserved(get("a")).reason()).isEqualTo(QueueLabels.REASON_PREEMPTED);
  }

  @Test
  void classValueChanged_reordersThroughUpdateQueues() {
    start("2");
    store.create(job("a", "test-wpc", null));
    ctl.runUntilIdle();
    store.create(job("b", "test-wpc-high", null));
    ctl.runUntilIdle();
    assertThat(running(get("b"))).isTrue(); // 200 preempted 100
    assertThat(get("a").spec().suspend()).isTrue();

    ctl.updateQueues(e -> e.putWorkloadPriorityClass(WorkloadPriorityClass.of("test-wpc", 300)));
    ctl.runUntilIdle();
    assertThat(priority("a")).isEqualTo(wpc("test-wpc", 300));
    assertThat(running(get("a"))).isTrue();
    assertThat(get("b").spec().suspend()).isTrue();
  }

  @Test
  void labelRemovedFromARunningJob_keepsItsClass() {
    // Kueue's Job webhook refuses removing the label, and its CRD removing the class while quota is reserved
    start("2");
    store.create(job("a", "test-wpc", null));
    ctl.runUntilIdle();
    relabel("a", null);
    assertThat(priority("a")).isEqualTo(wpc("test-wpc", 100));
    assertThat(running(get("a"))).isTrue();
  }

  @Test
  void restart_restoresTheRunningJobWithItsClassValue() {
    start("2");
    store.create(job("a", "test-wpc-high", null));
    ctl.runUntilIdle();
    ctl.close();
    engine = QueueFixtures.engine(clock.asClock(), "2");
    engine.putWorkloadPriorityClass(WorkloadPriorityClass.of("test-wpc-high", 200));
    restart();
    assertThat(engine.admission(NS + "/a")).isPresent();
    assertThat(priority("a")).isEqualTo(wpc("test-wpc-high", 200));
  }
}
