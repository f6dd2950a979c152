package io.fleetkit.reconcile.controllers.internal;

import io.fleetkit.api.batch.JobSpec;
import io.fleetkit.api.batch.PodFailurePolicyAction;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.text.GoIntegers;
import io.fleetkit.reconcile.controllers.WorkloadLabels;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;

/**
 * Per-index backoff of Indexed Jobs with {@code backoffLimitPerIndex}, after upstream's
 * {@code pkg/controller/job/indexed_job_utils.go} ({@code isIndexFailed}, {@code calculateFailedIndexes},
 * {@code getNewIndexFailureCounts}, {@code getPodsWithDelayedDeletionPerIndex}) and {@code backoff_utils.go}
 * ({@code getRemainingTimePerIndex}). Each pod carries its index's earlier failures in the annotations {@value
 * WorkloadLabels#JOB_INDEX_FAILURE_COUNT} and {@value WorkloadLabels#JOB_INDEX_IGNORED_FAILURE_COUNT}; a failed pod
 * whose count reached the limit, or that matched a {@code FailIndex} rule, fails its index. Stateless and
 * thread-safe.
 */
public final class IndexFailures {
  private IndexFailures() {}

  /**
   * Upstream's {@code getIndexFailureCount}: the pod's {@value WorkloadLabels#JOB_INDEX_FAILURE_COUNT}; 0 when it is
   * absent, not a number, negative or above {@code Integer.MAX_VALUE}.
   */
  public static int failureCount(Pod pod) {
    return annotation(pod, WorkloadLabels.JOB_INDEX_FAILURE_COUNT);
  }

  /** The pod's {@value WorkloadLabels#JOB_INDEX_IGNORED_FAILURE_COUNT}, read as {@link #failureCount}. */
  public static int ignoredFailureCount(Pod pod) {
    return annotation(pod, WorkloadLabels.JOB_INDEX_IGNORED_FAILURE_COUNT);
  }

