package io.fleetkit.queueing.controller;

import static io.fleetkit.queueing.controller.QueueFixtures.NS;
import static io.fleetkit.queueing.controller.QueueFixtures.job;
import static io.fleetkit.queueing.controller.QueueFixtures.running;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.batch.Job;
import io.fleetkit.api.batch.JobCondition;
import io.fleetkit.api.batch.JobStatus;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.PodTemplateSpec;
import io.fleetkit.api.events.EventRecorder;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.scheduling.PriorityClass;
import io.fleetkit.api.scheduling.TaintEffect;
import io.fleetkit.api.scheduling.Toleration;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import io.fleetkit.queueing.AdmissionCheck;
import io.fleetkit.queueing.AdmissionCheckController;
import io.fleetkit.queueing.AdmissionCheckState;
import io.fleetkit.queueing.AdmissionEngine;
import io.fleetkit.queueing.CheckVerdict;
import io.fleetkit.queueing.ClusterQueue;
import io.fleetkit.queueing.ClusterQueuePreemption;
import io.fleetkit.queueing.FlavorQuotas;
import io.fleetkit.queueing.FlavorResourceQuota;
import io.fleetkit.queueing.LocalQueue;
import io.fleetkit.queueing.PodSetUpdate;
import io.fleetkit.queueing.QueuePreemptionPolicy;
import io.fleetkit.queueing.QuotaReservation;
import io.fleetkit.queueing.ResourceFlavor;
import io.fleetkit.queueing.StopPolicy;
import io.fleetkit.queueing.WaitForPodsReady;
import io.fleetkit.queueing.Workload;
import io.fleetkit.queueing.WorkloadPriorityClass;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The events Kueue's job reconciler records about a Job, recorded by the controller once per transition. The cases
 * are those of kueue (commit ff69552e) {@code pkg/controller/jobs/job/job_controller_test.go} TestReconciler whose
 * {@code wantEvents} have a counterpart here (named in each test); reasons, types and notes are those of {@code
 * pkg/controller/jobframework/reconciler.go}. Upstream feeds each case one reconcile of a Job and its Workload objects;
 * here the workloads are the engine's, made and changed by the controller, so a case runs from the Job's creation and
 * asserts the events of the transition it names. A Job's workload has the Job's name (upstream's {@code
 * GetWorkloadNameForJob} or fixture name {@code wl}/{@code a} becomes {@code default/<job>}), and upstream's hand-written
 * eviction messages are the engine's own.
 */
final class QueueJobEventsTest {
  private final ManualClock clock = ManualClock.atEpoch2026();
  private final ObjectStore store = ObjectStore.builder().directDelivery().clock(clock.asClock()).build();
  /** {@code Kind ns/name Type Reason: note}, the action after the reason when it differs. */
  private final List<String> events = new ArrayList<>();
  private final EventRecorder recorder = (ref, related, type, reason, action, note) -> events.add(ref.kind() + " "
      + ref.namespace() + "/" + ref.name() + " " + type + " " + reason + (action.equals(reason) ? "" : "/" + action)
      + (related == null ? "" : " related " + related) + ": " + note);
  /** The check controller's answer per check name (pending "checking" when absent). */
  private final Map<String, CheckVerdict> verdicts = new HashMap<>();
  private AdmissionEngine engine;
  private QueueAdmissionController ctl;

  private final AdmissionCheckController checks = new AdmissionCheckController() {
    @Override
    public String controllerName() {
      return "example.com/checks";
    }

    @Override
    public CheckVerdict evaluate(AdmissionCheck check, Workload workload, QuotaReservation reservation,
        AdmissionCheckState current) {
      return verdicts.getOrDefault(check.name(), CheckVerdict.pending("checking"));
    }
  };

  private void start(String cpus) {
    start(QueueFixtures.engine(clock.asClock(), cpus));
  }

  private void start(AdmissionEngine e) {
    engine = e;
    ctl = QueueAdmissionController.builder(store, engine).clock(clock).stepping().events(recorder).build();
    ctl.start().join();
  }

