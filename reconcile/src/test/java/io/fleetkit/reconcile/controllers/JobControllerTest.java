package io.fleetkit.reconcile.controllers;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.batch.CompletionMode;
import io.fleetkit.api.batch.Job;
import io.fleetkit.api.batch.JobCondition;
import io.fleetkit.api.batch.JobSpec;
import io.fleetkit.api.core.ContainerState;
import io.fleetkit.api.core.ContainerStatus;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.RestartPolicy;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import io.fleetkit.reconcile.controllers.internal.JobBackoffRecord;
import io.fleetkit.reconcile.controllers.internal.JobReconciler;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The Job controller over time in stepping mode, with a manual clock and a hand-operated kubelet. */
final class JobControllerTest {
  private final ManualClock clock = ManualClock.atEpoch2026();

  private static Job job(int parallelism, Integer completions, int backoffLimit, CompletionMode mode,
      RestartPolicy restart, Long deadline) {
    Job j = Job.builder().namespace("ns").name("calc").parallelism(parallelism).completions(completions)
        .completionMode(mode).backoffLimit(backoffLimit).activeDeadlineSeconds(deadline)
        .podSpec(PodSpec.builder().container("c", "busybox", ResourceList.EMPTY).restartPolicy(restart).build())
        .build();
    return j;
  }

  private static Job job(int parallelism, Integer completions, int backoffLimit) {
    return job(parallelism, completions, backoffLimit, CompletionMode.NonIndexed, RestartPolicy.Never, null);
  }

  private JobController controller(ObjectStore store) {
    JobController c = JobController.builder(store).clock(clock).stepping().build();
    c.start().join();
    return c;
  }

  private static List<Pod> active(ObjectStore store) {
    return store.list(Pod.class, "ns").items().stream().filter(ActivePods::isActive).toList();
  }

  private Pod finish(ObjectStore store, Pod p, PodPhase phase) {
    Pod cur = store.require(Pod.class, "ns", p.metadata().name());
    ContainerState end = ContainerState.terminated(phase == PodPhase.Succeeded ? 0 : 1, "", clock.now());
    return store.updateStatus(cur.withStatus(cur.status().withPhase(phase)
        .withContainerStatuses(List.of(new ContainerStatus("c", false, 0, end)))));
  }

  private static Job get(ObjectStore store) {
    return store.require(Job.class, "ns", "calc");
  }

  @Test
  void backoff_isTenSecondsDoublingCappedAtSixMinutes() {
    assertThat(delay(1)).isEqualTo(Duration.ofSeconds(10));
    assertThat(delay(2)).isEqualTo(Duration.ofSeconds(20));
    assertThat(delay(3)).isEqualTo(Duration.ofSeconds(40));
    assertThat(delay(6)).isEqualTo(Duration.ofSeconds(320));
    assertThat(delay(7)).isEqualTo(Duration.ofMinutes(6));
    assertThat(delay(100)).isEqualTo(Duration.ofMinutes(6));
  }

  private static Duration delay(int failures) {
    return JobBackoffRecord.delay(failures, JobReconciler.DEFAULT_BACKOFF, JobReconciler.MAX_BACKOFF);
  }

  @Test
  void failedPod_replacementWaitsForBackoffThenDoubles() {
    try (ObjectStore store = Sim.store(clock); JobController c = controller(store)) {
      store.create(job(1, 1, 6));
      c.runUntilIdle();
      finish(store, active(store).get(0), PodPhase.Failed);
      c.runUntilIdle();
      assertThat(active(store)).as("10 s backoff after the first failure").isEmpty();
      clock.advance(Duration.ofSeconds(9));
      c.runUntilIdle();
      assertThat(active(store)).isEmpty();
      clock.advance(Duration.ofSeconds(1));
      c.runUntilIdle();
      assertThat(active(store)).hasSize(1);
      finish(store, active(store).get(0), PodPhase.Failed);
      clock.advance(Duration.ofSeconds(19));
      c.runUntilIdle();
      assertThat(active(store)).as("20 s after the second failure").isEmpty();
      clock.advance(Duration.ofSeconds(1));
      c.runUntilIdle();
      assertThat(active(store)).hasSize(1);
      assertThat(get(store).status().failed()).isEqualTo(2);
    }
  }