  private static int annotation(Pod pod, String key) {
    String v = pod.metadata().annotations().get(key);
    if (v == null) {
      return 0;
    }
    try {
      long n = GoIntegers.atoi(v); // upstream parseInt32: strconv.Atoi, then 0 to MaxInt32
      return n < 0 || n > Integer.MAX_VALUE ? 0 : (int) n;
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  /**
   * Upstream's {@code isIndexFailed}: a failed pod ({@link JobPodTracking#isPodFailed}) that matches a
   * {@code FailIndex} rule, or whose failure counts and whose index already had {@code backoffLimitPerIndex}
   * failures.
   */
  public static boolean isIndexFailed(JobSpec spec, Pod pod) {
    Integer limit = spec.backoffLimitPerIndex();
    if (limit == null || !JobPodTracking.isPodFailed(pod, spec)) {
      return false;
    }
    PodFailurePolicies.Match m = PodFailurePolicies.match(spec.podFailurePolicy(), pod);
    if (m.action() == PodFailurePolicyAction.FailIndex) {
      return true;
    }
    return m.countFailed() && failureCount(pod) >= limit;
  }

  /**
   * Upstream's {@code calculateFailedIndexes}: the failed indexes of {@code status.failedIndexes} and those the
   * failed pods with an index below {@code completions} and the tracking finalizer (not counted yet) fail
   * ({@link #isIndexFailed}).
   */
  public static IndexIntervals failedIndexes(JobSpec spec, @Nullable String statusFailedIndexes, List<Pod> pods) {
    int completions = spec.completions() == null ? 0 : spec.completions();
    IndexIntervals prev = statusFailedIndexes == null ? IndexIntervals.EMPTY
        : IndexIntervals.parse(statusFailedIndexes, completions);
    TreeSet<Integer> failed = new TreeSet<>();
    for (Pod p : pods) {
      int ix = JobReconciler.index(p, spec.completions());
      // a failed pod without the finalizer was counted: its index is in status.failedIndexes already
      if (ix >= 0 && isIndexFailed(spec, p) && JobPodTracking.hasTrackingFinalizer(p)) {
        failed.add(ix);
      }
    }
    return prev.withOrderedIndexes(failed);
  }

  /**
   * Upstream's {@code getNewIndexFailureCounts}: the failure and ignored-failure counts of the pod that replaces
   * {@code replaced} ({@code {0, 0}} for an index's first pod). The replaced pod's failure adds to the ignored count
   * when an {@code Ignore} rule matches it, else to the failure count.
   */
  public static int[] newIndexFailureCounts(JobSpec spec, @Nullable Pod replaced) {
    if (replaced == null) {
      return new int[] {0, 0};
    }
    int failures = failureCount(replaced);
    int ignored = ignoredFailureCount(replaced);
    if (PodFailurePolicies.match(spec.podFailurePolicy(), replaced).countFailed()) {
      failures++;
    } else {
      ignored++;
    }
    return new int[] {failures, ignored};
  }

  /**
   * Upstream's {@code getPodsWithDelayedDeletionPerIndex}: for each index below {@code completions} that has not
   * succeeded, not failed and has no active pod, its last failed pod not counted yet (it has the tracking finalizer
   * and its removal is not awaited), the one its replacement replaces (the highest failure count plus ignored count,
   * the latest finish time among equals). That pod keeps its finalizer until the replacement exists.
   *
   * @param expectedRemovals UIDs whose finalizer removal the controller awaits (counted in an earlier sync)
   */
  public static Map<Integer, Pod> podsBeingReplaced(JobSpec spec, List<Pod> pods, List<Pod> active,
      IndexIntervals succeeded, IndexIntervals failed, java.util.Set<String> expectedRemovals) {
    Integer completions = spec.completions();
    java.util.Set<Integer> activeIndexes = new java.util.HashSet<>();
    for (Pod p : active) {
      activeIndexes.add(JobReconciler.index(p, completions));
    }
    Map<Integer, Pod> result = new HashMap<>();
    for (Pod p : pods) {
      // upstream's getValidPodsWithFilter: pods with the finalizer, not counted yet
      if (!JobPodTracking.hasTrackingFinalizer(p) || expectedRemovals.contains(p.metadata().uid())
          || !JobPodTracking.isPodFailed(p, spec)) {
        continue;
      }
      int ix = JobReconciler.index(p, completions);
      if (ix < 0 || succeeded.has(ix) || failed.has(ix) || activeIndexes.contains(ix)) {
        continue;
      }
      Pod last = result.get(ix);
      if (last == null || (absoluteFailureCount(last) <= absoluteFailureCount(p)
          && !JobBackoffStore.finishedTime(p).isBefore(JobBackoffStore.finishedTime(last)))) {
        result.put(ix, p);
      }
    }
    return result;
  }

  private static int absoluteFailureCount(Pod pod) {
    return failureCount(pod) + ignoredFailureCount(pod);
  }

  /**
   * Upstream's {@code getRemainingTimePerIndex}: how long the replacement of {@code replaced}, its index's last
   * failed pod, still waits: the backoff of the index's failures so far ({@code failures + ignored failures + 1})
   * counted from that pod's finish time ({@link JobBackoffStore#finishedTime}); zero when none is left or the index
   * has no failed pod ({@code replaced} null). The controller's delays: {@link JobReconciler#DEFAULT_BACKOFF}
   * doubling to {@link JobReconciler#MAX_BACKOFF}.
   */
  public static Duration remainingBackoff(@Nullable Pod replaced, Instant now) {
    return remainingBackoff(replaced, now, JobReconciler.DEFAULT_BACKOFF, JobReconciler.MAX_BACKOFF);
  }

  /** {@link #remainingBackoff(Pod, Instant)} with the delay starting at {@code initial}, doubling to {@code max}. */
  public static Duration remainingBackoff(@Nullable Pod replaced, Instant now, Duration initial, Duration max) {
    if (replaced == null) {
      return Duration.ZERO;
    }
    return JobBackoffRecord.remainingTime(absoluteFailureCount(replaced) + 1, JobBackoffStore.finishedTime(replaced),
        now, initial, max);
  }
}
