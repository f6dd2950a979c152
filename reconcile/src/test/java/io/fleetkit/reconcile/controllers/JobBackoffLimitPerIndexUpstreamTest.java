package io.fleetkit.reconcile.controllers;

import static io.fleetkit.reconcile.controllers.IndexedJobCases.cond;
import static io.fleetkit.reconcile.controllers.IndexedJobCases.indexedJob;
import static io.fleetkit.reconcile.controllers.IndexedJobCases.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.batch.Job;
import io.fleetkit.api.batch.JobCondition;
import io.fleetkit.api.batch.PodFailurePolicy;
import io.fleetkit.api.batch.PodFailurePolicyAction;
import io.fleetkit.api.batch.PodFailurePolicyOnExitCodesOperator;
import io.fleetkit.api.batch.PodFailurePolicyOnExitCodesRequirement;
import io.fleetkit.api.batch.PodFailurePolicyRule;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.reconcile.controllers.IndexedJobCases.PodIn;
import io.fleetkit.reconcile.controllers.IndexedJobCases.Want;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Ported from upstream {@code pkg/controller/job/job_controller_test.go} (kubernetes commit
 * de00a3c894f17936b66bbd88ae1471f222826629; controller {@code job_controller.go} 6ae037f1db843e99547258d7dd292301a74ba0eb,
 * {@code indexed_job_utils.go} 78fc8e44052f699bf598f84b697b41e5a328c9c5), {@code TestSyncJobWithJobBackoffLimitPerIndex}:
 * 12 of its 15 cases, one sync each ({@link IndexedJobCases}), comparing conditions (type, status, reason, message),
 * active, succeeded, failed, terminating, completedIndexes and failedIndexes. FleetKit behaves as upstream with
 * JobBackoffLimitPerIndex, JobPodReplacementPolicy and JobManagedBy on (all GA): "job failed due to failed indexes;
 * JobManagedBy enabled" and "job failed due to exceeding max failed indexes; JobManagedBy enabled" run upstream with
 * JobPodReplacementPolicy off, where {@code status.terminating} stays unset; FleetKit reports it (0 and 1).
 *
 * "successful job after a single failure within index" runs upstream with JobSuccessPolicy off, where its
 * {@code SuccessCriteriaMet} and {@code Complete} have no reason; FleetKit, as upstream with the gate GA (1.33), gives
 * both the reason {@code CompletionsReached} and its message.
 *
 * <p>Not ported: "job with finished indexes; failedIndexes are cleaned when JobBackoffLimitPerIndex disabled", "job
 * failed due to failed indexes; JobPodReplacementPolicy and JobManagedBy disabled", "job failed due to exceeding max
 * failed indexes; JobPodReplacementPolicy and JobManagedBy disabled": FleetKit has no feature gates.
 */
final class JobBackoffLimitPerIndexUpstreamTest {

  record Case(String name, Job job, List<PodIn> pods, Want want) {
    @Override
    public String toString() {
      return name;
    }
  }

  private static final String TARGET = JobCondition.FAILURE_TARGET;
  private static final String FAILED = JobCondition.FAILED;
  private static final String FAILED_INDEXES = JobCondition.REASON_FAILED_INDEXES;
  private static final String MAX_FAILED = JobCondition.REASON_MAX_FAILED_INDEXES_EXCEEDED;
  private static final String FAILED_INDEXES_MSG = "Job has failed indexes";
  private static final String MAX_FAILED_MSG = "Job has exceeded the specified maximal number of failed indexes";

  private static Job job(int parallelism, int completions, int backoffLimit, PodFailurePolicyRule... rules) {
    Job.Builder b = indexedJob(parallelism, completions).backoffLimit(backoffLimit).backoffLimitPerIndex(1);
    if (rules.length > 0) {
      b.podFailurePolicy(PodFailurePolicy.of(rules));
    }
    return b.build();
  }

  private static PodFailurePolicyRule onExit3(PodFailurePolicyAction action) {
    return PodFailurePolicyRule.onExitCodes(action,
        PodFailurePolicyOnExitCodesRequirement.of(PodFailurePolicyOnExitCodesOperator.In, 3));
  }

