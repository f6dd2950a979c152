package io.fleetkit.reconcile.controllers;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.batch.CompletionMode;
import io.fleetkit.api.batch.Job;
import io.fleetkit.api.batch.JobCondition;
import io.fleetkit.api.batch.JobStatus;
import io.fleetkit.api.batch.PodFailurePolicy;
import io.fleetkit.api.batch.PodReplacementPolicy;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.meta.OwnerReference;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Ported from upstream {@code pkg/controller/job/job_controller_test.go} (kubernetes commit
 * de00a3c894f17936b66bbd88ae1471f222826629), {@code TestControllerSyncJob}: its cases run with the
 * JobPodReplacementPolicy gate on (Kubernetes 1.34 makes it GA), plus "more terminating pods than parallelism;
 * PodFailurePolicy used" (11 of these 12). Each case makes the Job and its pods in a store, runs exactly one sync
 * ({@link JobUpstreamCasesTest.Env}) and compares creations, deletions, created indexes, active, ready, succeeded,
 * failed, terminating, conditions and the pod patches (tracking finalizers removed, upstream's
 * {@code expectedPodPatches}).
 *
 * <p>As upstream's pods, the pods carry the Job tracking finalizer. Upstream's terminating pods (running, with a
 * deletionTimestamp) are made and then deleted. "more terminating pods than parallelism; PodFailurePolicy used" runs
 * upstream with the gate off, where {@code status.terminating} stays unset: FleetKit reports it for every Job, as
 * upstream with the gate on, so 5 is expected.
 *
 * <p>"count terminating pods when indexed job fails and PodReplacementPolicy enabled" is its own test: the Job gets
 * {@code FailureTarget} for the backoff limit and {@code Failed} waits for the pod it deleted.
 *
 * <p>Not ported: "suspending a job with unsatisfied expectations; PodReplacementPolicy enabled" (FleetKit's pending
 * deletion comes from an earlier sync whose deleted pod is itself terminating, so the expected 0 cannot hold).
 */
final class JobPodReplacementPolicyUpstreamTest {

  record Case(String name, int parallelism, int completions, CompletionMode mode, @Nullable PodReplacementPolicy prp,
      boolean failurePolicy, boolean suspend, boolean deleting, int active, int failed, int terminating,
      int expCreations, int expDeletions, int expActive, int expFailed, int expTerminating, Set<Integer> expIndexes,
      @Nullable String expSuspendedReason, int expPodPatches) {
    @Override
    public String toString() {
      return name;
    }
  }

  private static final CompletionMode NI = CompletionMode.NonIndexed;

  static Stream<Case> cases() {
    return Stream.of(
        new Case("WQ job: recreate pods when failed", 1, -1, NI, PodReplacementPolicy.Failed, false, false, false,
            1, 1, 1, 0, 0, 1, 1, 1, Set.of(), null, 1),
        new Case("WQ job: turn on PodReplacementPolicy but not set PodReplacementPolicy", 1, 1, NI, null, false, false,
            false, 1, 1, 1, 0, 0, 1, 2, 1, Set.of(), null, 2),
        new Case("WQ job: recreate pods when terminating or failed", 1, -1, NI,
            PodReplacementPolicy.TerminatingOrFailed, false, false, false, 1, 1, 1, 0, 0, 1, 2, 1, Set.of(), null, 2),
        new Case("more terminating pods than parallelism", 1, 1, NI, PodReplacementPolicy.Failed, false, false, false,
            2, 0, 4, 0, 1, 1, 0, 5, Set.of(), null, 1),
        new Case("more terminating pods than parallelism; PodFailurePolicy used", 1, 1, NI, null, true, false, false,
            2, 0, 4, 0, 1, 1, 0, 5, Set.of(), null, 1),
        new Case("too many active pods; PodReplacementPolicy enabled", 2, 5, NI, null, false, false, false,
            3, 0, 0, 0, 1, 2, 0, 1, Set.of(), null, 1),
        new Case("indexed job with some pods deleted, podReplacementPolicy Failed", 2, 5, CompletionMode.Indexed,
            PodReplacementPolicy.Failed, false, false, false, 0, 0, 1, 1, 0, 1, 0, 1, Set.of(0), null, 0),
        new Case("indexed job with some pods deleted, podReplacementPolicy TerminatingOrFailed", 2, 5,
            CompletionMode.Indexed, PodReplacementPolicy.TerminatingOrFailed, false, false, false, 0, 0, 1, 2, 0, 2,
            0, 1, Set.of(0, 1), null, 1),
        new Case("suspending a job with satisfied expectations; PodReplacementPolicy enabled", 2, 4, NI, null, false,
            true, false, 2, 0, 0, 0, 2, 0, 0, 2, Set.of(), "JobSuspended", 2),
        new Case("suspending a deleted job; PodReplacementPolicy enabled", 2, 4, NI, null, false, true, true,
            2, 0, 0, 0, 0, 2, 0, 0, Set.of(), null, 2));
  }