  @Test
  void failedPodGone_stillCountsInTheBackoffRecord() {
    // upstream's backoffRecord: the failures are remembered, not read from the pods still there
    try (ObjectStore store = Sim.store(clock); JobController c = controller(store)) {
      store.create(job(1, 1, 6));
      c.runUntilIdle();
      Pod first = finish(store, active(store).get(0), PodPhase.Failed);
      c.runUntilIdle();
      assertThat(store.require(Pod.class, "ns", first.metadata().name()).metadata().finalizers())
          .as("counted and released").doesNotContain(Job.TRACKING_FINALIZER);
      store.delete(Pod.class, "ns", first.metadata().name()); // say the pod garbage collector
      assertThat(store.get(Pod.class, "ns", first.metadata().name())).isEmpty();
      clock.advance(Duration.ofSeconds(10));
      c.runUntilIdle();
      finish(store, active(store).get(0), PodPhase.Failed);
      clock.advance(Duration.ofSeconds(19));
      c.runUntilIdle();
      assertThat(active(store)).as("20 s after the second failure, the first one gone").isEmpty();
      clock.advance(Duration.ofSeconds(1));
      c.runUntilIdle();
      assertThat(active(store)).hasSize(1);
    }
  }

  @Test
  void successResetsTheBackoffRecord() {
    try (ObjectStore store = Sim.store(clock); JobController c = controller(store)) {
      store.create(job(1, 3, 6));
      c.runUntilIdle();
      finish(store, active(store).get(0), PodPhase.Failed);
      clock.advance(Duration.ofSeconds(10));
      c.runUntilIdle();
      finish(store, active(store).get(0), PodPhase.Succeeded);
      c.runUntilIdle();
      assertThat(active(store)).as("no failure since the last success: no wait").hasSize(1);
      finish(store, active(store).get(0), PodPhase.Failed);
      clock.advance(Duration.ofSeconds(9));
      c.runUntilIdle();
      assertThat(active(store)).as("10 s after the first failure since the success, not 20 s").isEmpty();
      clock.advance(Duration.ofSeconds(1));
      c.runUntilIdle();
      assertThat(active(store)).hasSize(1);
    }
  }

  @Test
  void backoffLimitExceeded_jobFailedAndNoMorePods() {
    try (ObjectStore store = Sim.store(clock); JobController c = controller(store)) {
      store.create(job(1, 1, 1));
      for (int i = 0; i < 2; i++) {
        c.runUntilIdle();
        clock.advance(Duration.ofMinutes(1));
        c.runUntilIdle();
        finish(store, active(store).get(0), PodPhase.Failed);
        clock.advance(Duration.ofMinutes(1));
      }
      c.runUntilIdle();
      Job j = get(store);
      assertThat(j.status().failed()).isEqualTo(2);
      JobCondition failed = j.status().condition(JobCondition.FAILED);
      assertThat(failed).isNotNull();
      assertThat(failed.reason()).isEqualTo(JobCondition.REASON_BACKOFF_LIMIT_EXCEEDED);
      clock.advance(Duration.ofHours(1));
      c.runUntilIdle();
      assertThat(active(store)).isEmpty();
    }
  }

  @Test
  void onFailureRestarts_countAgainstBackoffLimit() {
    try (ObjectStore store = Sim.store(clock); JobController c = controller(store)) {
      store.create(job(1, 1, 2, CompletionMode.NonIndexed, RestartPolicy.OnFailure, null));
      c.runUntilIdle();
      Pod p = Sim.run(store, active(store).get(0), "n1");
      store.updateStatus(p.withStatus(p.status().withContainerStatuses(List.of(
          new ContainerStatus("c", false, 2, ContainerState.running(clock.now()))))));
      c.runUntilIdle();
      // the bound pod terminates gracefully: FailureTarget now, Failed once its kubelet has ended it
      assertThat(get(store).status().condition(JobCondition.FAILURE_TARGET)).isNotNull();
      assertThat(get(store).status().condition(JobCondition.FAILED)).isNull();
      assertThat(Sim.finishTerminating(store)).isEqualTo(1);
      c.runUntilIdle();
      JobCondition failed = get(store).status().condition(JobCondition.FAILED);
      assertThat(failed).isNotNull();
      assertThat(failed.reason()).isEqualTo(JobCondition.REASON_BACKOFF_LIMIT_EXCEEDED);
      assertThat(active(store)).as("active pods are deleted when the Job fails").isEmpty();
    }
  }

