package io.fleetkit.reconcile.controllers.internal;

import io.fleetkit.api.batch.CompletionMode;
import io.fleetkit.api.batch.Job;
import io.fleetkit.api.batch.JobCondition;
import io.fleetkit.api.batch.JobSpec;
import io.fleetkit.api.batch.JobStatus;
import io.fleetkit.api.batch.PodReplacementPolicy;
import io.fleetkit.api.batch.UncountedTerminatedPods;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.meta.ConditionStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Counts a Job's finished pods through its {@value Job#TRACKING_FINALIZER} finalizer, as upstream's Job controller
 * does since Kubernetes 1.26 ({@code trackJobStatusAndRemoveFinalizers}, {@code flushUncountedAndRemoveFinalizers},
 * {@code cleanUncountedPodsWithoutFinalizers} and {@code enactJobFinished} of {@code job_controller.go}). A pod the
 * controller created or adopted carries the finalizer until it is counted, so it cannot disappear uncounted:
 * <ol>
 *   <li>the UIDs of the uncounted pods ({@code status.uncountedTerminatedPods}) whose finalizer is gone move to
 *       {@code status.succeeded} / {@code status.failed};</li>
 *   <li>each pod that still has the finalizer and may give it up (it succeeded, it is failed, the Job is finished or
 *       being deleted) is added to the uncounted lists: a succeeded pod as succeeded (for an Indexed Job its index
 *       goes to {@code completedIndexes} instead), a failed one (or any unfinished one of a finished Job) as failed,
 *       unless a pod failure policy {@code Ignore} rule matches it; at most {@value #MAX_UNCOUNTED_PODS} per
 *       sync;</li>
 *   <li>the status is written, then the finalizers removed, then the pods whose finalizer went are counted and the
 *       status written again; a {@code FailureTarget} or {@code SuccessCriteriaMet} decided in this sync is written
 *       with the first write, and the terminal {@code Failed} / {@code Complete} condition only once no pod is
 *       uncounted and none terminates.</li>
 * </ol>
 * A failed pod is a pod in phase Failed or, with podReplacementPolicy {@code TerminatingOrFailed}, one being
 * deleted that did not succeed ({@link #isPodFailed}): a pod deleted while it has the finalizer (by the pod garbage
 * collector, an eviction, a taint or a user) is counted as failed and only then released.
 *
 * <p>Stateless; thread-safe.
 */
public final class JobPodTracking {
  /**
   * Upstream's {@code MaxUncountedPods}: the pods one sync adds to the uncounted lists (keeping the status small and
   * a big Job from starving the others); the rest wait for the next sync.
   */
  public static final int MAX_UNCOUNTED_PODS = 500;

  private JobPodTracking() {}

  /** Writes a Job's status (the store's {@code updateStatus}); returns the Job as written. */
  @FunctionalInterface
  public interface StatusWriter {
    Job write(Job job);
  }

  /** Removes the tracking finalizer from pods (upstream's {@code removeTrackingFinalizerFromPods}). */
  @FunctionalInterface
  public interface FinalizerRemover {
    /** Tries every pod; a pod already gone counts as removed. */
    Removal remove(List<Pod> pods);
  }

  /**
   * What a {@link FinalizerRemover} did: the UIDs whose finalizer is gone, and the first failure (the others were
   * still tried).
   */
  public record Removal(Set<String> removed, @Nullable RuntimeException error) {
    public Removal {
      removed = Set.copyOf(removed);
    }
  }

  /**
   * One sync's view of a Job (upstream's {@code syncJobCtx}).
   *
   * @param job the Job with the status the sync computed so far (active, ready, terminating, conditions)
   * @param pods the Job's pods
   * @param finishedCondition the condition the sync decided: {@code FailureTarget}, {@code Failed},
   *     {@code SuccessCriteriaMet} or {@code Complete}; {@code null} while the Job goes on
   * @param expectedRemovals UIDs whose finalizer removal the controller asked for and has not seen yet: counted
   *     in an earlier sync
   * @param terminating pods being deleted that are not terminal yet: the terminal condition waits for them
   * @param failedIndexes with backoffLimitPerIndex, the failed indexes (written to {@code status.failedIndexes});
   *     else {@code null}
   * @param delayedRemovals with backoffLimitPerIndex, by index, the failed pod whose replacement is not created
   *     yet: it keeps its finalizer (and is not counted) until then
   */
  public record Sync(Job job, List<Pod> pods, @Nullable JobCondition finishedCondition, Set<String> expectedRemovals,
      int terminating, @Nullable IndexIntervals failedIndexes, Map<Integer, Pod> delayedRemovals) {
    public Sync {
      Objects.requireNonNull(job, "job");
      pods = List.copyOf(pods);
      expectedRemovals = Set.copyOf(expectedRemovals);
      delayedRemovals = Map.copyOf(delayedRemovals);
    }
  }

  /** The Job as last written (or as given when nothing was written), and whether it got its terminal condition. */
  public record Outcome(Job job, boolean finished) {}

  /** Whether {@code pod} has the {@value Job#TRACKING_FINALIZER} finalizer. */
  public static boolean hasTrackingFinalizer(Pod pod) {
    return pod.metadata().finalizers().contains(Job.TRACKING_FINALIZER);
  }

  /**
   * Upstream's {@code isPodFailed}: phase Failed, or, unless podReplacementPolicy is {@code Failed}, being deleted
   * without having succeeded (a pod that never reaches a terminal phase, e.g. orphaned on a lost node, still counts).
   */
  public static boolean isPodFailed(Pod pod, JobSpec spec) {
    PodPhase phase = pod.status().phase();
    if (phase == PodPhase.Failed) {
      return true;
    }
    if (spec.effectivePodReplacementPolicy() == PodReplacementPolicy.Failed) {
      return false;
    }
    return pod.metadata().deletionTimestamp() != null && phase != PodPhase.Succeeded;
  }

  /**
   * Upstream's {@code getNewFinishedPods}: the pods with the finalizer, not uncounted yet and not counted in an
   * earlier sync ({@code expectedRemovals}), that succeeded ({@code succeeded} true) or failed; for an Indexed Job
   * only those with an index below {@code completions}.
   */
  public static List<Pod> newFinishedPods(Job job, List<Pod> pods, Set<String> expectedRemovals, boolean succeeded) {
    JobSpec spec = job.spec();
    UncountedTerminatedPods u = job.status().uncountedTerminatedPods();
    Set<String> uncounted = new HashSet<>(succeeded ? u.succeeded() : u.failed());
    boolean indexed = spec.completionMode() == CompletionMode.Indexed;
    List<Pod> result = new ArrayList<>();
    for (Pod p : pods) {
      String uid = p.metadata().uid();
      if (!hasTrackingFinalizer(p) || uncounted.contains(uid) || expectedRemovals.contains(uid)) {
        continue;
      }
      if (indexed && JobReconciler.index(p, spec.completions()) < 0) {
        continue;
      }
      if (succeeded ? p.status().phase() == PodPhase.Succeeded : isPodFailed(p, spec)) {
        result.add(p);
      }
    }
    return result;
  }

  /**
   * Upstream's {@code trackJobStatusAndRemoveFinalizers}: counts the finished pods, removes their finalizers and
   * writes the status (none, one, two or three writes), then, if no pod is left uncounted and none terminates, the
   * terminal condition.
   *
   * @param needsFlush whether the status the sync computed differs from the stored one
   * @throws RuntimeException what {@code writer} threw (the sync stops there), or the first failed finalizer
   *     removal (after the status was written with the removals that succeeded)
   */
  public static Outcome track(Sync sync, boolean needsFlush, Instant now, StatusWriter writer,
      FinalizerRemover remover) {
    return track(sync, needsFlush, now, writer, remover, () -> { });
  }

  /**
   * {@link #track} that runs {@code afterFlush} once the status counting the newly finished pods is written (upstream
   * stores the Job's pod-failure backoff record there: {@link JobBackoffStore}); not when that write fails or is not
   * needed.
   */
  public static Outcome track(Sync sync, boolean needsFlush, Instant now, StatusWriter writer,
      FinalizerRemover remover, Runnable afterFlush) {
    Job job = sync.job();
    JobSpec spec = job.spec();
    JobStatus original = job.status();
    boolean indexed = spec.completionMode() == CompletionMode.Indexed;
    Integer completions = spec.completions();
    List<Pod> pods = new ArrayList<>(sync.pods());
    if (indexed) {
      // introduce completed indexes in order (upstream's byCompletionIndex)
      pods.sort(Comparator.comparingInt(p -> JobReconciler.index(p, Integer.MAX_VALUE)));
    }
    // a pod whose finalizer removal is awaited counts as without it: its uncounted UID moves to the counters
    Set<String> withFinalizer = new HashSet<>();
    for (Pod p : pods) {
      if (hasTrackingFinalizer(p) && !sync.expectedRemovals().contains(p.metadata().uid())) {
        withFinalizer.add(p.metadata().uid());
      }
    }
    Set<String> uncountedSucceeded = new HashSet<>(original.uncountedTerminatedPods().succeeded());
    Set<String> uncountedFailed = new HashSet<>(original.uncountedTerminatedPods().failed());
    Counts counts = new Counts(original);
    if (counts.clean(withFinalizer)) {
      needsFlush = true;
    }
    List<Pod> toRemove = new ArrayList<>();
    List<Integer> newSucceededIndexes = new ArrayList<>();
    IndexIntervals prevSucceeded = indexed && completions != null
        ? IndexIntervals.parse(original.completedIndexes(), completions) : IndexIntervals.EMPTY;
    JobCondition finished = sync.finishedCondition();
    boolean reachedMax = false;
    for (Pod p : pods) {
      String uid = p.metadata().uid();
      if (!hasTrackingFinalizer(p) || sync.expectedRemovals().contains(uid)) {
        continue; // counted in an earlier sync
      }
      boolean failed = isPodFailed(p, spec);
      if (!canRemoveFinalizer(sync, p, failed)) {
        continue;
      }
      toRemove.add(p);
      PodPhase phase = p.status().phase();
      if (phase == PodPhase.Succeeded && !uncountedFailed.contains(uid)) {
        if (indexed) {
          // the completion index is enough not to count a succeeded pod twice
          int ix = JobReconciler.index(p, completions);
          if (ix >= 0 && !prevSucceeded.has(ix)) {
            newSucceededIndexes.add(ix);
          }
        } else if (!uncountedSucceeded.contains(uid)) {
          needsFlush = true;
          counts.uncountedSucceeded.add(uid);
        }
      } else if (failed || (finished != null && !finished.type().equals(JobCondition.SUCCESS_CRITERIA_MET))) {
        // a failed Job's unfinished pods count as failed; those a met success policy deletes do not
        int ix = JobReconciler.index(p, completions);
        if (!uncountedFailed.contains(uid) && (!indexed || ix >= 0)
            && PodFailurePolicies.match(spec.podFailurePolicy(), p).countFailed()) {
          needsFlush = true;
          counts.uncountedFailed.add(uid);
        }
      }
      if (newSucceededIndexes.size() + counts.uncountedSucceeded.size() + counts.uncountedFailed.size()
          >= MAX_UNCOUNTED_PODS) {
        // the status and pod updates bring the Job back for the rest
        reachedMax = true;
        break;
      }
    }
    List<JobCondition> conditions = new ArrayList<>(original.conditions());
    String completedIndexes = original.completedIndexes();
    String failedIndexes = original.failedIndexes();
    if (indexed && completions != null) {
      IndexIntervals succeeded = prevSucceeded.withOrderedIndexes(newSucceededIndexes);
      completedIndexes = succeeded.toString();
      if (!completedIndexes.equals(original.completedIndexes())) {
        needsFlush = true;
      }
      counts.succeeded = succeeded.total();
      IndexIntervals fi = sync.failedIndexes();
      String next = fi == null ? null : fi.toString();
      if (!Objects.equals(next, original.failedIndexes())) {
        needsFlush = true;
      }
      failedIndexes = next;
    }
    if (finished != null && finished.type().equals(JobCondition.FAILURE_TARGET)) {
      // the interim FailureTarget is written before the finalizers go; Failed follows once the pods are counted
      conditions.add(finished);
      needsFlush = true;
      finished = condition(JobCondition.FAILED, finished.reason(), finished.message(), now);
    }
    if (finished != null && finished.type().equals(JobCondition.SUCCESS_CRITERIA_MET)) {
      if (!original.isConditionTrue(JobCondition.SUCCESS_CRITERIA_MET)) {
        conditions.add(finished);
        needsFlush = true;
      }
      finished = condition(JobCondition.COMPLETE, finished.reason(), finished.message(), now);
    }
    Job current = job;
    Status status = new Status(original, conditions, completedIndexes, failedIndexes, counts);
    // upstream's flushUncountedAndRemoveFinalizers
    if (needsFlush) {
      current = writer.write(current.withStatus(status.build()));
      afterFlush.run();
      needsFlush = false;
    }
    RuntimeException removalError = null;
    if (!toRemove.isEmpty()) {
      Removal r = remover.remove(toRemove);
      withFinalizer.removeAll(r.removed());
      removalError = r.error();
    }
    if (counts.clean(withFinalizer)) {
      needsFlush = true;
    }
    if (removalError != null) {
      if (needsFlush) {
        writer.write(current.withStatus(status.build()));
      }
      throw removalError;
    }
    boolean jobFinished = !reachedMax && enactFinished(status, finished, sync.terminating());
    if (jobFinished) {
      needsFlush = true;
    }
    if (needsFlush) {
      current = writer.write(current.withStatus(status.build()));
    }
    return new Outcome(current, jobFinished);
  }

  /**
   * Upstream's {@code canRemoveFinalizer}: the Job is being deleted or finished, the pod succeeded, or it failed and
   * is not the failed pod of an index waiting for its replacement.
   */
  private static boolean canRemoveFinalizer(Sync sync, Pod pod, boolean failed) {
    if (sync.job().metadata().deletionTimestamp() != null || sync.finishedCondition() != null
        || pod.status().phase() == PodPhase.Succeeded) {
      return true;
    }
    if (!failed) {
      return false;
    }
    if (sync.job().spec().backoffLimitPerIndex() != null) {
      int ix = JobReconciler.index(pod, Integer.MAX_VALUE);
      Pod delayed = ix < 0 ? null : sync.delayedRemovals().get(ix);
      if (delayed != null && delayed.metadata().uid().equals(pod.metadata().uid())) {
        return false;
      }
    }
    return true;
  }

  /**
   * Upstream's {@code enactJobFinished}: adds the terminal condition once no pod is uncounted and none terminates;
   * a Complete Job gets its completion time.
   */
  private static boolean enactFinished(Status status, @Nullable JobCondition finished, int terminating) {
    if (finished == null || !status.counts.uncountedSucceeded.isEmpty() || !status.counts.uncountedFailed.isEmpty()
        || terminating > 0) {
      return false;
    }
    JobReconciler.setCondition(status.conditions, finished.type(), finished.status(), finished.reason(),
        finished.message(), finished.lastTransitionTime());
    if (finished.type().equals(JobCondition.COMPLETE)) {
      status.completionTime = finished.lastTransitionTime();
    }
    return true;
  }

  private static JobCondition condition(String type, String reason, String message, Instant now) {
    return new JobCondition(type, ConditionStatus.True, reason, message, now, now);
  }

  /** The counters and uncounted lists one tracking changes. */
  private static final class Counts {
    int succeeded;
    int failed;
    final List<String> uncountedSucceeded;
    final List<String> uncountedFailed;

    Counts(JobStatus s) {
      succeeded = s.succeeded();
      failed = s.failed();
      uncountedSucceeded = new ArrayList<>(s.uncountedTerminatedPods().succeeded());
      uncountedFailed = new ArrayList<>(s.uncountedTerminatedPods().failed());
    }

    /**
     * Upstream's {@code cleanUncountedPodsWithoutFinalizers}: the uncounted pods whose finalizer is gone (or that
     * are gone) move to the counters; whether any did.
     */
    boolean clean(Set<String> withFinalizer) {
      int s = uncountedSucceeded.size();
      int f = uncountedFailed.size();
      uncountedSucceeded.removeIf(uid -> !withFinalizer.contains(uid));
      uncountedFailed.removeIf(uid -> !withFinalizer.contains(uid));
      succeeded += s - uncountedSucceeded.size();
      failed += f - uncountedFailed.size();
      return s != uncountedSucceeded.size() || f != uncountedFailed.size();
    }
  }

  /** The status being built: the sync's status with the tracked counters, indexes and conditions. */
  private static final class Status {
    final JobStatus base;
    final List<JobCondition> conditions;
    final String completedIndexes;
    final @Nullable String failedIndexes;
    final Counts counts;
    @Nullable Instant completionTime;

    Status(JobStatus base, List<JobCondition> conditions, String completedIndexes, @Nullable String failedIndexes,
        Counts counts) {
      this.base = base;
      this.conditions = conditions;
      this.completedIndexes = completedIndexes;
      this.failedIndexes = failedIndexes;
      this.counts = counts;
      this.completionTime = base.completionTime();
    }

    JobStatus build() {
      return new JobStatus(base.active(), counts.succeeded, counts.failed, base.ready(), conditions,
          base.startTime(), completionTime, completedIndexes, base.terminating(), failedIndexes,
          new UncountedTerminatedPods(counts.uncountedSucceeded, counts.uncountedFailed));
    }
  }
}
