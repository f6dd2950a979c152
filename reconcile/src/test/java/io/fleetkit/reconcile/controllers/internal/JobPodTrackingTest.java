package io.fleetkit.reconcile.controllers.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.fleetkit.api.batch.CompletionMode;
import io.fleetkit.api.batch.Job;
import io.fleetkit.api.batch.JobCondition;
import io.fleetkit.api.batch.JobStatus;
import io.fleetkit.api.batch.UncountedTerminatedPods;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.RestartPolicy;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.reconcile.controllers.ActivePods;
import io.fleetkit.reconcile.controllers.WorkloadLabels;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Ported from upstream {@code pkg/controller/job/job_controller_test.go} (kubernetes commit
 * 003e86297d18a8538c9da3619871393f9703bf70): {@code TestTrackJobStatusAndRemoveFinalizers}, 28 of its 30 cases,
 * and {@code TestGetNewFinshedPods}, its 4 cases. A case is a Job (its status as the sync computed it), its pods, the
 * finished condition the sync decided, the UIDs whose finalizer removal is still awaited and whether the status
 * needs writing anyway; {@link JobPodTracking#track} runs with a status writer and a finalizer remover that record
 * what they are given (and fail as the case says), and the statuses written (conditions without their times) and the
 * number of finalizer removals tried are compared. {@code terminating} is what upstream's harness gives,
 * {@code CountTerminatingPods(pods)}; for backoffLimitPerIndex the failed indexes and the pods whose finalizer
 * removal waits for their replacement are computed from the pods as upstream's harness does.
 *
 * <p>Not ported: the two "...; JobPodReplacementPolicy and JobManagedBy disabled" cases (the terminal condition set
 * while a pod still terminates), as FleetKit has no feature gates and behaves as with those gates on (their
 * "enabled" twins are ported). Upstream's {@code job_pods_finished_total} metric is not compared: FleetKit's Job
 * controller has no such metric.
 */
final class JobPodTrackingTest {
  private static final Instant NOW = Instant.parse("2026-06-01T12:00:00Z");
  private static final Instant MINUTE_AGO = NOW.minusSeconds(60);
  private static final Instant T = Instant.EPOCH;
  private static final RuntimeException MOCK_ERR = new IllegalStateException("mock error");
  private static final JobCondition COMPLETED = cond(JobCondition.COMPLETE, NOW);
  private static final JobCondition SUCCEEDED = cond(JobCondition.SUCCESS_CRITERIA_MET, MINUTE_AGO);
  private static final JobCondition FAILED = cond(JobCondition.FAILED, NOW);
  private static final JobCondition FAILURE_TARGET = cond(JobCondition.FAILURE_TARGET, NOW);
  private static int randomUids;

  private static JobCondition cond(String type, Instant at) {
    return new JobCondition(type, ConditionStatus.True, "", "", at, at);
  }

  /** Upstream's {@code buildPod()}: a pod with a random uid, no phase, no finalizer. */
  static P pod() {
    return new P("rnd" + randomUids++);
  }

  /** Upstream's {@code buildPod().uid(u)}. */
  static P pod(String uid) {
    return new P(uid);
  }

  /** Upstream's {@code podBuilder}. */
  static final class P {
    final ObjectMeta.Builder meta;
    PodPhase phase = PodPhase.Pending;

    P(String uid) {
      meta = ObjectMeta.builder().namespace("default").name("pod-" + uid).uid(uid);
    }

    P phase(PodPhase v) {
      phase = v;
      return this;
    }

    P trackingFinalizer() {
      meta.finalizer(Job.TRACKING_FINALIZER);
      return this;
    }

    P deletionTimestamp() {
      meta.deletionTimestamp(T);
      return this;
    }

    P index(String ix) {
      meta.annotation(WorkloadLabels.JOB_COMPLETION_INDEX, ix);
      return this;
    }

    P indexFailureCount(String count) {
      meta.annotation(WorkloadLabels.JOB_INDEX_FAILURE_COUNT, count);
      return this;
    }

    Pod build() {
      Pod p = Pod.of(meta.build(), PodSpec.builder().container("c", "img", ResourceList.EMPTY)
          .restartPolicy(RestartPolicy.Never).build());
      return p.withStatus(p.status().withPhase(phase));
    }
  }

  /** A status: upstream's {@code batch.JobStatus} with the fields the table sets. */
  static JobStatus status(int active, int succeeded, int failed, List<String> uncountedSucceeded,
      List<String> uncountedFailed) {
    return new JobStatus(active, succeeded, failed, null, List.of(), null, null, "", null, null,
        new UncountedTerminatedPods(uncountedSucceeded, uncountedFailed));
  }

  static JobStatus status(int active, int succeeded, int failed) {
    return status(active, succeeded, failed, List.of(), List.of());
  }

  static Job.Builder job() {
    return Job.builder().namespace("default").name("foobar").selector(LabelSelector.of(Map.of("foo", "bar")))
        .templateLabels(Map.of("foo", "bar"))
        .podSpec(PodSpec.builder().container("c", "img", ResourceList.EMPTY).restartPolicy(RestartPolicy.Never)
            .build());
  }

  static Job.Builder indexed(int completions) {
    return job().completionMode(CompletionMode.Indexed).completions(completions).parallelism(completions);
  }

  record Case(String name, Job job, List<Pod> pods, @Nullable JobCondition finishedCond,
      Set<String> expectedRmFinalizers, boolean needsFlush, @Nullable RuntimeException statusUpdateErr,
      @Nullable RuntimeException podControlErr, @Nullable RuntimeException wantErr, int wantRmFinalizers,
      List<JobStatus> wantStatusUpdates) {
    @Override
    public String toString() {
      return name;
    }
  }

  /** A case without errors, expected removals or a forced flush. */
  static Case c(String name, Job job, List<P> pods, @Nullable JobCondition finished, int wantRm,
      JobStatus... updates) {
    return new Case(name, job, build(pods), finished, Set.of(), false, null, null, null, wantRm, List.of(updates));
  }

  static List<Pod> build(List<P> pods) {
    List<Pod> out = new ArrayList<>();
    for (P p : pods) {
      out.add(p.build());
    }
    return out;
  }

  static Job withStatus(Job.Builder b, JobStatus s) {
    return b.status(s).build();
  }

  static JobStatus withConditions(JobStatus s, JobCondition... conditions) {
    return s.withConditions(List.of(conditions));
  }

  static JobStatus indexes(JobStatus s, String completed) {
    return new JobStatus(s.active(), s.succeeded(), s.failed(), s.ready(), s.conditions(), s.startTime(),
        s.completionTime(), completed, s.terminating(), s.failedIndexes(), s.uncountedTerminatedPods());
  }

  static JobStatus completedAt(JobStatus s, Instant t) {
    return new JobStatus(s.active(), s.succeeded(), s.failed(), s.ready(), s.conditions(), s.startTime(), t,
        s.completedIndexes(), s.terminating(), s.failedIndexes(), s.uncountedTerminatedPods());
  }

  static Stream<Case> trackJobStatusAndRemoveFinalizers() {
    List<Case> cases = new ArrayList<>();
    cases.add(c("no updates", job().build(), List.of(), null, 0));
    cases.add(new Case("new active", withStatus(job(), status(1, 0, 0)), List.of(), null, Set.of(), true, null, null,
        null, 0, List.of(status(1, 0, 0))));
    cases.add(c("track finished pods", job().build(), List.of(
            pod("a").phase(PodPhase.Succeeded).trackingFinalizer(),
            pod("b").phase(PodPhase.Failed).trackingFinalizer(),
            pod("c").phase(PodPhase.Succeeded).trackingFinalizer().deletionTimestamp(),
            pod("d").phase(PodPhase.Failed).trackingFinalizer().deletionTimestamp(),
            pod("e").phase(PodPhase.Pending).trackingFinalizer().deletionTimestamp(),
            pod().phase(PodPhase.Pending).trackingFinalizer(),
            pod().phase(PodPhase.Running).trackingFinalizer()), null, 5,
        status(0, 0, 0, List.of("a", "c"), List.of("b", "d", "e")),
        status(0, 2, 3)));
    cases.add(c("past and new finished pods",
        withStatus(job(), status(1, 2, 3, List.of("a", "e"), List.of("b", "f"))), List.of(
            pod("e").phase(PodPhase.Succeeded),
            pod().phase(PodPhase.Failed),
            pod().phase(PodPhase.Pending),
            pod("a").phase(PodPhase.Succeeded).trackingFinalizer(),
            pod("b").phase(PodPhase.Failed).trackingFinalizer(),
            pod("c").phase(PodPhase.Succeeded).trackingFinalizer(),
            pod("d").phase(PodPhase.Failed).trackingFinalizer()), null, 4,
        status(1, 3, 4, List.of("a", "c"), List.of("b", "d")),
        status(1, 5, 6)));
    cases.add(new Case("expecting removed finalizers",
        withStatus(job(), status(0, 2, 3, List.of("a", "g"), List.of("b", "h"))), build(List.of(
            pod("a").phase(PodPhase.Succeeded).trackingFinalizer(),
            pod("b").phase(PodPhase.Failed).trackingFinalizer(),
            pod("c").phase(PodPhase.Succeeded).trackingFinalizer(),
            pod("d").phase(PodPhase.Failed).trackingFinalizer(),
            pod("e").phase(PodPhase.Succeeded).trackingFinalizer(),
            pod("f").phase(PodPhase.Failed).trackingFinalizer(),
            pod("g").phase(PodPhase.Succeeded).trackingFinalizer(),
            pod("h").phase(PodPhase.Failed).trackingFinalizer())), null, Set.of("c", "d", "g", "h"), false, null,
        null, null, 4, List.of(
            status(0, 3, 4, List.of("a", "e"), List.of("b", "f")),
            status(0, 5, 6))));
    cases.add(c("succeeding job by JobSuccessPolicy", job().build(), List.of(
            pod("a").phase(PodPhase.Succeeded).trackingFinalizer(),
            pod("b").phase(PodPhase.Failed).trackingFinalizer(),
            pod("c").phase(PodPhase.Pending).trackingFinalizer()), SUCCEEDED, 3,
        withConditions(status(0, 0, 0, List.of("a"), List.of("b")), SUCCEEDED),
        completedAt(withConditions(status(0, 1, 1), SUCCEEDED, COMPLETED), NOW)));
    cases.add(c("completing job", job().build(), List.of(
            pod("a").phase(PodPhase.Succeeded).trackingFinalizer(),
            pod("b").phase(PodPhase.Failed).trackingFinalizer()), COMPLETED, 2,
        status(0, 0, 0, List.of("a"), List.of("b")),
        completedAt(withConditions(status(0, 1, 1), COMPLETED), NOW)));
    cases.add(c("failing job", job().build(), List.of(
            pod("a").phase(PodPhase.Succeeded).trackingFinalizer(),
            pod("b").phase(PodPhase.Failed).trackingFinalizer(),
            pod("c").phase(PodPhase.Running).trackingFinalizer()), FAILED, 3, // the running pod counts as failed
        status(0, 0, 0, List.of("a"), List.of("b", "c")),
        withConditions(status(0, 1, 2), FAILED)));
    Job deleted = withStatus(job(), status(1, 0, 0));
    deleted = deleted.withMetadata(deleted.metadata().toBuilder().deletionTimestamp(T).build());
    cases.add(c("deleted job", deleted, List.of(
            pod("a").phase(PodPhase.Succeeded).trackingFinalizer(),
            pod("b").phase(PodPhase.Failed).trackingFinalizer(),
            pod().phase(PodPhase.Running).trackingFinalizer()), null, 3, // the running pod is let go, not counted
        status(1, 0, 0, List.of("a"), List.of("b")),
        status(1, 1, 1)));
    cases.add(new Case("status update error", job().build(), build(List.of(
            pod("a").phase(PodPhase.Succeeded).trackingFinalizer(),
            pod("b").phase(PodPhase.Failed).trackingFinalizer())), null, Set.of(), false, MOCK_ERR, null, MOCK_ERR,
        0, List.of(status(0, 0, 0, List.of("a"), List.of("b")))));
    cases.add(new Case("pod patch errors", job().build(), build(List.of(
            pod("a").phase(PodPhase.Succeeded).trackingFinalizer(),
            pod("b").phase(PodPhase.Failed).trackingFinalizer())), null, Set.of(), false, null, MOCK_ERR, MOCK_ERR,
        2, List.of(status(0, 0, 0, List.of("a"), List.of("b")))));
    cases.add(new Case("pod patch errors with partial success",
        withStatus(job(), status(0, 0, 0, List.of("a"), List.of("b"))), build(List.of(
            pod("a").phase(PodPhase.Succeeded),
            pod("c").phase(PodPhase.Succeeded).trackingFinalizer(),
            pod("d").phase(PodPhase.Failed).trackingFinalizer())), null, Set.of(), false, null, MOCK_ERR, MOCK_ERR,
        2, List.of(status(0, 1, 1, List.of("c"), List.of("d")))));
    cases.add(c("indexed job new successful pods", withStatus(indexed(6), status(1, 0, 0)), List.of(
            pod().phase(PodPhase.Succeeded).trackingFinalizer().index("1"),
            pod().phase(PodPhase.Succeeded).trackingFinalizer().index("3"),
            pod().phase(PodPhase.Succeeded).trackingFinalizer().index("3"),
            pod().phase(PodPhase.Running).trackingFinalizer().index("5"),
            pod().phase(PodPhase.Succeeded).trackingFinalizer()), null, 4,
        indexes(status(1, 2, 0), "1,3")));
    cases.add(c("indexed job prev successful pods outside current completions index range with no new succeeded pods",
        withStatus(indexed(2), indexes(status(2, 1, 0), "3")), List.of(
            pod().phase(PodPhase.Running).trackingFinalizer().index("0"),
            pod().phase(PodPhase.Running).trackingFinalizer().index("1")), null, 0,
        indexes(status(2, 0, 0), "")));
    cases.add(c("indexed job prev successful pods outside current completions index range with new succeeded pods in "
            + "range", withStatus(indexed(2), indexes(status(2, 1, 0), "3")), List.of(
            pod().phase(PodPhase.Running).trackingFinalizer().index("0"),
            pod().phase(PodPhase.Succeeded).trackingFinalizer().index("1")), null, 1,
        indexes(status(2, 1, 0), "1")));
    cases.add(c("indexed job new failed pods", withStatus(indexed(6), status(1, 0, 0)), List.of(
            pod("a").phase(PodPhase.Failed).trackingFinalizer().index("1"),
            pod("b").phase(PodPhase.Failed).trackingFinalizer().index("3"),
            pod("c").phase(PodPhase.Failed).trackingFinalizer().index("3"),
            pod("d").phase(PodPhase.Running).trackingFinalizer().index("5"),
            pod().phase(PodPhase.Failed).trackingFinalizer()), null, 4,
        status(1, 0, 0, List.of(), List.of("a", "b", "c")),
        status(1, 0, 3)));
    cases.add(c("indexed job past and new pods", withStatus(indexed(7), indexes(status(0, 5, 2), "0-2,4,6,7")),
        List.of(
            pod().phase(PodPhase.Succeeded).index("0"),
            pod().phase(PodPhase.Failed).index("1"),
            pod().phase(PodPhase.Succeeded).trackingFinalizer().index("1"),
            pod().phase(PodPhase.Succeeded).trackingFinalizer().index("3"),
            pod("a").phase(PodPhase.Failed).trackingFinalizer().index("2"),
            pod("b").phase(PodPhase.Failed).trackingFinalizer().index("5")), null, 4,
        indexes(status(0, 6, 2, List.of(), List.of("a", "b")), "0-4,6"),
        indexes(status(0, 6, 4), "0-4,6")));
    List<P> tooMany = new ArrayList<>();
    List<String> uids499 = new ArrayList<>();
    for (int i = 0; i < 500; i++) {
      tooMany.add(pod(Integer.toString(i)).phase(PodPhase.Succeeded).trackingFinalizer());
      if (i < 499) {
        uids499.add(Integer.toString(i));
      }
    }
    tooMany.add(pod("b").phase(PodPhase.Failed).trackingFinalizer());
    cases.add(c("too many finished", withStatus(job(), status(0, 0, 0, List.of(), List.of("a", "b"))), tooMany, null,
        499,
        status(0, 0, 1, uids499, List.of("b")),
        status(0, 499, 1, List.of(), List.of("b"))));
    List<P> tooManyIndexed = new ArrayList<>();
    for (int i = 0; i < 501; i++) {
      tooManyIndexed.add(pod(Integer.toString(i)).index(Integer.toString(i)).phase(PodPhase.Succeeded)
          .trackingFinalizer());
    }
    cases.add(c("too many indexed finished", indexed(501).build(), tooManyIndexed, null, 500,
        indexes(status(0, 500, 0), "0-499")));
    cases.add(c("pod flips from failed to succeeded",
        withStatus(job().completions(2).parallelism(2), status(0, 0, 0, List.of(), List.of("a", "b"))), List.of(
            pod("a").phase(PodPhase.Failed).trackingFinalizer(),
            pod("b").phase(PodPhase.Succeeded).trackingFinalizer()), FAILED, 2,
        withConditions(status(0, 0, 2), FAILED)));
    cases.add(c("pod is terminal; JobFailed condition is set",
        withStatus(job().completions(1).parallelism(1), status(0, 0, 0, List.of(), List.of("a"))), List.of(
            pod("a").phase(PodPhase.Failed).trackingFinalizer()), FAILED, 1,
        withConditions(status(0, 0, 1), FAILED)));
    for (String gate : List.of("JobPodReplacementPolicy", "JobManagedBy")) {
      cases.add(c("pod is terminating; counted as failed, but the JobFailed condition is delayed; " + gate
              + " enabled", withStatus(job().completions(1).parallelism(1),
              withConditions(status(0, 0, 0, List.of(), List.of("a")), FAILURE_TARGET)), List.of(
              pod("a").phase(PodPhase.Running).deletionTimestamp()), FAILED, 0,
          withConditions(status(0, 0, 1), FAILURE_TARGET)));
      cases.add(c("pod is terminating; JobSuccessCriteriaMet, but JobComplete condition is delayed; " + gate
              + " enabled", withStatus(job().completions(1).parallelism(1),
              withConditions(status(0, 0, 0, List.of("b"), List.of("a")), SUCCEEDED)), List.of(
              pod("a").phase(PodPhase.Running).deletionTimestamp()), COMPLETED, 0,
          withConditions(status(0, 1, 1), SUCCEEDED)));
    }
    cases.add(c("indexed job with a failed pod with delayed finalizer removal; the pod is not counted",
        indexed(6).backoffLimitPerIndex(1).build(), List.of(
            pod("a").phase(PodPhase.Failed).indexFailureCount("0").trackingFinalizer().index("1")), null, 0,
        status(0, 0, 0).withFailedIndexes("")));
    cases.add(c("indexed job with a failed pod which is recreated by a running pod; the pod is counted",
        withStatus(indexed(6).backoffLimitPerIndex(1), status(1, 0, 0)), List.of(
            pod("a1").phase(PodPhase.Failed).indexFailureCount("0").trackingFinalizer().index("1"),
            pod("a2").phase(PodPhase.Running).indexFailureCount("1").trackingFinalizer().index("1")), null, 1,
        status(1, 0, 0, List.of(), List.of("a1")).withFailedIndexes(""),
        status(1, 0, 1).withFailedIndexes("")));
    cases.add(c("indexed job with a failed pod for a failed index; the pod is counted",
        indexed(6).backoffLimitPerIndex(1).build(), List.of(
            pod("a").phase(PodPhase.Failed).indexFailureCount("1").trackingFinalizer().index("1")), null, 1,
        status(0, 0, 0, List.of(), List.of("a")).withFailedIndexes("1"),
        status(0, 0, 1).withFailedIndexes("1")));
    return cases.stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("trackJobStatusAndRemoveFinalizers")
  void trackJobStatusAndRemoveFinalizers_upstreamTable(Case tc) {
    List<JobStatus> statusUpdates = new ArrayList<>();
    int[] removals = {0};
    JobPodTracking.StatusWriter writer = j -> {
      statusUpdates.add(j.status());
      if (tc.statusUpdateErr() != null) {
        throw tc.statusUpdateErr();
      }
      return j;
    };
    JobPodTracking.FinalizerRemover remover = pods -> {
      removals[0] += pods.size();
      Set<String> removed = new HashSet<>();
      if (tc.podControlErr() == null) {
        pods.forEach(p -> removed.add(p.metadata().uid()));
      }
      return new JobPodTracking.Removal(removed, tc.podControlErr());
    };
    Throwable err = catchThrowable(() -> JobPodTracking.track(sync(tc.job(), tc.pods(), tc.finishedCond(),
        tc.expectedRmFinalizers()), tc.needsFlush(), NOW, writer, remover));

    assertThat(err).as("error").isSameAs(tc.wantErr());
    assertThat(statusUpdates.stream().map(JobPodTrackingTest::untimed).toList()).as("status updates")
        .isEqualTo(tc.wantStatusUpdates().stream().map(JobPodTrackingTest::untimed).toList());
    assertThat(removals[0]).as("finalizer removals").isEqualTo(tc.wantRmFinalizers());
  }

  /**
   * Upstream's {@code flushUncountedAndRemoveFinalizers} stores the backoff record right after the status write that
   * counts the new pods: the hook runs once after that write, not when the write fails or none is needed.
   */
  @Test
  void afterFlush_runsOnceAfterTheWriteThatCountsTheNewPods() {
    List<Pod> failed = List.of(pod("b").phase(PodPhase.Failed).trackingFinalizer().build());
    List<Integer> writesWhenRun = new ArrayList<>();
    int[] writes = {0};
    JobPodTracking.StatusWriter ok = j -> {
      writes[0]++;
      return j;
    };
    JobPodTracking.FinalizerRemover removeAll = pods -> new JobPodTracking.Removal(
        pods.stream().map(p -> p.metadata().uid()).collect(java.util.stream.Collectors.toSet()), null);
    JobPodTracking.track(sync(job().build(), failed, null, Set.of()), false, NOW, ok, removeAll,
        () -> writesWhenRun.add(writes[0]));
    assertThat(writesWhenRun).as("once, after the first write").containsExactly(1);
    assertThat(writes[0]).as("the counted pod moved to status.failed in a second write").isEqualTo(2);

    writesWhenRun.clear();
    RuntimeException refused = new IllegalStateException("refused");
    Throwable err = catchThrowable(() -> JobPodTracking.track(sync(job().build(), failed, null, Set.of()), false,
        NOW, j -> {
          throw refused;
        }, removeAll, () -> writesWhenRun.add(-1)));
    assertThat(err).isSameAs(refused);
    assertThat(writesWhenRun).as("not after a failed write").isEmpty();

    JobPodTracking.track(sync(job().build(), List.of(), null, Set.of()), false, NOW, ok, removeAll,
        () -> writesWhenRun.add(-2));
    assertThat(writesWhenRun).as("no write needed").isEmpty();
  }

  /** The sync as upstream's harness builds it ({@code syncJobCtx}). */
  static JobPodTracking.Sync sync(Job job, List<Pod> pods, @Nullable JobCondition finished, Set<String> expected) {
    int terminating = 0;
    List<Pod> active = new ArrayList<>();
    for (Pod p : pods) {
      if (ActivePods.isActive(p)) {
        active.add(p);
      } else if (!p.isTerminal() && p.metadata().deletionTimestamp() != null) {
        terminating++;
      }
    }
    IndexIntervals failedIndexes = null;
    Map<Integer, Pod> delayed = Map.of();
    if (job.spec().backoffLimitPerIndex() != null) {
      int completions = job.spec().completions();
      failedIndexes = IndexFailures.failedIndexes(job.spec(), job.status().failedIndexes(), pods);
      delayed = IndexFailures.podsBeingReplaced(job.spec(), pods, active,
          IndexIntervals.parse(job.status().completedIndexes(), completions), failedIndexes, expected);
    }
    return new JobPodTracking.Sync(job, pods, finished, expected, terminating, failedIndexes, delayed);
  }

  /** Upstream compares conditions without their probe and transition times. */
  static JobStatus untimed(JobStatus s) {
    List<JobCondition> cs = new ArrayList<>();
    for (JobCondition c : s.conditions()) {
      cs.add(new JobCondition(c.type(), c.status(), c.reason(), c.message(), null, null));
    }
    return s.withConditions(cs);
  }

  record FinishedCase(String name, JobStatus status, List<Pod> pods, Set<String> expectedRmFinalizers,
      int wantSucceeded, int wantFailed) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<FinishedCase> getNewFinishedPods() {
    return Stream.of(
        new FinishedCase("some counted", status(0, 2, 1), build(List.of(
            pod("a").phase(PodPhase.Succeeded),
            pod("b").phase(PodPhase.Succeeded).trackingFinalizer(),
            pod("c").phase(PodPhase.Succeeded).trackingFinalizer(),
            pod("d").phase(PodPhase.Failed),
            pod("e").phase(PodPhase.Failed).trackingFinalizer(),
            pod("f").phase(PodPhase.Running))), Set.of(), 4, 2),
        new FinishedCase("some uncounted", status(0, 1, 1, List.of("a", "c"), List.of("e", "f")), build(List.of(
            pod("a").phase(PodPhase.Succeeded),
            pod("b").phase(PodPhase.Succeeded),
            pod("c").phase(PodPhase.Succeeded).trackingFinalizer(),
            pod("d").phase(PodPhase.Succeeded).trackingFinalizer(),
            pod("e").phase(PodPhase.Failed),
            pod("f").phase(PodPhase.Failed).trackingFinalizer(),
            pod("g").phase(PodPhase.Failed).trackingFinalizer())), Set.of(), 4, 4),
        new FinishedCase("with expected removed finalizers", status(0, 2, 2, List.of("a"), List.of("d")),
            build(List.of(
                pod("a").phase(PodPhase.Succeeded),
                pod("b").phase(PodPhase.Succeeded).trackingFinalizer(),
                pod("c").phase(PodPhase.Succeeded).trackingFinalizer(),
                pod("d").phase(PodPhase.Failed),
                pod("e").phase(PodPhase.Failed).trackingFinalizer(),
                pod("f").phase(PodPhase.Failed).trackingFinalizer(),
                pod("g").phase(PodPhase.Failed).trackingFinalizer())), Set.of("b", "f"), 4, 5),
        new FinishedCase("deleted pods", status(0, 1, 1), build(List.of(
            pod("a").phase(PodPhase.Succeeded).trackingFinalizer().deletionTimestamp(),
            pod("b").phase(PodPhase.Failed).trackingFinalizer().deletionTimestamp(),
            pod("c").phase(PodPhase.Running).trackingFinalizer().deletionTimestamp(),
            pod("d").phase(PodPhase.Pending).trackingFinalizer().deletionTimestamp(),
            pod("e").phase(PodPhase.Running).deletionTimestamp(),
            pod("f").phase(PodPhase.Pending).deletionTimestamp())), Set.of(), 2, 4));
  }

  // upstream: TestGetNewFinshedPods (the counts syncJob starts from: the status, the uncounted pods, and the pods
  // with the finalizer that finished since)
  @ParameterizedTest(name = "{0}")
  @MethodSource("getNewFinishedPods")
  void getNewFinishedPods_upstreamTable(FinishedCase tc) {
    Job job = withStatus(job(), tc.status());
    int succeeded = JobPodTracking.newFinishedPods(job, tc.pods(), tc.expectedRmFinalizers(), true).size()
        + tc.status().succeeded() + tc.status().uncountedTerminatedPods().succeeded().size();
    int failed = JobPodTracking.newFinishedPods(job, tc.pods(), tc.expectedRmFinalizers(), false).size()
        + tc.status().failed() + tc.status().uncountedTerminatedPods().failed().size();
    assertThat(succeeded).as("succeeded").isEqualTo(tc.wantSucceeded());
    assertThat(failed).as("failed").isEqualTo(tc.wantFailed());
  }

  @Test
  void isPodFailed_terminatingPodCountsOnlyWithoutPodReplacementPolicyFailed() {
    Pod terminating = pod("x").phase(PodPhase.Running).deletionTimestamp().build();
    assertThat(JobPodTracking.isPodFailed(terminating, job().build().spec())).isTrue();
    assertThat(JobPodTracking.isPodFailed(terminating,
        job().podReplacementPolicy(io.fleetkit.api.batch.PodReplacementPolicy.Failed).build().spec())).isFalse();
    assertThat(JobPodTracking.isPodFailed(pod("y").phase(PodPhase.Succeeded).deletionTimestamp().build(),
        job().build().spec())).isFalse();
  }
}