  @Test
  void activeDeadline_passes_jobFailedDeadlineExceededPodsDeleted() {
    try (ObjectStore store = Sim.store(clock); JobController c = controller(store)) {
      store.create(job(2, 4, 6, CompletionMode.NonIndexed, RestartPolicy.Never, 30L));
      c.runUntilIdle();
      assertThat(active(store)).hasSize(2);
      clock.advance(Duration.ofSeconds(29));
      c.runUntilIdle();
      assertThat(get(store).status().isFinished()).isFalse();
      clock.advance(Duration.ofSeconds(1));
      c.runUntilIdle(); // woken by the requeue at the deadline, not by an event
      Job j = get(store);
      JobCondition failed = j.status().condition(JobCondition.FAILED);
      assertThat(failed).isNotNull();
      assertThat(failed.reason()).isEqualTo(JobCondition.REASON_DEADLINE_EXCEEDED);
      assertThat(j.status().failed()).isEqualTo(2);
      assertThat(j.status().active()).isZero();
      assertThat(active(store)).isEmpty();
    }
  }

  @Test
  void completions_runToCompleteWithParallelism() {
    try (ObjectStore store = Sim.store(clock); JobController c = controller(store)) {
      store.create(job(2, 5, 6));
      int rounds = 0;
      while (!get(store).status().isFinished() && rounds++ < 20) {
        c.runUntilIdle();
        assertThat(active(store).size()).isLessThanOrEqualTo(2);
        for (Pod p : active(store)) {
          finish(store, p, PodPhase.Succeeded);
        }
        c.runUntilIdle();
      }
      Job j = get(store);
      assertThat(j.status().succeeded()).isEqualTo(5);
      assertThat(j.status().condition(JobCondition.COMPLETE)).isNotNull();
      assertThat(j.status().completionTime()).isNotNull();
      assertThat(store.list(Pod.class, "ns").items()).hasSize(5);
    }
  }

  @Test
  void indexed_failedIndexIsRetriedAndAllIndexesComplete() {
    try (ObjectStore store = Sim.store(clock); JobController c = controller(store)) {
      store.create(job(3, 3, 6, CompletionMode.Indexed, RestartPolicy.Never, null));
      c.runUntilIdle();
      List<Pod> pods = active(store);
      assertThat(pods).extracting(p -> p.metadata().labels().get(WorkloadLabels.JOB_COMPLETION_INDEX))
          .containsExactlyInAnyOrder("0", "1", "2");
      assertThat(pods).allMatch(p -> p.metadata().name().startsWith("calc-"
          + p.metadata().annotations().get(WorkloadLabels.JOB_COMPLETION_INDEX) + "-"));
      for (Pod p : pods) {
        boolean one = "1".equals(p.metadata().annotations().get(WorkloadLabels.JOB_COMPLETION_INDEX));
        finish(store, p, one ? PodPhase.Failed : PodPhase.Succeeded);
      }
      c.runUntilIdle();
      assertThat(get(store).status().completedIndexes()).isEqualTo("0,2");
      clock.advance(Duration.ofSeconds(10));
      c.runUntilIdle();
      List<Pod> retry = active(store);
      assertThat(retry).hasSize(1);
      assertThat(retry.get(0).metadata().annotations()).containsEntry(WorkloadLabels.JOB_COMPLETION_INDEX, "1");
      finish(store, retry.get(0), PodPhase.Succeeded);
      c.runUntilIdle();
      Job j = get(store);
      assertThat(j.status().completedIndexes()).isEqualTo("0-2");
      assertThat(j.status().succeeded()).isEqualTo(3);
      assertThat(j.status().failed()).isEqualTo(1);
      assertThat(j.status().condition(JobCondition.COMPLETE)).isNotNull();
    }
  }

