package io.fleetkit.reconcile.controllers;

import static io.fleetkit.reconcile.controllers.IndexedJobCases.cond;
import static io.fleetkit.reconcile.controllers.IndexedJobCases.indexedJob;
import static io.fleetkit.reconcile.controllers.IndexedJobCases.pod;

import io.fleetkit.api.batch.Job;
import io.fleetkit.api.batch.JobCondition;
import io.fleetkit.api.batch.JobStatus;
import io.fleetkit.api.batch.PodFailurePolicy;
import io.fleetkit.api.batch.PodFailurePolicyAction;
import io.fleetkit.api.batch.PodFailurePolicyOnPodConditionsPattern;
import io.fleetkit.api.batch.PodFailurePolicyRule;
import io.fleetkit.api.batch.SuccessPolicy;
import io.fleetkit.api.batch.SuccessPolicyRule;
import io.fleetkit.api.core.PodCondition;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.reconcile.controllers.IndexedJobCases.PodIn;
import io.fleetkit.reconcile.controllers.IndexedJobCases.Want;
import java.util.List;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Ported from upstream {@code pkg/controller/job/job_controller_test.go} (kubernetes commit
 * de00a3c894f17936b66bbd88ae1471f222826629; controller {@code job_controller.go} 6ae037f1db843e99547258d7dd292301a74ba0eb,
 * {@code success_policy.go} cb6ff2d8ce3595f88570f82c7d0e6d98910afd3c), {@code TestSyncJobWithJobSuccessPolicy}: 13 of
 * its 16 cases, one sync each ({@link IndexedJobCases}), comparing conditions (type, status, reason, message),
 * active, succeeded, failed, terminating, completedIndexes and failedIndexes. FleetKit behaves as upstream with every
 * Job gate on (all GA): where upstream runs a case with JobBackoffLimitPerIndex off (its Job has
 * {@code backoffLimitPerIndex} but upstream leaves {@code failedIndexes} unset) FleetKit reports {@code ""}, and where
 * it runs with JobPodReplacementPolicy off ("...; JobManagedBy feature enabled; ...") FleetKit reports
 * {@code terminating} (2) where upstream leaves it unset.
 *
 * <p>Not ported: the two "...; jobPodReplacementPolicy feature disabled; ..." cases (with both gates off upstream
 * adds {@code Complete} in the same sync as {@code SuccessCriteriaMet}, not waiting for the deleted pods; FleetKit
 * behaves as with the gates on, the "feature enabled" twins); "when the JobSuccessPolicy is disabled, ..." (FleetKit
 * has no feature gates).
 */
final class JobSuccessPolicyUpstreamTest {

  record Case(String name, Job job, @Nullable JobStatus initial, List<PodIn> pods, Want want) {
    @Override
    public String toString() {
      return name;
    }
  }

  private static final String MET = JobCondition.SUCCESS_CRITERIA_MET;
  private static final String POLICY = JobCondition.REASON_SUCCESS_POLICY;
  private static final String MATCHED = "Matched rules at index 0";
  private static final String DT = PodCondition.DISRUPTION_TARGET;
  private static final String DT_MSG = "Pod default/mypod-0 has condition DisruptionTarget matching FailJob rule at "
      + "index 0";

  /** upstream's {@code SucceededIndexes: "0,1", SucceededCount: 1}. */
  private static final SuccessPolicy ZERO_ONE_COUNT_1 = SuccessPolicy.of(new SuccessPolicyRule("0,1", 1));

  private static Job.Builder job(int n, SuccessPolicy policy) {
    return indexedJob(n, n).backoffLimit(Integer.MAX_VALUE).successPolicy(policy);
  }

  private static PodFailurePolicy failJobOnDisruption() {
    return PodFailurePolicy.of(PodFailurePolicyRule.onPodConditions(PodFailurePolicyAction.FailJob,
        PodFailurePolicyOnPodConditionsPattern.of(DT)));
  }

  private static JobStatus status(int failed, int succeeded, String completed, JobCondition... conditions) {
    return new JobStatus(0, succeeded, failed, null, List.of(conditions), null, null, completed, 0);
  }

  private static List<JobCondition> met() {
    return List.of(cond(MET, POLICY, MATCHED));
  }

  private static List<JobCondition> metAndComplete() {
    return List.of(cond(MET, POLICY, MATCHED), cond(JobCondition.COMPLETE, POLICY, MATCHED));
  }

