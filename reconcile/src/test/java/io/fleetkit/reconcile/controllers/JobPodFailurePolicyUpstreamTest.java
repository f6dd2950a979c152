package io.fleetkit.reconcile.controllers;

import static io.fleetkit.api.batch.PodFailurePolicyAction.Count;
import static io.fleetkit.api.batch.PodFailurePolicyAction.FailJob;
import static io.fleetkit.api.batch.PodFailurePolicyAction.Ignore;
import static io.fleetkit.api.batch.PodFailurePolicyOnExitCodesOperator.In;
import static io.fleetkit.api.batch.PodFailurePolicyOnExitCodesOperator.NotIn;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.batch.CompletionMode;
import io.fleetkit.api.batch.Job;
import io.fleetkit.api.batch.JobCondition;
import io.fleetkit.api.batch.JobStatus;
import io.fleetkit.api.batch.PodFailurePolicy;
import io.fleetkit.api.batch.PodFailurePolicyAction;
import io.fleetkit.api.batch.PodFailurePolicyOnExitCodesRequirement;
import io.fleetkit.api.batch.PodFailurePolicyOnPodConditionsPattern;
import io.fleetkit.api.batch.PodFailurePolicyRule;
import io.fleetkit.api.core.ContainerState;
import io.fleetkit.api.core.ContainerStatus;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodCondition;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.PodStatus;
import io.fleetkit.api.core.RestartPolicy;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.resource.ResourceList;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Ported from upstream {@code pkg/controller/job/job_controller_test.go} (kubernetes commit
 * de00a3c894f17936b66bbd88ae1471f222826629; controller {@code job_controller.go} at
 * 6ae037f1db843e99547258d7dd292301a74ba0eb), {@code TestSyncJobWithJobPodFailurePolicy}: all 19 cases. Each
 * case makes the Job and its pods {@code mypod-<i>} (index {@code i} for Indexed Jobs) in a store, runs one sync
 * (with {@link JobUpstreamCasesTest.Env}) and compares the conditions (type, status, reason, message), active,
 * succeeded, failed and terminating.
 *
 * <p>Upstream's pods with a {@code deletionTimestamp} are made with a finalizer and deleted, as a store can only
 * hold such a pod. Pods are made an hour before the sync (their failure backoff has passed, as upstream's
 * {@code testFinishedAt} and zero creation times) and the deleted ones are deleted just before it. The template's
 * container is {@code main-container} (FleetKit's validation wants a rule's container name in the template; upstream
 * leaves its container unnamed). "terminating Pod not considered failed when JobPodFailurePolicy is enabled and
 * used" runs upstream with JobPodReplacementPolicy off, where {@code status.terminating} stays unset (0 compared):
 * FleetKit reports it for every Job, as upstream does once the gate is on (GA 1.34), so 1 is expected there.
 * "default job based on OnExitCodes" runs upstream with the same gates off and expects {@code Failed} alone;
 * FleetKit, as upstream with the gate on, sets {@code FailureTarget} with the same reason and message first.
 * "fail job with multiple pods" runs upstream with JobManagedBy and JobPodReplacementPolicy off, where {@code Failed}
 * is set in the sync that deletes the running pod; FleetKit, as upstream with them on (the later table's twin
 * "fail job with multiple pods; JobManagedBy enabled delays setting terminal condition"), counts the deleted pod as
 * terminating (1) and writes {@code FailureTarget} alone. Every pod carries the tracking finalizer, as upstream's.
 */
final class JobPodFailurePolicyUpstreamTest {

  record PodIn(PodPhase phase, List<ContainerStatus> containers, List<PodCondition> conditions, boolean deleted,
      List<ContainerStatus> initContainers) {
    PodIn(PodPhase phase, List<ContainerStatus> containers, List<PodCondition> conditions, boolean deleted) {
      this(phase, containers, conditions, deleted, List.of());
    }
  }

  record Case(String name, Job job, List<JobCondition> initialConditions, List<PodIn> pods,
      List<JobCondition> wantConditions, int wantActive, int wantSucceeded, int wantFailed, int wantTerminating) {
    @Override
    public String toString() {
      return name;
    }
  }

  private static final Instant T = Instant.EPOCH; // condition times are not compared