  @Test
  void suspendAndResume_deletesThenRecreatesPods() {
    try (ObjectStore store = Sim.store(clock); JobController c = controller(store)) {
      store.create(job(2, 4, 6));
      c.runUntilIdle();
      assertThat(active(store)).hasSize(2);
      Job j = get(store);
      store.update(j.withSpec(j.spec().withSuspend(true)));
      c.runUntilIdle();
      assertThat(active(store)).isEmpty();
      assertThat(get(store).status().startTime()).isNull();
      j = get(store);
      JobSpec resumed = j.spec().withSuspend(false);
      store.update(j.withSpec(resumed));
      c.runUntilIdle();
      assertThat(active(store)).hasSize(2);
      JobCondition s = get(store).status().condition(JobCondition.SUSPENDED);
      assertThat(s).isNotNull();
      assertThat(s.reason()).isEqualTo("JobResumed");
    }
  }

  @Test
  void formatIndexes_intervals() {
    assertThat(JobReconciler.formatIndexes(List.of())).isEmpty();
    assertThat(JobReconciler.formatIndexes(List.of(0))).isEqualTo("0");
    assertThat(JobReconciler.formatIndexes(List.of(0, 1))).isEqualTo("0,1");
    assertThat(JobReconciler.formatIndexes(List.of(0, 1, 2))).isEqualTo("0-2");
    assertThat(JobReconciler.formatIndexes(List.of(1, 3, 4, 5, 7))).isEqualTo("1,3-5,7");
  }

  private static Job labelledJob(int parallelism, int completions) {
    return Job.builder().namespace("ns").name("calc").parallelism(parallelism).completions(completions)
        .selector(LabelSelector.of(Map.of("app", "calc"))).templateLabels(Map.of("app", "calc"))
        .podSpec(PodSpec.builder().container("c", "busybox", ResourceList.EMPTY).restartPolicy(RestartPolicy.Never)
            .build())
        .build();
  }

  private static List<Pod> controlledActive(ObjectStore store, Job job) {
    return active(store).stream().filter(p -> p.metadata().controllerRef() != null
        && p.metadata().controllerRef().uid().equals(job.metadata().uid())).toList();
  }

  @Test
  void orphanMatchingTheSelector_isAdoptedAndCounted() {
    try (ObjectStore store = Sim.store(clock); JobController c = controller(store)) {
      store.create(Pod.of(ObjectMeta.builder().namespace("ns").name("leftover").label("app", "calc").build(),
          labelledJob(2, 4).spec().template().spec()));
      Job job = store.create(labelledJob(2, 4));
      c.runUntilIdle();
      assertThat(store.require(Pod.class, "ns", "leftover").metadata().controllerRef().uid())
          .isEqualTo(job.metadata().uid());
      assertThat(controlledActive(store, job)).hasSize(2);
      assertThat(active(store)).as("one pod created beside the adopted one").hasSize(2);
      assertThat(get(store).status().active()).isEqualTo(2);
    }
  }

  @Test
  void podLeavingTheSelector_isReleasedAndReplaced_andReadoptedWhenItMatchesAgain() {
    try (ObjectStore store = Sim.store(clock); JobController c = controller(store)) {
      Job job = store.create(labelledJob(2, 4));
      c.runUntilIdle();
      Pod leaving = active(store).get(0);
      store.update(leaving.withMetadata(leaving.metadata().withLabels(Map.of("app", "debug"))));
      c.runUntilIdle();
      Pod released = store.require(Pod.class, "ns", leaving.metadata().name());
      assertThat(released.metadata().ownerReferences()).as("released").isEmpty();
      assertThat(controlledActive(store, job)).as("a replacement").hasSize(2)
          .noneMatch(p -> p.metadata().name().equals(leaving.metadata().name()));

      // labelled back: the orphan's update wakes the Job, which adopts it and then has one active pod too many
      store.update(released.withMetadata(released.metadata().withLabels(Map.of("app", "calc"))));
      c.runUntilIdle();
      assertThat(store.list(Pod.class, "ns").items()).allMatch(p -> p.metadata().controllerRef() != null
          && p.metadata().controllerRef().uid().equals(job.metadata().uid()));
      assertThat(controlledActive(store, job)).hasSize(2);
      assertThat(get(store).status().active()).isEqualTo(2);
    }
  }
}