  private static ClusterQueue.Builder cq(String name, String cpus) {
    return ClusterQueue.builder(name)
        .resourceGroup(FlavorQuotas.of("batch", FlavorResourceQuota.of("cpu", cpus)))
        .preemption(ClusterQueuePreemption.of(QueuePreemptionPolicy.LOWER_PRIORITY, QueuePreemptionPolicy.NEVER));
  }

  private static AdmissionEngine.Builder engineOf(ClusterQueue queue) {
    return AdmissionEngine.builder().resourceFlavor(new ResourceFlavor("batch", QueueFixtures.POOL))
        .clusterQueue(queue).localQueue(LocalQueue.of(NS, "lq", queue.name()));
  }

  /** An engine whose ClusterQueue {@code cq} has the checks {@code names}, all decided by {@link #checks}. */
  private AdmissionEngine withChecks(String cpus, String... names) {
    AdmissionEngine.Builder b = engineOf(cq("cq", cpus).admissionChecks(names).build()).clock(clock.asClock())
        .admissionCheckController(checks);
    for (String n : names) {
      b.admissionCheck(AdmissionCheck.of(n, checks.controllerName()));
    }
    return b.build();
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

  private void update(String name, java.util.function.UnaryOperator<Job> change) {
    store.update(change.apply(get(name)));
  }

  private void updateStatus(String name, java.util.function.UnaryOperator<Job> change) {
    store.updateStatus(change.apply(get(name)));
  }

  private static String ev(String name, String rest) {
    return "Job " + NS + "/" + name + " " + rest;
  }

  private static String started(String name) {
    return ev(name, "Normal Started: Admitted by clusterQueue cq");
  }

  private static String created(String name) {
    return ev(name, "Normal CreatedWorkload: Created Workload: " + NS + "/" + name);
  }

  private static String stopped(String name, String note) {
    return ev(name, "Normal Stopped: " + note);
  }

  private static Job withTemplateSpec(Job j, PodSpec spec) {
    return j.withSpec(j.spec().withTemplate(new PodTemplateSpec(j.spec().template().metadata(), spec)));
  }

  private static Job withLabel(Job j, String key, String value) {
    return j.withMetadata(j.metadata().toBuilder().label(key, value).build());
  }

  // --- Started ---

  @Test
  void suspendedJobWithQuota_startedOnce() {
    // "suspended job with matching admitted workload is unsuspended"
    start("4");
    store.create(job("job", "lq", 2, "1", 0, true, 10));
    ctl.runUntilIdle();
    assertThat(running(get("job"))).isTrue();
    assertThat(events).containsExactly(created("job"), started("job"));

    events.clear();
    updateStatus("job", j -> j.withStatus(j.status().withStartTime(clock.now()))); // the Job controller's write
    ctl.runUntilIdle();
    assertThat(events).isEmpty();
  }

  @Test
  void noQueueLabelsOnPods_startedAsAnyJob() {
    // "Pod queue labels are not set when AssignQueueLabelsForPods is disabled" (FleetKit adds no queue labels)
    start("4");
    store.create(job("job", "lq", 1, "1", 0, true, 10));
    ctl.runUntilIdle();
    assertThat(get("job").spec().template().metadata().labels()).doesNotContainKeys("kueue.x-k8s.io/queue-name",
        "kueue.x-k8s.io/cluster-queue");
    assertThat(events).endsWith(started("job"));
  }

  @Test
  void clusterQueueNameOf100Characters_isNamedWhole() {
    // "Pod cluster queue label is not set when cluster queue name is too long"
    String name = "cq".repeat(50);
    start(engineOf(cq(name, "4").build()).clock(clock.asClock()).build());
    store.create(job("job", "lq", 1, "1", 0, true, 10));
    ctl.runUntilIdle();
    assertThat(events).containsExactly(created("job"), ev("job", "Normal Started: Admitted by clusterQueue " + name));
  }

  @Test
  void podSetUpdatesOfAReadyCheck_startedWithThem() {
    // "when workload is admitted the PodSetUpdates are propagated to job"
    start(withChecks("4", "check"));
    verdicts.put("check", CheckVerdict.ready("ok", PodSetUpdate.of("main").withLabels(Map.of("ac-key", "ac-value"))));
    store.create(job("job", "lq", 1, "1", 0, true, 10));
    ctl.runUntilIdle();
    assertThat(get("job").spec().template().metadata().labels()).containsEntry("ac-key", "ac-value");
    assertThat(events).containsExactly(created("job"), started("job"));
  }

  @Test
  void podSetUpdateMatchingTheTemplate_started() {
    // "when workload is admitted the PodSetUpdates values matching for key"
    start(withChecks("4", "check"));
    verdicts.put("check", CheckVerdict.ready("ok", PodSetUpdate.of("main").withLabels(Map.of("job", "job"))));
    store.create(job("job", "lq", 1, "1", 0, true, 10)); // its template has the label job=job
    ctl.runUntilIdle();
    assertThat(running(get("job"))).isTrue();
    assertThat(events).containsExactly(created("job"), started("job"));
  }

  @Test
  void topologyAwareJob_startedGatedWithPodSetLabelAndWorkloadAnnotation() {
    // "PodSet label and Workload annotation are set when Job is starting; TopologyAwareScheduling enabled"
    for (int i = 1; i <= 2; i++) {
      store.create(io.fleetkit.api.core.Node.builder().name("h" + i).labels(QueueFixtures.POOL)
          .label(io.fleetkit.queueing.Topology.HOSTNAME_LABEL, "h" + i)
          .allocatable(io.fleetkit.api.resource.ResourceList.builder().put("cpu", "2").put("pods", "10").build())
          .ready().build());
    }
    engine = AdmissionEngine.builder().clock(clock.asClock())
        .topology(io.fleetkit.queueing.Topology.of("dc", io.fleetkit.queueing.Topology.HOSTNAME_LABEL))
        .resourceFlavor(new ResourceFlavor("batch", QueueFixtures.POOL).withTopologyName("dc"))
        .clusterQueue(cq("cq", "4").build()).localQueue(LocalQueue.of(NS, "lq", "cq")).build();
    ctl = QueueAdmissionController.builder(store, engine).clock(clock).stepping().followNodes().events(recorder)
        .build();
    ctl.start().join();
    store.create(job("job", "lq", 2, "1", 0, true, 10));
    ctl.runUntilIdle();
    Job j = get("job");
    assertThat(j.spec().template().metadata().labels()).containsEntry(QueueLabels.POD_SET, "main");
    assertThat(j.spec().template().metadata().annotations()).containsEntry(QueueLabels.WORKLOAD, "job");
    assertThat(events).containsExactly(created("job"), started("job"));
  }

  @Test
  void partialAdmission_started() {
    // "suspended job with partial admission and admitted workload is unsuspended"
    start("2");
    Job j = job("job", "lq", 4, "1", 0, true, 10);
    store.create(j.withMetadata(j.metadata().toBuilder().annotation(QueueLabels.JOB_MIN_PARALLELISM, "2").build()));
    ctl.runUntilIdle();
    assertThat(get("job").spec().parallelism()).isEqualTo(2);
    assertThat(events).containsExactly(created("job"), started("job"));
  }

  // --- CreatedWorkload, and Stopped for a Job created running ---

  @Test
  void suspendedJob_workloadCreatedOnce() {
    // "when workload is created, it has its owner ProvReq annotations", "when workload is created, it has correct
    // labels set": a suspended Job gets its workload, and no Stopped
    start("1");
    store.create(job("job", "lq", 10, "1", 0, true, 10));
    ctl.runUntilIdle();
    assertThat(events).containsExactly(created("job"));
    update("job", j -> withLabel(j, "unrelated", "change"));
    ctl.runUntilIdle();
    assertThat(events).containsExactly(created("job"));
  }

  @Test
  void runningJobWithoutWorkload_stoppedThenWorkloadCreated() {
    // "the workload is created when queue name is set": one reconcile stops the Job, then creates its workload
    start("1");
    store.create(job("job", "lq", 10, "1", 0, false, 10));
    assertThat(ctl.runOnce()).isTrue();
    assertThat(events).containsExactly(stopped("job", "Missing Workload; unable to restore pod templates"),
        created("job"));
    ctl.runUntilIdle();
    assertThat(events).hasSize(2);
  }

  @Test
  void runningJobWithLongUid_stoppedThenWorkloadCreated() {
    // "the workload without uid label is created when job's uid is longer than 63 characters"
    start("1");
    Job j = job("job", "lq", 10, "1", 0, false, 10);
    store.create(j.withMetadata(j.metadata().toBuilder().uid("long-uid".repeat(8)).build()));
    ctl.runUntilIdle();
    assertThat(events).containsExactly(stopped("job", "Missing Workload; unable to restore pod templates"),
        created("job"));
  }

  @Test
  void runningJobWithWorkloadPriorityClass_stoppedThenWorkloadCreated() {
    // "the workload is created when queue name is set, with workloadPriorityClass"
    start(engineOf(cq("cq", "1").build()).clock(clock.asClock())
        .workloadPriorityClass(new WorkloadPriorityClass("test-wpc", 100, "")).build());
    store.create(withLabel(job("job", "lq", 10, "1", 0, false, 10), WorkloadPriorityClass.LABEL, "test-wpc"));
    ctl.runUntilIdle();
    assertThat(engine.workload(NS + "/job")).get().extracting(Workload::priority).isEqualTo(100);
    assertThat(events).containsExactly(stopped("job", "Missing Workload; unable to restore pod templates"),
        created("job"));
  }

  @Test
  void runningJobWithPriorityClass_stoppedThenWorkloadCreated() {
    // "the workload is created when queue name is set, with PriorityClass"
    start("1");
    store.create(PriorityClass.of("test-pc", 200));
    Job j = job("job", "lq", 10, "1", 0, false, 10);
    PodSpec s = j.spec().template().spec();
    store.create(withTemplateSpec(j, s.withPriority(null, "test-pc", s.preemptionPolicy())));
    ctl.runUntilIdle();
    assertThat(engine.workload(NS + "/job")).get().extracting(Workload::priority).isEqualTo(200);
    assertThat(events).containsExactly(stopped("job", "Missing Workload; unable to restore pod templates"),
        created("job"));
  }

  @Test
  void runningJobWithBothClasses_stoppedThenWorkloadCreatedWithTheWorkloadPriorityClass() {
    // "the workload is created when queue name is set, with workloadPriorityClass and PriorityClass"
    start(engineOf(cq("cq", "1").build()).clock(clock.asClock())
        .workloadPriorityClass(new WorkloadPriorityClass("test-wpc", 100, "")).build());
    store.create(PriorityClass.of("test-pc", 200));
    Job j = withLabel(job("job", "lq", 10, "1", 0, false, 10), WorkloadPriorityClass.LABEL, "test-wpc");
    PodSpec s = j.spec().template().spec();
    store.create(withTemplateSpec(j, s.withPriority(null, "test-pc", s.preemptionPolicy())));
    ctl.runUntilIdle();
    assertThat(engine.workload(NS + "/job")).get().extracting(Workload::priority).isEqualTo(100);
    assertThat(events).containsExactly(stopped("job", "Missing Workload; unable to restore pod templates"),
        created("job"));
  }

  @Test
  void runningJobWithoutWorkload_admittedAtOnce_stoppedCreatedThenStarted() {
    // FleetKit's: the workload is admitted in the reconcile that makes it; the Job is stopped first all the same
    start("4");
    store.create(job("job", "lq", 1, "1", 0, false, 10));
    ctl.runUntilIdle();
    clock.advance(Duration.ofSeconds(1));
    ctl.runUntilIdle();
    assertThat(running(get("job"))).isTrue();
    assertThat(events).containsExactly(stopped("job", "Missing Workload; unable to restore pod templates"),
        created("job"), started("job"));
  }

  @Test
  void cyclesPerRound_runningJobWithoutWorkload_stoppedThenCreatedThenStarted() {
    // FleetKit's: with the cycles once per round, the workload is made in one reconcile and the Job stopped in the
    // next; the CreatedWorkload still follows the Stopped
    engine = QueueFixtures.engine(clock.asClock(), "4");
    ctl = QueueAdmissionController.builder(store, engine).clock(clock).stepping().cyclesPerRound().events(recorder)
        .build();
    ctl.start().join();
    store.create(job("job", "lq", 1, "1", 0, false, 10));
    ctl.runUntilIdle();
    clock.advance(Duration.ofSeconds(1));
    ctl.runUntilIdle();
    assertThat(running(get("job"))).isTrue();
    assertThat(events).containsExactly(stopped("job", "Missing Workload; unable to restore pod templates"),
        created("job"), started("job"));
  }

  @Test
  void userResumesPendingJob_stoppedAsNotAdmitted() {
    // Kueue's StopReasonNotAdmitted: a running Job whose workload is not admitted
    start("1");
    store.create(job("job", "lq", 10, "1", 0, true, 10));
    ctl.runUntilIdle();
    update("job", j -> j.withSpec(j.spec().withSuspend(false)));
    ctl.runUntilIdle();
    assertThat(get("job").spec().suspend()).isTrue();
    assertThat(events).containsExactly(created("job"), stopped("job", "Not admitted by cluster queue"));
  }

  // --- UpdatedWorkload ---

  @Test
  void waitingJobsPodSetsChange_workloadUpdated() {
    // "non-matching non-admitted workload is updated"
    start("1");
    store.create(job("job", "lq", 10, "1", 0, true, 10));
    ctl.runUntilIdle();
    events.clear();
    update("job", j -> j.withSpec(j.spec().withParallelism(5)));
    ctl.runUntilIdle();
    assertThat(engine.workload(NS + "/job")).get().satisfies(w -> assertThat(w.podSets().get(0).count()).isEqualTo(5));
    assertThat(events).containsExactly(
        ev("job", "Normal UpdatedWorkload: Updated not matching Workload for suspended job: default/job"));
  }

  @Test
  void waitingJobsTolerationsAndNodeSelectorChange_workloadUpdated() {
    // "the workload is not admitted, tolerations and node selector change"
    start("1");
    store.create(job("job", "lq", 10, "1", 0, true, 10));
    ctl.runUntilIdle();
    events.clear();
    update("job", j -> withTemplateSpec(j, j.spec().template().spec().toBuilder().nodeSelector(Map.of("disk", "ssd"))
        .build().withTolerations(List.of(Toleration.equal("dedicated", "batch", TaintEffect.NoSchedule)))));
    ctl.runUntilIdle();
    assertThat(events).containsExactly(
        ev("job", "Normal UpdatedWorkload: Updated not matching Workload for suspended job: default/job"));
  }

  @Test
  void queueNameChange_movesTheWorkloadWithoutAnEvent() {
    // "the workload is updated when queue name has changed for suspended job" (no events)
    start(engineOf(cq("cq", "1").build()).clock(clock.asClock()).localQueue(LocalQueue.of(NS, "other", "cq"))
        .build());
    store.create(job("job", "lq", 10, "1", 0, true, 10));
    ctl.runUntilIdle();
    events.clear();
    update("job", j -> withLabel(j, QueueLabels.QUEUE_NAME, "other"));
    ctl.runUntilIdle();
    assertThat(engine.workload(NS + "/job")).get().extracting(Workload::queueName).isEqualTo("other");
    assertThat(events).isEmpty();
  }

  @Test
  void priorityClassLabelChange_workloadPriorityUpdated_unchangedLabelNothing() {
    // "the workload is updated when priority class has changed for suspended job"; "shouldn't update workload when
    // priority class no changes" (no events)
    start(engineOf(cq("cq", "1").build()).clock(clock.asClock())
        .workloadPriorityClass(new WorkloadPriorityClass("test-wpc", 100, ""))
        .workloadPriorityClass(new WorkloadPriorityClass("test-wpc-high", 200, "")).build());
    store.create(withLabel(job("job", "lq", 10, "1", 0, true, 10), WorkloadPriorityClass.LABEL, "test-wpc"));
    ctl.runUntilIdle();
    events.clear();
    update("job", j -> withLabel(j, "unrelated", "change"));
    ctl.runUntilIdle();
    assertThat(events).isEmpty();

    update("job", j -> withLabel(j, WorkloadPriorityClass.LABEL, "test-wpc-high"));
    ctl.runUntilIdle();
    assertThat(engine.workload(NS + "/job")).get().extracting(Workload::priority).isEqualTo(200);
    assertThat(events).containsExactly(ev("job", "Normal UpdatedWorkload: Updated workload priority class: default/job"));
  }

  // --- WorkloadPriorityClassNotFound ---

  @Test
  void missingWorkloadPriorityClass_warnedOnce_createdWhenTheClassComes() {
    // "a warning names the WorkloadPriorityClass that does not exist"
    start("1");
    store.create(withLabel(job("job", "lq", 10, "1", 0, true, 10), WorkloadPriorityClass.LABEL, "missing-wpc"));
    ctl.runUntilIdle();
    String warning = ev("job", "Warning WorkloadPriorityClassNotFound: WorkloadPriorityClass \"missing-wpc\" not found");
    assertThat(events).containsExactly(warning);
    update("job", j -> withLabel(j, "unrelated", "change"));
    ctl.runUntilIdle();
    assertThat(events).containsExactly(warning);

    ctl.updateQueues(e -> e.putWorkloadPriorityClass(new WorkloadPriorityClass("missing-wpc", 5, "")));
    ctl.runUntilIdle();
    assertThat(events).containsExactly(warning, created("job"));
  }

  @Test
  void runningJobNamingAMissingClass_stoppedThenWarned() {
    // FleetKit's: Kueue stops a running Job without a workload before it resolves the new workload's priority
    start("1");
    store.create(withLabel(job("job", "lq", 10, "1", 0, false, 10), WorkloadPriorityClass.LABEL, "missing-wpc"));
    ctl.runUntilIdle();
    assertThat(events).containsExactly(stopped("job", "Missing Workload; unable to restore pod templates"),
        ev("job", "Warning WorkloadPriorityClassNotFound: WorkloadPriorityClass \"missing-wpc\" not found"));
  }

  @Test
  void labelChangedToAMissingClass_warnedOnce_priorityKept() {
    // "a warning names the WorkloadPriorityClass the label was changed to"
    start(engineOf(cq("cq", "1").build()).clock(clock.asClock())
        .workloadPriorityClass(new WorkloadPriorityClass("test-wpc", 100, "")).build());
    store.create(withLabel(job("job", "lq", 10, "1", 0, true, 10), WorkloadPriorityClass.LABEL, "test-wpc"));
    ctl.runUntilIdle();
    events.clear();
    update("job", j -> withLabel(j, WorkloadPriorityClass.LABEL, "missing-wpc"));
    ctl.runUntilIdle();
    update("job", j -> withLabel(j, "unrelated", "change"));
    ctl.runUntilIdle();
    assertThat(engine.workload(NS + "/job")).get().extracting(Workload::priority).isEqualTo(100);
    assertThat(events).containsExactly(
        ev("job", "Warning WorkloadPriorityClassNotFound: WorkloadPriorityClass \"missing-wpc\" not found"));
  }

  // --- Stopped on eviction ---

  @Test
  void preempted_stoppedWithThePreemptionMessage_startTimeResetAndNodeSelectorRestored() {
    // "when workload is evicted due to preemption, job gets suspended"; "when workload is evicted, suspend, reset
    // startTime and restore node affinity"
    start("4");
    store.create(job("low", "lq", 2, "2", 0, true, 10));
    ctl.runUntilIdle();
    updateStatus("low", j -> j.withStatus(j.status().withStartTime(clock.now())));
    assertThat(get("low").status().startTime()).isNotNull();
    ctl.runUntilIdle();
    events.clear();
    clock.advance(Duration.ofSeconds(5));
    store.create(job("high", "lq", 1, "4", 100, true, 10));
    ctl.runUntilIdle();

    Job low = get("low");
    assertThat(low.spec().suspend()).isTrue();
    assertThat(low.status().startTime()).isNull();
    assertThat(low.spec().template().spec().nodeSelector()).isEmpty();
    assertThat(events).filteredOn(e -> e.startsWith("Job default/low")).containsExactly(stopped("low",
        "Preempted to accommodate a workload (default/high) due to prioritization in the ClusterQueue; "
            + "preemptor path: /cq; preemptee path: /cq"));
  }

  @Test
  void preemptedWhileSuspended_noStopped() {
    // "when workload is evicted but suspended, reset startTime and restore node affinity" (no events): a Job whose
    // quota is reserved while its check is pending is suspended; its preemption stops nothing
    start(withChecks("4", "check"));
    store.create(job("low", "lq", 2, "2", 0, true, 10));
    ctl.runUntilIdle();
    assertThat(engine.admission(NS + "/low")).isPresent();
    events.clear();
    store.create(job("high", "lq", 1, "4", 100, true, 10));
    ctl.runUntilIdle();
    assertThat(engine.admission(NS + "/low")).isEmpty();
    assertThat(events).noneMatch(e -> e.startsWith("Job default/low"));
  }

  @Test
  void podsReadyTimeout_stoppedWithTheEvictionMessage() {
    // "when workload is evicted due to pods ready timeout, job gets suspended and quota is unset"
    start(engineOf(cq("cq", "4").build()).clock(clock.asClock())
        .waitForPodsReady(WaitForPodsReady.builder().timeout(Duration.ofMinutes(1)).backoffJitter(0).build()).build());
    store.create(job("job", "lq", 2, "1", 0, true, 10));
    ctl.runUntilIdle();
    events.clear();
    clock.advance(Duration.ofMinutes(1));
    ctl.runUntilIdle();
    assertThat(get("job").spec().suspend()).isTrue();
    assertThat(events).containsExactly(stopped("job", "Exceeded the PodsReady timeout default/job"));
  }

  @Test
  void requeuingLimitReached_stoppedWithTheDeactivationMessage() {
    // FleetKit's counterpart of "when workload is evicted due to spec.active field being false": deactivated by Kueue
    start(engineOf(cq("cq", "4").build()).clock(clock.asClock()).waitForPodsReady(WaitForPodsReady.builder()
        .timeout(Duration.ofMinutes(1)).backoffLimitCount(0).backoffJitter(0).build()).build());
    store.create(job("job", "lq", 1, "1", 0, true, 10));
    ctl.runUntilIdle();
    events.clear();
    clock.advance(Duration.ofMinutes(1));
    ctl.runUntilIdle();
    clock.advance(Duration.ofHours(1));
    ctl.runUntilIdle();
    assertThat(events).containsExactly(stopped("job",
        "The workload is deactivated due to exceeding the maximum number of re-queuing retries"));
  }

  @Test
  void clusterQueueHoldAndDrain_stoppedWithTheStopMessage_startedAgainWhenResumed() {
    // "when workload is evicted due to cluster queue stopped, job gets suspended"
    start("4");
    store.create(job("job", "lq", 1, "1", 0, true, 10));
    ctl.runUntilIdle();
    events.clear();
    ctl.updateQueues(e -> e.putClusterQueue(cq("cq", "4").stopPolicy(StopPolicy.HOLD_AND_DRAIN).build()));
    ctl.runUntilIdle();
    assertThat(events).containsExactly(stopped("job", "The ClusterQueue is stopped"));
    ctl.updateQueues(e -> e.putClusterQueue(cq("cq", "4").build()));
    ctl.runUntilIdle();
    assertThat(events).containsExactly(stopped("job", "The ClusterQueue is stopped"), started("job"));
  }

  @Test
  void localQueueHoldAndDrain_stoppedWithTheStopMessage() {
    // "when workload is evicted due to local queue stopped, job gets suspended"
    start("4");
    store.create(job("job", "lq", 1, "1", 0, true, 10));
    ctl.runUntilIdle();
    events.clear();
    ctl.updateQueues(e -> e.putLocalQueue(LocalQueue.of(NS, "lq", "cq").withStopPolicy(StopPolicy.HOLD_AND_DRAIN)));
    ctl.runUntilIdle();
    assertThat(get("job").spec().suspend()).isTrue();
    assertThat(events).containsExactly(stopped("job", "The LocalQueue is stopped"));
  }

  // --- FinishedWorkload ---

  @Test
  void jobCompletes_workloadDeclaredFinishedOnce() {
    // "when job completes, workload is marked as finished"
    start("4");
    store.create(job("job", "lq", 1, "1", 0, true, 10));
    ctl.runUntilIdle();
    events.clear();
    updateStatus("job", j -> j.withStatus(new JobStatus(0, 1, 0, null, List.of(new JobCondition(JobCondition.COMPLETE,
        ConditionStatus.True, "", "", clock.now(), clock.now())), null, clock.now(), "")));
    ctl.runUntilIdle();
    update("job", j -> withLabel(j, "unrelated", "change"));
    ctl.runUntilIdle();
    assertThat(events).containsExactly(ev("job", "Normal FinishedWorkload: Workload 'default/job' is declared finished"));
  }

  @Test
  void failedToStart_workloadDeclaredFinishedOnceAtTheNextReconcile() {
    // "when the workload is finished, its finalizer is removed": the Job's workload finished without the Job (here
    // as Kueue's FailedToStart, conflicting pod set updates)
    start(withChecks("4", "check"));
    verdicts.put("check", CheckVerdict.ready("ok", PodSetUpdate.of("main").withLabels(Map.of("job", "other"))));
    store.create(job("job", "lq", 1, "1", 0, true, 10));
    ctl.runUntilIdle();
    update("job", j -> withLabel(j, "unrelated", "change"));
    ctl.runUntilIdle();
    assertThat(QueueFixtures.quotaReserved(get("job")).reason()).isEqualTo(QueueLabels.REASON_FAILED_TO_START);
    assertThat(events).containsExactly(created("job"),
        ev("job", "Normal FinishedWorkload: Workload 'default/job' is declared finished"));
  }

  // --- UpdatedAdmissionCheck ---

  @Test
  void pendingCheckMessage_recordedOncePerMessage() {
    // "admission check message is emitted as event for job" (upstream's check name acName is not a valid
    // AdmissionCheck name here: ac-name)
    start(withChecks("4", "ac-name"));
    verdicts.put("ac-name", CheckVerdict.pending("Not admitted, ETA: 2024-02-22T10:36:40Z."));
    store.create(job("job", "lq", 1, "1", 0, true, 10));
    ctl.runUntilIdle();
    clock.advance(Duration.ofSeconds(2));
    ctl.runUntilIdle();
    String first = ev("job", "Normal UpdatedAdmissionCheck: ac-name: Not admitted, ETA: 2024-02-22T10:36:40Z.");
    assertThat(events).containsExactly(created("job"), first);

    verdicts.put("ac-name", CheckVerdict.pending("Not admitted, ETA: 2024-02-22T10:40:00Z."));
    clock.advance(Duration.ofSeconds(2));
    ctl.runUntilIdle();
    assertThat(events).containsExactly(created("job"), first,
        ev("job", "Normal UpdatedAdmissionCheck: ac-name: Not admitted, ETA: 2024-02-22T10:40:00Z."));
  }

  @Test
  void twoPendingCheckMessages_oneEvent() {
    // "multiple admission check messages are emitted as a single event for job"
    start(withChecks("4", "ac-name1", "ac-name2"));
    verdicts.put("ac-name1", CheckVerdict.pending("Some message."));
    verdicts.put("ac-name2", CheckVerdict.pending("Another message."));
    store.create(job("job", "lq", 1, "1", 0, true, 10));
    ctl.runUntilIdle();
    assertThat(events).containsExactly(created("job"),
        ev("job", "Normal UpdatedAdmissionCheck: ac-name1: Some message.; ac-name2: Another message."));
  }

  // --- the recorder ---

  @Test
  void recorderThatThrows_neverBreaksAReconcile() {
    engine = QueueFixtures.engine(clock.asClock(), "4");
    ctl = QueueAdmissionController.builder(store, engine).clock(clock).stepping()
        .events((ref, related, type, reason, action, note) -> {
          throw new IllegalStateException("store down");
        }).build();
    ctl.start().join();
    store.create(job("job", "lq", 1, "1", 0, false, 10));
    ctl.runUntilIdle();
    clock.advance(Duration.ofSeconds(1));
    ctl.runUntilIdle();
    assertThat(running(get("job"))).isTrue();
  }

  @Test
  void builder_eventsGivenTwice_failsNamingTheOldRecorder() {
    QueueAdmissionController.Builder b = QueueAdmissionController.builder(store, QueueFixtures.engine(clock.asClock(),
        "1")).events(recorder);
    assertThatThrownBy(() -> b.events(EventRecorder.NOOP)).isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith("QueueAdmissionController: events was already set to ");
  }
}
