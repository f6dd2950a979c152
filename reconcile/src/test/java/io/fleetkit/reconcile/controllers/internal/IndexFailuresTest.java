package io.fleetkit.reconcile.controllers.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.batch.CompletionMode;
import io.fleetkit.api.batch.Job;
import io.fleetkit.api.batch.JobSpec;
import io.fleetkit.api.batch.PodFailurePolicy;
import io.fleetkit.api.batch.PodFailurePolicyAction;
import io.fleetkit.api.batch.PodFailurePolicyOnExitCodesOperator;
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
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.reconcile.controllers.ActivePods;
import io.fleetkit.reconcile.controllers.WorkloadLabels;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Ported from upstream {@code pkg/controller/job/indexed_job_utils_test.go} (kubernetes commit
 * 4a37f009ca615534484b1116d0f147f1f23cf067; {@code indexed_job_utils.go} 78fc8e44052f699bf598f84b697b41e5a328c9c5):
 * {@code TestIsIndexFailed} 3/3, {@code TestCalculateFailedIndexes} 6/6, {@code TestGetPodsWithDelayedDeletionPerIndex}
 * 8/8 (the pod each index's replacement replaces, {@link IndexFailures#podsBeingReplaced}, with the UIDs whose
 * finalizer removal is awaited), {@code TestGetNewIndexFailureCountValue} 4/4, {@code TestGetIndexFailureCount} 6/6.
 * Upstream's pods are built with {@code buildPod()}, with the Job tracking finalizer where the table gives it
 * ({@link #untracked} where it does not).
 */
final class IndexFailuresTest {

  private static int podCounter;

  /** upstream's {@code buildPod()}: index, phase, index-failure-count annotation. */
  private static Pod pod(@Nullable String index, PodPhase phase, @Nullable String failureCount) {
    ObjectMeta.Builder m = ObjectMeta.builder().namespace("default").name("p" + podCounter++);
    if (index != null) {
      m.annotation(WorkloadLabels.JOB_COMPLETION_INDEX, index);
    }
    if (failureCount != null) {
      m.annotation(WorkloadLabels.JOB_INDEX_FAILURE_COUNT, failureCount);
    }
    m.finalizer(Job.TRACKING_FINALIZER); // upstream's trackingFinalizer()
    return Pod.of(m.build(), PodSpec.builder().container("main", "image", ResourceList.EMPTY).build())
        .withStatus(new PodStatus(phase, List.of(), "", "", null, List.of(), "", ""));
  }

  /** The pod without the tracking finalizer (upstream's {@code buildPod()} without {@code trackingFinalizer()}). */
  private static Pod untracked(Pod p) {
    return p.withMetadata(p.metadata().toBuilder().finalizers(List.of()).build());
  }

  private static Pod named(String uid, Pod p) {
    return p.withMetadata(p.metadata().toBuilder().name(uid).uid(uid).build());
  }

  private static Pod exited(Pod p, int code) {
    return p.withStatus(new PodStatus(p.status().phase(), List.of(), "", "", null,
        List.of(new ContainerStatus("", false, 0, ContainerState.terminated(code, "", null))), "", ""));
  }

  private static Pod disrupted(Pod p) {
    return p.withStatus(new PodStatus(p.status().phase(), List.of(PodCondition.of(PodCondition.DISRUPTION_TARGET,
        ConditionStatus.True, "", "", null)), "", "", null, List.of(), "", ""));
  }

  private static JobSpec spec(int completions, @Nullable Integer perIndex, @Nullable PodFailurePolicy policy) {
    return Job.builder().name("j").completionMode(CompletionMode.Indexed).completions(completions)
        .backoffLimitPerIndex(perIndex).podFailurePolicy(policy)
        .podSpec(PodSpec.builder().container("main", "image", ResourceList.EMPTY)
            .restartPolicy(RestartPolicy.Never).build()).build().spec();
  }

  private static PodFailurePolicy onExit3(PodFailurePolicyAction action) {
    return PodFailurePolicy.of(PodFailurePolicyRule.onExitCodes(action,
        PodFailurePolicyOnExitCodesRequirement.of(PodFailurePolicyOnExitCodesOperator.In, 3)));
  }

  static Stream<Arguments> isIndexFailed() {
    return Stream.of(
        Arguments.of("failed pod exceeding backoffLimitPerIndex, when backoffLimitPerIndex=0", spec(2, 0, null),
            pod("0", PodPhase.Failed, "0"), true),
        Arguments.of("failed pod exceeding backoffLimitPerIndex, when backoffLimitPerIndex=1", spec(2, 1, null),
            pod("1", PodPhase.Failed, "1"), true),
        Arguments.of("matching FailIndex pod failure policy", spec(2, 1, onExit3(PodFailurePolicyAction.FailIndex)),
            exited(pod("0", PodPhase.Failed, "0"), 3), true));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("isIndexFailed")
  void isIndexFailed_upstreamTable(String name, JobSpec spec, Pod pod, boolean want) {
    assertThat(IndexFailures.isIndexFailed(spec, pod)).isEqualTo(want);
  }

  static Stream<Arguments> failedIndexes() {
    return Stream.of(
        Arguments.of("one new index failed", spec(2, 1, null), null,
            List.of(pod("0", PodPhase.Failed, "0"), pod("1", PodPhase.Failed, "1")), IndexIntervals.of(1, 1)),
        Arguments.of("pod without finalizer is ignored", spec(2, 0, null), null,
            List.of(untracked(pod("0", PodPhase.Failed, "0"))), IndexIntervals.EMPTY),
        Arguments.of("pod outside completions is ignored", spec(2, 0, null), null,
            List.of(untracked(pod("3", PodPhase.Failed, "0"))), IndexIntervals.EMPTY),
        Arguments.of("extend the failed indexes", spec(2, 0, null), "0", List.of(pod("1", PodPhase.Failed, "0")),
            IndexIntervals.of(0, 1)),
        Arguments.of("prev failed indexes empty", spec(2, 0, null), "", List.of(pod("1", PodPhase.Failed, "0")),
            IndexIntervals.of(1, 1)),
        Arguments.of("prev failed indexes outside the completions", spec(2, 0, null), "9",
            List.of(pod("1", PodPhase.Failed, "0")), IndexIntervals.of(1, 1)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("failedIndexes")
  void calculateFailedIndexes_upstreamTable(String name, JobSpec spec, @Nullable String prev, List<Pod> pods,
      IndexIntervals want) {
    assertThat(IndexFailures.failedIndexes(spec, prev, pods)).isEqualTo(want);
  }

  static Stream<Arguments> replaced() {
    Instant now = Instant.parse("2026-01-01T00:00:00Z");
    return Stream.of(
        Arguments.of("failed pods are kept corresponding to non-failed indexes are kept", spec(3, 1, null),
            List.of(named("a", pod("0", PodPhase.Failed, "0")), named("b", pod("1", PodPhase.Failed, "1")),
                named("c", pod("2", PodPhase.Failed, "0"))), Set.of(), List.of("a", "c")),
        Arguments.of("failed pod without finalizer; the pod's deletion is not delayed as it already started",
            spec(2, 0, null), List.of(untracked(named("a", pod("0", PodPhase.Failed, "0")))), Set.of(), List.of()),
        Arguments.of("failed pod with expected finalizer removal; the pod's deletion is not delayed as it already "
            + "started", spec(2, 0, null), List.of(named("a", pod("0", PodPhase.Failed, "0"))), Set.of("a"),
            List.of()),
        Arguments.of("failed pod with index outside of completions; the pod's deletion is not delayed",
            spec(2, 0, null), List.of(named("a", pod("4", PodPhase.Failed, "0"))), Set.of(), List.of()),
        Arguments.of("failed pod for active index; the pod's deletion is not delayed as it is already replaced",
            spec(2, 1, null), List.of(named("a1", pod("0", PodPhase.Failed, "0")),
                named("a2", pod("0", PodPhase.Running, "1"))), Set.of(), List.of()),
        Arguments.of("failed pod for succeeded index; the pod's deletion is not delayed as it is already replaced",
            spec(2, 1, null), List.of(named("a1", pod("0", PodPhase.Failed, "0")),
                named("a2", pod("0", PodPhase.Succeeded, "1"))), Set.of(), List.of()),
        Arguments.of("multiple failed pods for index with different failure count; only the pod with highest "
            + "failure count is kept", spec(2, 4, null), List.of(named("a1", pod("0", PodPhase.Failed, "0")),
                named("a3", pod("0", PodPhase.Failed, "2")), named("a2", pod("0", PodPhase.Failed, "1"))),
            Set.of(), List.of("a3")),
        Arguments.of("multiple failed pods for index with different finish times; only the last failed pod is kept",
            spec(2, 4, null), List.of(deletedAt("a1", now.minusSeconds(1)), deletedAt("a3", now),
                deletedAt("a2", now.minusSeconds(2))), Set.of(), List.of("a3")));
  }

  private static Pod deletedAt(String name, Instant t) {
    Pod p = named(name, pod("0", PodPhase.Failed, "1"));
    return p.withMetadata(p.metadata().toBuilder().deletionTimestamp(t).build());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("replaced")
  void getPodsWithDelayedDeletionPerIndex_upstreamTable(String name, JobSpec spec, List<Pod> pods,
      Set<String> expectedRmFinalizers, List<String> want) {
    List<Pod> active = new ArrayList<>();
    TreeSet<Integer> succeeded = new TreeSet<>();
    for (Pod p : pods) {
      if (ActivePods.isActive(p)) {
        active.add(p);
      } else if (p.status().phase() == PodPhase.Succeeded) {
        int ix = JobReconciler.index(p, spec.completions());
        if (ix >= 0) {
          succeeded.add(ix);
        }
      }
    }
    IndexIntervals failed = IndexFailures.failedIndexes(spec, null, pods);
    Map<Integer, Pod> got = IndexFailures.podsBeingReplaced(spec, pods, active, IndexIntervals.ofIndexes(succeeded),
        failed, expectedRmFinalizers);
    TreeSet<String> names = new TreeSet<>();
    for (Pod p : got.values()) {
      names.add(p.metadata().name());
    }
    assertThat(names).containsExactlyElementsOf(want);
  }

  static Stream<Arguments> newCounts() {
    PodFailurePolicy ignoreDisruption = PodFailurePolicy.of(PodFailurePolicyRule.onPodConditions(
        PodFailurePolicyAction.Ignore, PodFailurePolicyOnPodConditionsPattern.of(PodCondition.DISRUPTION_TARGET)));
    return Stream.of(
        Arguments.of("first pod created", spec(4, null, null), null, 0, 0),
        Arguments.of("failed pod being replaced with 0 index failure count", spec(4, null, null),
            pod("0", PodPhase.Failed, "0"), 1, 0),
        Arguments.of("failed pod being replaced with >0 index failure count", spec(4, null, null),
            pod("0", PodPhase.Failed, "3"), 4, 0),
        Arguments.of("failed pod being replaced, matching the ignore rule", spec(4, null, ignoreDisruption),
            disrupted(pod("3", PodPhase.Failed, "3")), 3, 1));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("newCounts")
  void getNewIndexFailureCountValue_upstreamTable(String name, JobSpec spec, @Nullable Pod replaced, int wantCount,
      int wantIgnored) {
    assertThat(IndexFailures.newIndexFailureCounts(spec, replaced)).containsExactly(wantCount, wantIgnored);
  }

  static Stream<Arguments> failureCount() {
    return Stream.of(
        Arguments.of("no annotation", null, 0),
        Arguments.of("valid value", "2", 2),
        Arguments.of("valid maxint32 value", Integer.toString(Integer.MAX_VALUE), Integer.MAX_VALUE),
        Arguments.of("too large value", Long.toString(Integer.MAX_VALUE + 1L), 0),
        Arguments.of("negative value", "-1", 0),
        Arguments.of("invalid int value", "xyz", 0));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("failureCount")
  void getIndexFailureCount_upstreamTable(String name, @Nullable String annotation, int want) {
    assertThat(IndexFailures.failureCount(pod("0", PodPhase.Failed, annotation))).isEqualTo(want);
  }

  @Test
  void remainingBackoff_growsWithTheIndexFailures() {
    // upstream's getRemainingTimePerIndex: 10 s after the first failure, 20 s after the second (counted or ignored)
    Pod first = pod("0", PodPhase.Failed, "0");
    Instant finished = JobBackoffStore.finishedTime(first);
    assertThat(IndexFailures.remainingBackoff(first, finished)).isEqualTo(Duration.ofSeconds(10));
    assertThat(IndexFailures.remainingBackoff(first, finished.plusSeconds(10))).isZero();
    Pod second = pod("0", PodPhase.Failed, "1");
    assertThat(IndexFailures.remainingBackoff(second, JobBackoffStore.finishedTime(second)))
        .isEqualTo(Duration.ofSeconds(20));
  }
}