  // upstream: "count terminating pods when indexed job fails and PodReplacementPolicy enabled"
  @org.junit.jupiter.api.Test
  void indexedJobFailing_countsTerminatingPods_andSetsFailureTargetOnly() {
    Job j = JobUpstreamCasesTest.newJob(2, 3, 0, CompletionMode.Indexed);
    try (JobUpstreamCasesTest.Env env = new JobUpstreamCasesTest.Env(j, false)) {
      String[][] pods = {{"0", "Succeeded"}, {"1", "Failed"}, {"2", "Running"}};
      for (String[] ip : pods) {
        Pod p = env.store.create(Pod.of(ObjectMeta.builder().namespace("default").name("pod-" + ip[0])
            .label("foo", "bar").annotation(WorkloadLabels.JOB_COMPLETION_INDEX, ip[0])
            .ownerReference(OwnerReference.controllerOf(env.job)).finalizer("batch.kubernetes.io/job-tracking")
            .build(), env.job.spec().template().spec()));
        env.store.updateStatus(p.withStatus(p.status().withPhase(PodPhase.valueOf(ip[1]))));
      }
      env.clock.advance(Duration.ofHours(1));
      Job actual = env.syncOnce();
      assertThat(env.podControl.templates).as("creations").isEmpty();
      assertThat(env.podControl.deletePodNames).as("deletions").containsExactly("pod-2");
      assertThat(env.podControl.patchPodNames).as("pod patches").hasSize(3);
      JobStatus s = actual.status();
      assertThat(s.active()).as("active").isZero();
      assertThat(s.ready()).as("ready").isZero();
      assertThat(s.succeeded()).as("succeeded").isEqualTo(1);
      assertThat(s.failed()).as("failed").isEqualTo(2);
      assertThat(s.completedIndexes()).as("completedIndexes").isEqualTo("0");
      assertThat(s.terminating()).as("terminating").isEqualTo(1);
      assertThat(s.conditions()).singleElement().satisfies(c -> {
        assertThat(c.type()).isEqualTo(JobCondition.FAILURE_TARGET);
        assertThat(c.status()).isEqualTo(ConditionStatus.True);
        assertThat(c.reason()).isEqualTo(JobCondition.REASON_BACKOFF_LIMIT_EXCEEDED);
        assertThat(c.message()).isEqualTo("Job has reached the specified backoff limit");
      });
      assertThat(s.completionTime()).as("completionTime").isNull();
    }
  }

  private static Pod pod(JobUpstreamCasesTest.Env env, String name, PodPhase phase) {
    Pod p = env.store.create(Pod.of(ObjectMeta.builder().namespace("default").name(name).label("foo", "bar")
        .ownerReference(OwnerReference.controllerOf(env.job)).finalizer("batch.kubernetes.io/job-tracking").build(),
        env.job.spec().template().spec()));
    return phase == PodPhase.Pending ? p : env.store.updateStatus(p.withStatus(p.status().withPhase(phase)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void controllerSyncJob_podReplacementPolicyCases(Case tc) {
    Job j = JobUpstreamCasesTest.newJob(tc.parallelism(), tc.completions(), 6, tc.mode());
    j = j.withSpec(j.spec().withSuspend(tc.suspend()).withPodReplacementPolicy(tc.prp())
        .withPodFailurePolicy(tc.failurePolicy() ? new PodFailurePolicy(List.of()) : null));
    try (JobUpstreamCasesTest.Env env = new JobUpstreamCasesTest.Env(j, tc.deleting())) {
      int n = 0;
      for (int i = 0; i < tc.active(); i++) {
        pod(env, "pod-" + n++, PodPhase.Running);
      }
      for (int i = 0; i < tc.failed(); i++) {
        pod(env, "pod-" + n++, PodPhase.Failed);
      }
      List<String> terminating = new ArrayList<>();
      for (int i = 0; i < tc.terminating(); i++) {
        String name = "pod-" + n++;
        pod(env, name, PodPhase.Running);
        terminating.add(name);
      }
      env.clock.advance(Duration.ofHours(1)); // the pods' failure backoff has passed (upstream's testFinishedAt)
      for (String name : terminating) {
        env.store.delete(Pod.class, "default", name);
      }
      if (tc.deleting()) {
        env.store.delete(Job.class, "default", "foobar");
        env.job = env.store.require(Job.class, "default", "foobar");
      }
      Job actual = env.syncOnce();
      assertThat(env.podControl.templates).as("creations").hasSize(tc.expCreations());
      assertThat(env.podControl.deletePodNames).as("deletions").hasSize(tc.expDeletions());
      assertThat(env.podControl.patchPodNames).as("pod patches (tracking finalizers removed)")
          .hasSize(tc.expPodPatches());
      if (tc.mode() == CompletionMode.Indexed) {
        Set<Integer> created = new TreeSet<>();
        for (Pod p : env.podControl.templates) {
          created.add(Integer.parseInt(p.metadata().annotations().get(WorkloadLabels.JOB_COMPLETION_INDEX)));
        }
        assertThat(created).as("created indexes").isEqualTo(new TreeSet<>(tc.expIndexes()));
      }
      JobStatus s = actual.status();
      assertThat(s.active()).as("active").isEqualTo(tc.expActive());
      assertThat(s.ready()).as("ready").isZero();
      assertThat(s.succeeded()).as("succeeded").isZero();
      assertThat(s.failed()).as("failed").isEqualTo(tc.expFailed());
      assertThat(s.terminating()).as("terminating").isEqualTo(tc.expTerminating());
      if (tc.expSuspendedReason() != null) {
        assertThat(s.conditions()).singleElement().satisfies(c -> {
          assertThat(c.type()).isEqualTo(JobCondition.SUSPENDED);
          assertThat(c.status()).isEqualTo(ConditionStatus.True);
          assertThat(c.reason()).isEqualTo(tc.expSuspendedReason());
          assertThat(c.message()).isEqualTo("Job suspended");
        });
        assertThat(s.startTime()).as("startTime while suspended").isNull();
      } else {
        assertThat(s.conditions()).as("conditions").isEmpty();
        if (!tc.suspend()) {
          assertThat(s.startTime()).as("startTime").isNotNull();
        }
      }
    }
  }
}