  private static JobCondition cond(String type, String reason, String message) {
    return new JobCondition(type, ConditionStatus.True, reason, message, T, T);
  }

  private static List<JobCondition> failedBy(String message) {
    return List.of(cond(JobCondition.FAILURE_TARGET, JobCondition.REASON_POD_FAILURE_POLICY, message),
        cond(JobCondition.FAILED, JobCondition.REASON_POD_FAILURE_POLICY, message));
  }

  private static Job job(int parallelism, @Nullable Integer completions, int backoffLimit, CompletionMode mode,
      PodFailurePolicyRule... rules) {
    return Job.builder().namespace("default").name("foobar").parallelism(parallelism).completions(completions)
        .completionMode(mode).backoffLimit(backoffLimit).selector(LabelSelector.of(Map.of("foo", "bar")))
        .templateLabels(Map.of("foo", "bar"))
        .podSpec(PodSpec.builder().container("main-container", "foo/bar", ResourceList.EMPTY)
            .restartPolicy(RestartPolicy.Never).build())
        .podFailurePolicy(PodFailurePolicy.of(rules)).build();
  }

  private static Job job(int parallelism, int completions, int backoffLimit, PodFailurePolicyRule... rules) {
    return job(parallelism, completions, backoffLimit, CompletionMode.NonIndexed, rules);
  }

  private static ContainerStatus exited(String name, int code) {
    return new ContainerStatus(name, false, 0, ContainerState.terminated(code, "", null));
  }

  private static PodIn failed(ContainerStatus... containers) {
    return new PodIn(PodPhase.Failed, List.of(containers), List.of(), false);
  }

  private static PodIn failedWith(String conditionType, String... more) {
    List<PodCondition> cs = new ArrayList<>();
    cs.add(PodCondition.of(conditionType, ConditionStatus.True, "", "", null));
    for (String m : more) {
      cs.add(PodCondition.of(m, ConditionStatus.True, "", "", null));
    }
    return new PodIn(PodPhase.Failed, List.of(), cs, false);
  }

  private static PodFailurePolicyRule codes(PodFailurePolicyAction action,
      io.fleetkit.api.batch.PodFailurePolicyOnExitCodesOperator op, Integer... values) {
    return PodFailurePolicyRule.onExitCodes(action, PodFailurePolicyOnExitCodesRequirement.of(op, values));
  }

  private static PodFailurePolicyRule conds(PodFailurePolicyAction action, String type) {
    return PodFailurePolicyRule.onPodConditions(action, PodFailurePolicyOnPodConditionsPattern.of(type));
  }

  /** Upstream's {@code onExitCodeRules}. */
  private static final PodFailurePolicyRule[] ON_EXIT_CODE_RULES = {codes(Ignore, In, 1, 2, 3),
      codes(FailJob, In, 5, 6, 7)};

  private static final String DT = PodCondition.DISRUPTION_TARGET;

