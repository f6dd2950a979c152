package io.fleetkit.reconcile.controllers;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.batch.CompletionMode;
import io.fleetkit.api.batch.Job;
import io.fleetkit.api.batch.JobCondition;
import io.fleetkit.api.batch.JobStatus;
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
import org.jspecify.annotations.Nullable;

/**
 * The fixture of the ported Indexed-Job tables ({@code TestSyncJobWithJobBackoffLimitPerIndex},
 * {@code TestSyncJobWithJobSuccessPolicy}): upstream's Job {@code foobar} (selector {@code foo=bar}, restartPolicy
 * Never, as FleetKit wants with a pod failure policy) and its pods {@code mypod-<i>} built as upstream's
 * {@code buildPod()} does, carrying the Job tracking finalizer when upstream's do (a pod the controller deletes then
 * stays, terminating, as upstream's fake pod control leaves it). Pods are made an hour before the one sync, so their
 * failure backoff has passed (upstream's pods have no finish time).
 */
final class IndexedJobCases {
  static final String TRACKING = "batch.kubernetes.io/job-tracking";
  private static final Instant T = Instant.EPOCH; // condition times are not compared

  private IndexedJobCases() {}

  /** One of upstream's {@code buildPod()} pods. */
  record PodIn(int index, PodPhase phase, @Nullable String failureCount, @Nullable Integer exitCode,
      @Nullable String containerName, @Nullable String conditionType, boolean finalizer) {
    PodIn withExitCode(String container, int code) {
      return new PodIn(index, phase, failureCount, code, container, conditionType, finalizer);
    }

    PodIn withCondition(String type) {
      return new PodIn(index, phase, failureCount, exitCode, containerName, type, finalizer);
    }

    PodIn withoutFinalizer() {
      return new PodIn(index, phase, failureCount, exitCode, containerName, conditionType, false);
    }
  }

  /** {@code buildPod().index(ix).phase(phase)[.indexFailureCount(count)].trackingFinalizer()}. */
  static PodIn pod(int index, PodPhase phase, @Nullable String failureCount) {
    return new PodIn(index, phase, failureCount, null, null, null, true);
  }

  static PodIn pod(int index, PodPhase phase) {
    return pod(index, phase, null);
  }

  /** What upstream's {@code wantStatus} says (start, completion time and ready are not compared, as upstream). */
  record Want(int active, int succeeded, int failed, int terminating, String completedIndexes,
      @Nullable String failedIndexes, List<JobCondition> conditions) {}

  static JobCondition cond(String type, String reason, String message) {
    return new JobCondition(type, ConditionStatus.True, reason, message, T, T);
  }

  /** upstream's Job: Indexed, {@code parallelism} and {@code completions}. */
  static Job.Builder indexedJob(int parallelism, int completions) {
    return Job.builder().namespace("default").name("foobar").parallelism(parallelism).completions(completions)
        .completionMode(CompletionMode.Indexed).selector(LabelSelector.of(Map.of("foo", "bar")))
        .templateLabels(Map.of("foo", "bar"))
        .podSpec(PodSpec.builder().container("main", "foo/bar", ResourceList.EMPTY)
            .restartPolicy(RestartPolicy.Never).build());
  }

  /** Makes the Job (with {@code initial} as its status) and the pods, runs one sync and returns the Job after it. */
  static Job syncOnce(JobUpstreamCasesTest.Env env, @Nullable JobStatus initial, List<PodIn> pods) {
    if (initial != null) {
      env.status(initial);
    }
    for (int i = 0; i < pods.size(); i++) {
      PodIn in = pods.get(i);
      ObjectMeta.Builder m = ObjectMeta.builder().namespace("default").name("mypod-" + i).label("foo", "bar")
          .ownerReference(OwnerReference.controllerOf(env.job))
          .annotation(WorkloadLabels.JOB_COMPLETION_INDEX, Integer.toString(in.index()));
      if (in.failureCount() != null) {
        m.annotation(WorkloadLabels.JOB_INDEX_FAILURE_COUNT, in.failureCount());
      }
      if (in.finalizer()) {
        m.finalizer(TRACKING);
      }
      Pod p = env.store.create(Pod.of(m.build(), env.job.spec().template().spec()));
      List<ContainerStatus> containers = in.exitCode() == null ? List.of()
          : List.of(new ContainerStatus(in.containerName() == null ? "" : in.containerName(), false, 0,
              ContainerState.terminated(in.exitCode(), "", null)));
      List<PodCondition> conditions = in.conditionType() == null ? List.of()
          : List.of(PodCondition.of(in.conditionType(), ConditionStatus.True, "", "", null));
      env.store.updateStatus(p.withStatus(new PodStatus(in.phase(), conditions, "", "", null, containers, "", "",
          List.of(), List.of())));
    }
    env.clock.advance(Duration.ofHours(1));
    return env.syncOnce();
  }

  static void assertStatus(JobStatus s, Want want) {
    List<JobCondition> got = new ArrayList<>();
    for (JobCondition c : s.conditions()) {
      got.add(new JobCondition(c.type(), c.status(), c.reason(), c.message(), T, T));
    }
    assertThat(got).as("conditions").isEqualTo(want.conditions());
    assertThat(s.active()).as("active").isEqualTo(want.active());
    assertThat(s.succeeded()).as("succeeded").isEqualTo(want.succeeded());
    assertThat(s.failed()).as("failed").isEqualTo(want.failed());
    assertThat(s.terminating()).as("terminating").isEqualTo(want.terminating());
    assertThat(s.completedIndexes()).as("completedIndexes").isEqualTo(want.completedIndexes());
    assertThat(s.failedIndexes()).as("failedIndexes").isEqualTo(want.failedIndexes());
    // upstream's wantStatus: UncountedTerminatedPods{} (every pod counted by the sync's end)
    assertThat(s.uncountedTerminatedPods().isEmpty()).as("uncountedTerminatedPods").isTrue();
  }
}