  static Stream<Case> cases() {
    List<PodIn> failedRunningSucceededRunning = List.of(pod(0, PodPhase.Failed), pod(0, PodPhase.Running),
        pod(1, PodPhase.Succeeded), pod(2, PodPhase.Running));
    List<PodIn> failedRunningSucceeded = List.of(pod(0, PodPhase.Failed), pod(0, PodPhase.Running),
        pod(1, PodPhase.Succeeded));
    // "... some pods still are running": the running pod a2 has index 1
    List<PodIn> stillRunning = List.of(pod(0, PodPhase.Failed), pod(1, PodPhase.Running),
        pod(1, PodPhase.Succeeded), pod(2, PodPhase.Running));
    JobStatus metBefore = status(0, 0, "", cond(MET, POLICY, MATCHED));
    JobStatus metBeforeCounted = status(0, 1, "1", cond(MET, POLICY, MATCHED));
    return Stream.of(
        new Case("job with successPolicy; jobPodReplacementPolicy feature enabled; job has SuccessCriteriaMet "
            + "condition if job meets to successPolicy and some indexes fail",
            job(3, ZERO_ONE_COUNT_1).build(), null, failedRunningSucceededRunning,
            new Want(0, 1, 1, 2, "1", null, met())),
        new Case("job with podFailurePolicy and successPolicy; jobPodReplacementPolicy feature enabled; job has "
            + "SuccessCriteriaMet condition if job meets to successPolicy and doesn't meet to podFailurePolicy",
            job(2, ZERO_ONE_COUNT_1).podFailurePolicy(failJobOnDisruption()).build(), null, failedRunningSucceeded,
            new Want(0, 1, 1, 1, "1", null, met())),
        new Case("job with backoffLimitPerIndex and successPolicy; jobPodReplacementPolicy feature enabled; job has "
            + "SuccessCriteriaMet condition if job meets to successPolicy and doesn't meet backoffLimitPerIndex",
            job(2, ZERO_ONE_COUNT_1).backoffLimitPerIndex(2).build(), null, failedRunningSucceeded,
            new Want(0, 1, 1, 1, "1", "", met())),
        new Case("job with successPolicy; jobPodReplacementPolicy feature enabled; job has both Complete and "
            + "SuccessCriteriaMet condition when job meets to successPolicy and all pods have been already removed",
            job(2, ZERO_ONE_COUNT_1).backoffLimitPerIndex(2).build(), metBefore,
            List.of(pod(0, PodPhase.Failed), pod(1, PodPhase.Succeeded)),
            new Want(0, 1, 1, 0, "1", "", metAndComplete())),
        new Case("job with successPolicy; jobPodReplacementPolicy feature enabled; job has SuccessCriteriaMet "
            + "condition when job meets to successPolicy and some pods still are running",
            job(3, ZERO_ONE_COUNT_1).backoffLimitPerIndex(3).build(), metBefore, stillRunning,
            new Want(0, 1, 1, 2, "1", "", met())),
        new Case("job with successPolicy; JobManagedBy feature enabled; job has SuccessCriteriaMet condition when "
            + "job meets to successPolicy and some pods still are running",
            job(3, ZERO_ONE_COUNT_1).backoffLimitPerIndex(3).build(), metBefore, stillRunning,
            new Want(0, 1, 1, 2, "1", "", met())),
        new Case("job with successPolicy and podFailurePolicy; jobPodReplacementPolicy feature enabled; job has a "
            + "failed condition when job meets to both successPolicy and podFailurePolicy",
            job(2, ZERO_ONE_COUNT_1).podFailurePolicy(failJobOnDisruption()).build(), null,
            List.of(pod(0, PodPhase.Failed).withCondition(DT), pod(0, PodPhase.Running), pod(1, PodPhase.Succeeded)),
            new Want(0, 1, 2, 1, "1", null, List.of(cond(JobCondition.FAILURE_TARGET,
                JobCondition.REASON_POD_FAILURE_POLICY, DT_MSG)))),
        new Case("job with successPolicy and backoffLimit; jobPodReplacementPolicy feature enabled; job has a "
            + "failed condition when job meets to both successPolicy and backoffLimit",
            indexedJob(2, 2).backoffLimit(1).successPolicy(ZERO_ONE_COUNT_1).build(), null,
            List.of(pod(0, PodPhase.Failed), pod(0, PodPhase.Failed), pod(1, PodPhase.Succeeded)),
            new Want(0, 1, 2, 0, "1", null, List.of(
                cond(JobCondition.FAILURE_TARGET, JobCondition.REASON_BACKOFF_LIMIT_EXCEEDED,
                    "Job has reached the specified backoff limit"),
                cond(JobCondition.FAILED, JobCondition.REASON_BACKOFF_LIMIT_EXCEEDED,
                    "Job has reached the specified backoff limit")))),
        new Case("job with successPolicy and backoffLimitPerIndex; jobPodReplacementPolicy feature enabled; job has "
            + "a failed condition when job meets to both successPolicy and backoffLimitPerIndex",
            job(2, ZERO_ONE_COUNT_1).backoffLimitPerIndex(1).build(), null,
            List.of(pod(0, PodPhase.Failed, "1"), pod(1, PodPhase.Succeeded)),
            new Want(0, 1, 1, 0, "1", "0", List.of(
                cond(JobCondition.FAILURE_TARGET, JobCondition.REASON_FAILED_INDEXES, "Job has failed indexes"),
                cond(JobCondition.FAILED, JobCondition.REASON_FAILED_INDEXES, "Job has failed indexes")))),
        new Case("job with successPolicy and podFailurePolicy; jobPodReplacementPolicy feature enabled; job with "
            + "SuccessCriteriaMet has never been transitioned to FailureTarget and Failed even if job meets "
            + "podFailurePolicy",
            job(2, SuccessPolicy.of(SuccessPolicyRule.count(1))).podFailurePolicy(failJobOnDisruption()).build(),
            metBeforeCounted, List.of(pod(0, PodPhase.Failed).withCondition(DT), pod(1, PodPhase.Succeeded)),
            new Want(0, 1, 1, 0, "1", null, metAndComplete())),
        new Case("job with successPolicy and backoffLimitPerIndex; jobPodReplacementPolicy feature enabled; job "
            + "with SuccessCriteriaMet has never been transitioned to FailureTarget and Failed even if job meet "
            + "backoffLimitPerIndex",
            job(2, SuccessPolicy.of(SuccessPolicyRule.indexes("1"))).backoffLimitPerIndex(1).build(),
            metBeforeCounted, List.of(pod(0, PodPhase.Failed, "1"), pod(1, PodPhase.Succeeded)),
            new Want(0, 1, 1, 0, "1", "0", metAndComplete())),
        new Case("job with successPolicy and backoffLimit; jobPodReplacementPolicy feature enabled; job with "
            + "SuccessCriteriaMet has never been transitioned to FailureTarget and Failed even if job meets "
            + "backoffLimit",
            job(2, ZERO_ONE_COUNT_1).backoffLimit(1).build(), metBeforeCounted,
            List.of(pod(0, PodPhase.Failed), pod(1, PodPhase.Succeeded)),
            new Want(0, 1, 1, 0, "1", null, metAndComplete())),
        new Case("job with successPolicy and podFailureTarget; jobPodReplacementPolicy feature enabled; job with "
            + "FailureTarget has never been transitioned to SuccessCriteriaMet even if job meets successPolicy",
            job(2, ZERO_ONE_COUNT_1).podFailurePolicy(failJobOnDisruption()).build(),
            status(1, 0, "1", cond(JobCondition.FAILURE_TARGET, JobCondition.REASON_POD_FAILURE_POLICY, DT_MSG)),
            List.of(pod(0, PodPhase.Failed).withCondition(DT).withoutFinalizer(), pod(1, PodPhase.Succeeded)),
            new Want(0, 1, 1, 0, "1", null, List.of(
                cond(JobCondition.FAILURE_TARGET, JobCondition.REASON_POD_FAILURE_POLICY, DT_MSG),
                cond(JobCondition.FAILED, JobCondition.REASON_POD_FAILURE_POLICY, DT_MSG)))));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void syncJobWithJobSuccessPolicy_upstreamTable(Case tc) {
    try (JobUpstreamCasesTest.Env env = new JobUpstreamCasesTest.Env(tc.job(), false)) {
      Job actual = IndexedJobCases.syncOnce(env, tc.initial(), tc.pods());
      IndexedJobCases.assertStatus(actual.status(), tc.want());
    }
  }
}
