package io.fleetkit.reconcile.controllers;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.batch.Job;
import io.fleetkit.api.batch.JobCondition;
import io.fleetkit.api.batch.JobStatus;
import io.fleetkit.api.batch.PodFailurePolicy;
import io.fleetkit.api.batch.PodFailurePolicyAction;
import io.fleetkit.api.batch.PodFailurePolicyOnExitCodesOperator;
import io.fleetkit.api.batch.PodFailurePolicyOnExitCodesRequirement;
import io.fleetkit.api.batch.PodFailurePolicyRule;
import io.fleetkit.api.batch.PodReplacementPolicy;
import io.fleetkit.api.core.ContainerState;
import io.fleetkit.api.core.ContainerStatus;
import io.fleetkit.api.core.Pod;
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
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * FleetKit's own cases for the Job controller's pod failure and pod replacement policies: the {@code Failed}
 * condition waiting for terminating pods after {@code FailureTarget}, and terminating pods not replaced with
 * podReplacementPolicy {@code Failed} (upstream's {@code onlyReplaceFailedPods}).
 */
final class JobPodFailurePolicyTest {

  private static final PodFailurePolicy FAIL_ON_5 = PodFailurePolicy.of(PodFailurePolicyRule.onExitCodes(
      PodFailurePolicyAction.FailJob, PodFailurePolicyOnExitCodesRequirement.of(
          PodFailurePolicyOnExitCodesOperator.In, 5)));

  private static Job.Builder job(int parallelism) {
    return Job.builder().namespace("default").name("foobar").parallelism(parallelism).completions(parallelism)
        .selector(LabelSelector.of(Map.of("foo", "bar"))).templateLabels(Map.of("foo", "bar"))
        .podSpec(PodSpec.builder().container("main", "img", ResourceList.EMPTY).restartPolicy(RestartPolicy.Never)
            .build());
  }

  private static Pod pod(JobUpstreamCasesTest.Env env, String name, PodPhase phase, @Nullable Integer exitCode,
      boolean held) {
    ObjectMeta.Builder m = ObjectMeta.builder().namespace("default").name(name).label("foo", "bar")
        .ownerReference(OwnerReference.controllerOf(env.job)).finalizer(Job.TRACKING_FINALIZER);
    if (held) {
      m.finalizer("test/hold");
    }
    Pod p = env.store.create(Pod.of(m.build(), env.job.spec().template().spec()));
    List<ContainerStatus> cs = exitCode == null ? List.of()
        : List.of(new ContainerStatus("main", false, 0, ContainerState.terminated(exitCode, "Error", null)));
    return env.store.updateStatus(p.withStatus(new PodStatus(phase, List.of(), "", "", null, cs, "", "")));
  }

  private static void release(JobUpstreamCasesTest.Env env, String name) {
    Pod p = env.store.require(Pod.class, "default", name);
    env.store.update(p.withMetadata(p.metadata().toBuilder().finalizers(List.of()).build()));
  }

  private static Job drain(JobUpstreamCasesTest.Env env) {
    for (int i = 0; i < 20 && env.controller.controller().runOnce(); i++) {
      // run the syncs the writes queued
    }
    return env.store.require(Job.class, "default", "foobar");
  }

  @Test
  void failJob_runningPodHeldByFinalizer_failedWaitsForIt() {
    try (JobUpstreamCasesTest.Env env = new JobUpstreamCasesTest.Env(job(2).podFailurePolicy(FAIL_ON_5).build(),
        false)) {
      pod(env, "mypod-0", PodPhase.Running, null, true);
      pod(env, "mypod-1", PodPhase.Failed, 5, false);
      env.clock.advance(Duration.ofHours(1));
      Job first = env.syncOnce();
      String message = "Container main for pod default/mypod-1 failed with exit code 5 matching FailJob rule at index 0";
      JobStatus s = first.status();
      assertThat(s.conditions()).extracting(JobCondition::type).containsExactly(JobCondition.FAILURE_TARGET);
      assertThat(s.conditions().get(0).reason()).isEqualTo(JobCondition.REASON_POD_FAILURE_POLICY);
      assertThat(s.conditions().get(0).message()).isEqualTo(message);
      assertThat(s.isFinished()).isFalse();
      assertThat(s.active()).isZero();
      assertThat(s.failed()).as("the failed pod and the deleted one").isEqualTo(2);
      assertThat(s.terminating()).isEqualTo(1);
      assertThat(env.store.require(Pod.class, "default", "mypod-0").metadata().deletionTimestamp()).isNotNull();

      Job still = drain(env);
      assertThat(still.status().isFinished()).as("still terminating").isFalse();
      assertThat(env.podNames()).as("no replacement of a failing Job's pods").containsExactlyInAnyOrder("mypod-0",
          "mypod-1");

      release(env, "mypod-0");
      Job done = drain(env);
      JobStatus d = done.status();
      assertThat(d.conditions()).extracting(JobCondition::type)
          .containsExactly(JobCondition.FAILURE_TARGET, JobCondition.FAILED);
      JobCondition failed = d.condition(JobCondition.FAILED);
      assertThat(failed.status()).isEqualTo(ConditionStatus.True);
      assertThat(failed.reason()).isEqualTo(JobCondition.REASON_POD_FAILURE_POLICY);
      assertThat(failed.message()).isEqualTo(message);
      assertThat(d.failed()).as("counts never go down while failing").isEqualTo(2);
      assertThat(d.terminating()).isZero();
    }
  }

  @Test
  void replacementPolicyFailed_terminatingPodNotReplacedUntilGone() {
    Job j = job(1).podReplacementPolicy(PodReplacementPolicy.Failed).build();
    try (JobUpstreamCasesTest.Env env = new JobUpstreamCasesTest.Env(j, false)) {
      pod(env, "held", PodPhase.Running, null, true);
      env.store.delete(Pod.class, "default", "held");
      env.clock.advance(Duration.ofHours(1));
      Job first = env.syncOnce();
      assertThat(env.podControl.templates).as("no replacement while terminating").isEmpty();
      assertThat(first.status().terminating()).isEqualTo(1);
      assertThat(first.status().active()).isZero();

      release(env, "held");
      Job after = drain(env);
      assertThat(env.podNames()).hasSize(1).doesNotContain("held");
      assertThat(after.status().active()).isEqualTo(1);
      assertThat(after.status().terminating()).isZero();
    }
  }

  @Test
  void replacementPolicyTerminatingOrFailed_terminatingPodReplacedAtOnce() {
    Job j = job(1).podReplacementPolicy(PodReplacementPolicy.TerminatingOrFailed).build();
    try (JobUpstreamCasesTest.Env env = new JobUpstreamCasesTest.Env(j, false)) {
      pod(env, "held", PodPhase.Running, null, true);
      env.store.delete(Pod.class, "default", "held");
      env.clock.advance(Duration.ofHours(1));
      Job first = env.syncOnce();
      assertThat(env.podControl.templates).as("replaced at once").hasSize(1);
      assertThat(first.status().active()).isEqualTo(1);
      assertThat(first.status().terminating()).isEqualTo(1);
    }
  }

  @Test
  void noPolicies_terminatingReported_replacedAtOnce() {
    try (JobUpstreamCasesTest.Env env = new JobUpstreamCasesTest.Env(job(1).build(), false)) {
      pod(env, "held", PodPhase.Running, null, true);
      env.store.delete(Pod.class, "default", "held");
      env.clock.advance(Duration.ofHours(1));
      Job first = env.syncOnce();
      assertThat(first.status().terminating()).isEqualTo(1);
      assertThat(first.spec().effectivePodReplacementPolicy()).isEqualTo(PodReplacementPolicy.TerminatingOrFailed);
      assertThat(env.podControl.templates).as("replaced at once, as before").hasSize(1);
    }
  }

  @Test
  void ignoredFailures_doNotReachTheBackoffLimit() {
    PodFailurePolicy ignore137 = PodFailurePolicy.of(PodFailurePolicyRule.onExitCodes(PodFailurePolicyAction.Ignore,
        PodFailurePolicyOnExitCodesRequirement.of(PodFailurePolicyOnExitCodesOperator.In, 137)));
    try (JobUpstreamCasesTest.Env env = new JobUpstreamCasesTest.Env(job(1).backoffLimit(0)
        .podFailurePolicy(ignore137).build(), false)) {
      pod(env, "a", PodPhase.Failed, 137, false);
      pod(env, "b", PodPhase.Failed, 137, false);
      env.clock.advance(Duration.ofHours(1));
      Job first = env.syncOnce();
      assertThat(first.status().failed()).isZero();
      assertThat(first.status().conditions()).isEmpty();
      assertThat(first.status().active()).isEqualTo(1);
    }
  }
}