  static Stream<Case> cases() {
    String exit5Index1 = "Container main-container for pod default/mypod-0 failed with exit code 5 matching FailJob "
        + "rule at index 1";
    return Stream.of(
        new Case("default handling for pod failure if the container matching the exit codes does not match the "
            + "containerName restriction",
            job(1, 1, 6,
                PodFailurePolicyRule.onExitCodes(Ignore, PodFailurePolicyOnExitCodesRequirement.of(In, 1, 2, 3)
                    .forContainer("main-container")),
                PodFailurePolicyRule.onExitCodes(FailJob, PodFailurePolicyOnExitCodesRequirement.of(In, 5, 6, 7)
                    .forContainer("main-container"))),
            List.of(), List.of(failed(exited("monitoring-container", 5), exited("main-container", 42))),
            List.of(), 1, 0, 1, 0),
        new Case("running pod should not result in job fail based on OnExitCodes", job(1, 1, 6, ON_EXIT_CODE_RULES),
            List.of(), List.of(new PodIn(PodPhase.Running, List.of(exited("main-container", 5)), List.of(), false)),
            List.of(), 1, 0, 0, 0),
        new Case("fail job based on OnExitCodes", job(1, 1, 6, ON_EXIT_CODE_RULES), List.of(),
            List.of(failed(exited("main-container", 5))), failedBy(exit5Index1), 0, 0, 1, 0),
        new Case("job marked already as failure target with failed pod", job(1, 1, 6, ON_EXIT_CODE_RULES),
            List.of(cond(JobCondition.FAILURE_TARGET, JobCondition.REASON_POD_FAILURE_POLICY, exit5Index1)),
            List.of(failed(exited("main-container", 5))), failedBy(exit5Index1), 0, 0, 1, 0),
        new Case("job marked already as failure target with failed pod, message based on already deleted pod",
            job(1, 1, 6, ON_EXIT_CODE_RULES),
            List.of(cond(JobCondition.FAILURE_TARGET, JobCondition.REASON_POD_FAILURE_POLICY,
                "Container main-container for pod default/already-deleted-pod failed with exit code 5 matching "
                    + "FailJob rule at index 1")),
            List.of(failed(exited("main-container", 5))),
            failedBy("Container main-container for pod default/already-deleted-pod failed with exit code 5 "
                + "matching FailJob rule at index 1"), 0, 0, 1, 0),
        // as upstream's twin "...; JobManagedBy enabled delays setting terminal condition": the running pod deleted
        // in this sync is terminating, Failed waits
        new Case("fail job with multiple pods", job(2, 2, 6, ON_EXIT_CODE_RULES), List.of(),
            List.of(new PodIn(PodPhase.Running, List.of(), List.of(), false), failed(exited("main-container", 5))),
            List.of(cond(JobCondition.FAILURE_TARGET, JobCondition.REASON_POD_FAILURE_POLICY, "Container "
                + "main-container for pod default/mypod-1 failed with exit code 5 matching FailJob rule at index 1")),
            0, 0, 2, 1),
        new Case("fail indexed job based on OnExitCodes",
            job(1, 1, 6, CompletionMode.Indexed, ON_EXIT_CODE_RULES), List.of(),
            List.of(failed(exited("main-container", 5))), failedBy(exit5Index1), 0, 0, 1, 0),
        new Case("fail job based on OnExitCodes with NotIn operator", job(1, 1, 6, codes(FailJob, NotIn, 5, 6, 7)),
            List.of(), List.of(failed(exited("main-container", 42))),
            failedBy("Container main-container for pod default/mypod-0 failed with exit code 42 matching FailJob "
                + "rule at index 0"), 0, 0, 1, 0),
        new Case("default handling job based on OnExitCodes with NotIn operator",
            job(1, 1, 6, codes(FailJob, NotIn, 5, 6, 7)), List.of(), List.of(failed(exited("main-container", 5))),
            List.of(), 1, 0, 1, 0),
        new Case("fail job based on OnExitCodes for InitContainer", job(1, 1, 6, ON_EXIT_CODE_RULES), List.of(),
            List.of(new PodIn(PodPhase.Failed, List.of(exited("main-container", 143)), List.of(), false,
                List.of(exited("init-container", 5)))),
            failedBy("Container init-container for pod default/mypod-0 failed with exit code 5 matching FailJob rule "
                + "at index 1"), 0, 0, 1, 0),
        new Case("ignore pod failure; both rules are matching, the first is executed only",
            job(1, 1, 0, ON_EXIT_CODE_RULES), List.of(),
            List.of(failed(exited("container1", 2), exited("container2", 6))), List.of(), 1, 0, 0, 0),
        new Case("ignore pod failure based on OnExitCodes", job(1, 1, 0, ON_EXIT_CODE_RULES), List.of(),
            List.of(failed(exited("", 1))), List.of(), 1, 0, 0, 0),
        new Case("default job based on OnExitCodes", job(1, 1, 0, ON_EXIT_CODE_RULES), List.of(),
            List.of(failed(exited("", 10))),
            // upstream runs it with JobPodReplacementPolicy and JobManagedBy off (Failed alone); with
            // JobPodReplacementPolicy GA (1.34) upstream's newFailureCondition sets FailureTarget first
            List.of(cond(JobCondition.FAILURE_TARGET, JobCondition.REASON_BACKOFF_LIMIT_EXCEEDED,
                    "Job has reached the specified backoff limit"),
                cond(JobCondition.FAILED, JobCondition.REASON_BACKOFF_LIMIT_EXCEEDED,
                "Job has reached the specified backoff limit")), 0, 0, 1, 0),
        new Case("count pod failure based on OnExitCodes; both rules are matching, the first is executed only",
            job(1, 1, 6, codes(Count, In, 1, 2), codes(Ignore, In, 2, 3)), List.of(),
            List.of(failed(exited("", 2))), List.of(), 1, 0, 1, 0),
        new Case("count pod failure based on OnPodConditions; both rules are matching, the first is executed only",
            job(1, 1, 6, conds(Count, "ResourceLimitExceeded"), conds(Ignore, DT)), List.of(),
            List.of(new PodIn(PodPhase.Failed, List.of(exited("", 0)),
                List.of(PodCondition.of("ResourceLimitExceeded", ConditionStatus.True, "", "", null),
                    PodCondition.of(DT, ConditionStatus.True, "", "", null)), false)),
            List.of(), 1, 0, 1, 0),
        new Case("ignore pod failure based on OnPodConditions", job(1, 1, 0, conds(Ignore, DT)), List.of(),
            List.of(failedWith(DT)), List.of(), 1, 0, 0, 0),
        new Case("ignore pod failure based on OnPodConditions, ignored failures delays pod recreation",
            job(1, 1, 0, conds(Ignore, DT)), List.of(),
            List.of(new PodIn(PodPhase.Failed, List.of(),
                List.of(PodCondition.of(DT, ConditionStatus.True, "", "", null)), true)),
            List.of(), 0, 0, 0, 0),
        new Case("fail job based on OnPodConditions", job(1, 1, 6, conds(FailJob, DT)), List.of(),
            List.of(failedWith(DT)),
            failedBy("Pod default/mypod-0 has condition DisruptionTarget matching FailJob rule at index 0"),
            0, 0, 1, 0),
        new Case("terminating Pod not considered failed when JobPodFailurePolicy is enabled and used",
            job(1, null, 0, CompletionMode.NonIndexed, conds(Count, DT)), List.of(),
            List.of(new PodIn(PodPhase.Pending, List.of(), List.of(), true)), List.of(), 0, 0, 0, 1));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void syncJobWithJobPodFailurePolicy_upstreamTable(Case tc) {
    try (JobUpstreamCasesTest.Env env = new JobUpstreamCasesTest.Env(tc.job(), false)) {
      if (!tc.initialConditions().isEmpty()) {
        env.status(new JobStatus(0, 0, 0, null, tc.initialConditions(), null, null, ""));
      }
      List<Pod> toDelete = new ArrayList<>();
      for (int i = 0; i < tc.pods().size(); i++) {
        PodIn in = tc.pods().get(i);
        // upstream's table adds every pod with the tracking finalizer (podBuilder.trackingFinalizer)
        ObjectMeta.Builder m = ObjectMeta.builder().namespace("default").name("mypod-" + i).label("foo", "bar")
            .ownerReference(OwnerReference.controllerOf(env.job)).finalizer(Job.TRACKING_FINALIZER);
        if (tc.job().spec().completionMode() == CompletionMode.Indexed) {
          m.annotation(WorkloadLabels.JOB_COMPLETION_INDEX, Integer.toString(i));
        }
        if (in.deleted()) {
          m.finalizer("test/hold");
        }
        Pod p = env.store.create(Pod.of(m.build(), env.job.spec().template().spec()));
        p = env.store.updateStatus(p.withStatus(new PodStatus(in.phase(), in.conditions(), "", "", null,
            in.containers(), "", "", List.of(), in.initContainers())));
        if (in.deleted()) {
          toDelete.add(p);
        }
      }
      env.clock.advance(Duration.ofHours(1));
      for (Pod p : toDelete) {
        env.store.delete(Pod.class, "default", p.metadata().name());
      }
      Job actual = env.syncOnce();
      JobStatus s = actual.status();
      List<JobCondition> got = new ArrayList<>();
      for (JobCondition c : s.conditions()) {
        got.add(new JobCondition(c.type(), c.status(), c.reason(), c.message(), T, T));
      }
      assertThat(got).as("conditions").isEqualTo(tc.wantConditions());
      assertThat(s.active()).as("active").isEqualTo(tc.wantActive());
      assertThat(s.succeeded()).as("succeeded").isEqualTo(tc.wantSucceeded());
      assertThat(s.failed()).as("failed").isEqualTo(tc.wantFailed());
      assertThat(s.terminating()).as("terminating").isEqualTo(tc.wantTerminating());
    }
  }
}