  static Stream<Case> cases() {
    int max = Integer.MAX_VALUE;
    Job maxFailedJob = indexedJob(4, 4).backoffLimit(max).backoffLimitPerIndex(1).maxFailedIndexes(1).build();
    List<PodIn> maxFailedPods = List.of(pod(0, PodPhase.Failed, "1"), pod(1, PodPhase.Succeeded, "0"),
        pod(2, PodPhase.Failed, "1"), pod(3, PodPhase.Running, "0"));
    List<PodIn> failedIndexesPods = List.of(pod(0, PodPhase.Failed, "1"), pod(1, PodPhase.Succeeded, "0"));
    List<JobCondition> failedByIndexes = List.of(cond(TARGET, FAILED_INDEXES, FAILED_INDEXES_MSG),
        cond(FAILED, FAILED_INDEXES, FAILED_INDEXES_MSG));
    String failJobMsg = "Container x for pod default/mypod-0 failed with exit code 3 matching FailJob rule at index 0";
    String backoffMsg = "Job has reached the specified backoff limit";
    // upstream runs this case with JobSuccessPolicy off, where both conditions have no reason or message; with the
    // gate GA (1.33) upstream's newSuccessCondition gives them CompletionsReached and its message
    String reached = JobCondition.REASON_COMPLETIONS_REACHED;
    String reachedMsg = "Reached expected number of succeeded pods";
    return Stream.of(
        new Case("successful job after a single failure within index", job(2, 2, max),
            List.of(pod(0, PodPhase.Failed, "0"), pod(0, PodPhase.Succeeded, "1"), pod(1, PodPhase.Succeeded, "0")),
            new Want(0, 2, 1, 0, "0,1", "", List.of(cond(JobCondition.SUCCESS_CRITERIA_MET, reached, reachedMsg),
                cond(JobCondition.COMPLETE, reached, reachedMsg)))),
        new Case("job failed due to exceeding backoffLimit before backoffLimitPerIndex", job(2, 2, 1),
            List.of(pod(0, PodPhase.Failed, "0"), pod(1, PodPhase.Failed, "0")),
            new Want(0, 0, 2, 0, "", "", List.of(cond(TARGET, JobCondition.REASON_BACKOFF_LIMIT_EXCEEDED, backoffMsg),
                cond(FAILED, JobCondition.REASON_BACKOFF_LIMIT_EXCEEDED, backoffMsg)))),
        // the failed pod keeps its finalizer, uncounted, until its replacement exists (created in this sync)
        new Case("single failed pod, not counted as the replacement pod creation is delayed", job(2, 2, max),
            List.of(pod(0, PodPhase.Failed, "0")), new Want(2, 0, 0, 0, "", "", List.of())),
        new Case("single failed pod replaced already", job(2, 2, max),
            List.of(pod(0, PodPhase.Failed, "0"), pod(0, PodPhase.Pending, "1")),
            new Want(2, 0, 1, 0, "", "", List.of())),
        new Case("single failed index due to exceeding the backoff limit per index, the job continues",
            job(2, 2, max), List.of(pod(0, PodPhase.Failed, "1")), new Want(1, 0, 1, 0, "", "0", List.of())),
        new Case("single failed index due to FailIndex action, the job continues",
            job(2, 2, max, onExit3(PodFailurePolicyAction.FailIndex)),
            List.of(pod(0, PodPhase.Failed, "0").withExitCode("", 3)), new Want(1, 0, 1, 0, "", "0", List.of())),
        new Case("job failed index due to FailJob action", job(2, 2, 6, onExit3(PodFailurePolicyAction.FailJob)),
            List.of(pod(0, PodPhase.Failed, "0").withExitCode("x", 3)),
            new Want(0, 0, 1, 0, "", "", List.of(cond(TARGET, JobCondition.REASON_POD_FAILURE_POLICY, failJobMsg),
                cond(FAILED, JobCondition.REASON_POD_FAILURE_POLICY, failJobMsg)))),
        new Case("job pod failure ignored due to matching Ignore action",
            job(2, 2, 6, onExit3(PodFailurePolicyAction.Ignore)),
            List.of(pod(0, PodPhase.Failed, "0").withExitCode("x", 3)), new Want(2, 0, 0, 0, "", "", List.of())),
        new Case("job failed due to failed indexes", job(2, 2, max), failedIndexesPods,
            new Want(0, 1, 1, 0, "1", "0", failedByIndexes)),
        new Case("job failed due to exceeding max failed indexes", maxFailedJob, maxFailedPods,
            new Want(0, 1, 3, 1, "1", "0,2", List.of(cond(TARGET, MAX_FAILED, MAX_FAILED_MSG)))),
        new Case("job failed due to failed indexes; JobManagedBy enabled", job(2, 2, max), failedIndexesPods,
            new Want(0, 1, 1, 0, "1", "0", failedByIndexes)),
        new Case("job failed due to exceeding max failed indexes; JobManagedBy enabled", maxFailedJob,
            maxFailedPods,
            new Want(0, 1, 3, 1, "1", "0,2", List.of(cond(TARGET, MAX_FAILED, MAX_FAILED_MSG)))));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void syncJobWithJobBackoffLimitPerIndex_upstreamTable(Case tc) {
    try (JobUpstreamCasesTest.Env env = new JobUpstreamCasesTest.Env(tc.job(), false)) {
      Job actual = IndexedJobCases.syncOnce(env, null, tc.pods());
      IndexedJobCases.assertStatus(actual.status(), tc.want());
    }
  }

  private static Map<Integer, Map<String, String>> createdAnnotations(JobUpstreamCasesTest.Env env, int existing) {
    Map<Integer, Map<String, String>> byIndex = new HashMap<>();
    for (Pod p : env.store.list(Pod.class, "default").items()) {
      if (!p.metadata().name().startsWith("mypod-")) {
        byIndex.put(Integer.parseInt(p.metadata().annotations().get(WorkloadLabels.JOB_COMPLETION_INDEX)),
            p.metadata().annotations());
      }
    }
    assertThat(byIndex.size() + existing).isEqualTo(env.store.list(Pod.class, "default").items().size());
    return byIndex;
  }

  @Test
  void replacements_carryTheIndexFailureCounts() {
    // "job pod failure ignored due to matching Ignore action": the replacement of index 0 carries the ignored
    // failure (upstream's addIndexFailureCountAnnotation), the first pod of index 1 a failure count of 0
    try (JobUpstreamCasesTest.Env env = new JobUpstreamCasesTest.Env(
        job(2, 2, 6, onExit3(PodFailurePolicyAction.Ignore)), false)) {
      IndexedJobCases.syncOnce(env, null, List.of(pod(0, PodPhase.Failed, "0").withExitCode("x", 3)));
      Map<Integer, Map<String, String>> created = createdAnnotations(env, 1);
      assertThat(created.get(0)).containsEntry(WorkloadLabels.JOB_INDEX_FAILURE_COUNT, "0")
          .containsEntry(WorkloadLabels.JOB_INDEX_IGNORED_FAILURE_COUNT, "1");
      assertThat(created.get(1)).containsEntry(WorkloadLabels.JOB_INDEX_FAILURE_COUNT, "0")
          .doesNotContainKey(WorkloadLabels.JOB_INDEX_IGNORED_FAILURE_COUNT);
    }
    // a counted failure: the replacement's failure count is one more
    try (JobUpstreamCasesTest.Env env = new JobUpstreamCasesTest.Env(
        indexedJob(1, 1).backoffLimitPerIndex(3).build(), false)) {
      IndexedJobCases.syncOnce(env, null, List.of(pod(0, PodPhase.Failed, "1")));
      assertThat(createdAnnotations(env, 1).get(0)).containsEntry(WorkloadLabels.JOB_INDEX_FAILURE_COUNT, "2");
    }
  }

  @Test
  void failedIndex_getsNoPodAndItsActivePodIsDeleted() {
    // index 0 failed (FailIndex) while a duplicate pod of it still runs: that pod goes, index 0 is not recreated,
    // the other indexes go on
    try (JobUpstreamCasesTest.Env env = new JobUpstreamCasesTest.Env(
        job(3, 3, Integer.MAX_VALUE, onExit3(PodFailurePolicyAction.FailIndex)), false)) {
      Job actual = IndexedJobCases.syncOnce(env, null, List.of(pod(0, PodPhase.Failed, "0").withExitCode("", 3),
          pod(0, PodPhase.Running, "0"), pod(1, PodPhase.Running, "0")));
      assertThat(actual.status().failedIndexes()).isEqualTo("0");
      // its tracking finalizer is removed before its deletion: nothing holds it
      assertThat(env.store.get(Pod.class, "default", "mypod-1")).as("the failed index's running pod is deleted")
          .isEmpty();
      assertThat(env.store.require(Pod.class, "default", "mypod-2").metadata().deletionTimestamp()).isNull();
    }
  }
}
