package io.fleetkit.api.batch;

import io.fleetkit.api.meta.ConditionStatus;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The observed part of a Job.
 *
 * @param ready pods that are ready, or {@code null} when not tracked
 * @param completedIndexes for Indexed jobs, the succeeded indexes in Kubernetes' interval form ({@code "1,3-5,7"});
 *     empty when none
 * @param terminating pods being deleted that are not terminal yet, or {@code null} when not tracked
 * @param failedIndexes for Indexed jobs with {@code backoffLimitPerIndex}, the failed indexes in the interval form of
 *     {@code completedIndexes} ({@code ""} when none); {@code null} for other Jobs
 * @param uncountedTerminatedPods finished pods the controller has seen but not yet added to {@code succeeded} or
 *     {@code failed} (their tracking finalizer is being removed)
 */
public record JobStatus(int active, int succeeded, int failed, @Nullable Integer ready, List<JobCondition> conditions,
    @Nullable Instant startTime, @Nullable Instant completionTime, String completedIndexes,
    @Nullable Integer terminating, @Nullable String failedIndexes, UncountedTerminatedPods uncountedTerminatedPods) {
  public static final JobStatus EMPTY = new JobStatus(0, 0, 0, null, List.of(), null, null, "", null, null);

  public JobStatus {
    conditions = List.copyOf(conditions);
    Objects.requireNonNull(completedIndexes, "completedIndexes");
    Objects.requireNonNull(uncountedTerminatedPods, "uncountedTerminatedPods");
  }

  /** A status without uncounted pods. */
  public JobStatus(int active, int succeeded, int failed, @Nullable Integer ready, List<JobCondition> conditions,
      @Nullable Instant startTime, @Nullable Instant completionTime, String completedIndexes,
      @Nullable Integer terminating, @Nullable String failedIndexes) {
    this(active, succeeded, failed, ready, conditions, startTime, completionTime, completedIndexes, terminating,
        failedIndexes, UncountedTerminatedPods.EMPTY);
  }

  /** A status without failed indexes. */
  public JobStatus(int active, int succeeded, int failed, @Nullable Integer ready, List<JobCondition> conditions,
      @Nullable Instant startTime, @Nullable Instant completionTime, String completedIndexes,
      @Nullable Integer terminating) {
    this(active, succeeded, failed, ready, conditions, startTime, completionTime, completedIndexes, terminating,
        null);
  }

  /** A status without a terminating count. */
  public JobStatus(int active, int succeeded, int failed, @Nullable Integer ready, List<JobCondition> conditions,
      @Nullable Instant startTime, @Nullable Instant completionTime, String completedIndexes) {
    this(active, succeeded, failed, ready, conditions, startTime, completionTime, completedIndexes, null, null);
  }

  /** This status with {@code conditions} (every other field kept). */
  public JobStatus withConditions(List<JobCondition> v) {
    return new JobStatus(active, succeeded, failed, ready, v, startTime, completionTime, completedIndexes,
        terminating, failedIndexes, uncountedTerminatedPods);
  }

  /** This status with {@code startTime} (every other field kept). */
  public JobStatus withStartTime(@Nullable Instant v) {
    return new JobStatus(active, succeeded, failed, ready, conditions, v, completionTime, completedIndexes,
        terminating, failedIndexes, uncountedTerminatedPods);
  }

  /** This status with {@code failedIndexes} (every other field kept). */
  public JobStatus withFailedIndexes(@Nullable String v) {
    return new JobStatus(active, succeeded, failed, ready, conditions, startTime, completionTime, completedIndexes,
        terminating, v, uncountedTerminatedPods);
  }

  /** This status with {@code uncountedTerminatedPods} (every other field kept). */
  public JobStatus withUncountedTerminatedPods(UncountedTerminatedPods v) {
    return new JobStatus(active, succeeded, failed, ready, conditions, startTime, completionTime, completedIndexes,
        terminating, failedIndexes, v);
  }

  /** The condition of that type, or {@code null}. */
  public @Nullable JobCondition condition(String type) {
    for (JobCondition c : conditions) {
      if (c.type().equals(type)) {
        return c;
      }
    }
    return null;
  }

  /**
   * The condition of that type when its status is {@code True}, else {@code null} (also when the condition is
   * {@code False} or {@code Unknown}). Like {@link #condition}, the first condition of that type counts (upstream's
   * {@code findConditionByType} in the Job controller).
   */
  public @Nullable JobCondition trueCondition(String type) {
    JobCondition c = condition(type);
    return c != null && c.status() == ConditionStatus.True ? c : null;
  }

  /** Whether the Job has a condition of that type with status {@code True} (upstream's {@code isConditionTrue}). */
  public boolean isConditionTrue(String type) {
    return trueCondition(type) != null;
  }

  /**
   * The first {@code Complete} or {@code Failed} condition that is {@code True}, or {@code null} while the Job runs
   * (upstream's {@code FinishedCondition}).
   */
  public @Nullable JobCondition finishedCondition() {
    for (JobCondition c : conditions) {
      if ((c.type().equals(JobCondition.COMPLETE) || c.type().equals(JobCondition.FAILED))
          && c.status() == ConditionStatus.True) {
        return c;
      }
    }
    return null;
  }

  /** Whether the Job has a {@code Complete=True} or {@code Failed=True} condition. */
  public boolean isFinished() {
    return finishedCondition() != null;
  }
}
