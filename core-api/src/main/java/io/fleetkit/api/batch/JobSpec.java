package io.fleetkit.api.batch;

import io.fleetkit.api.core.PodTemplateSpec;
import io.fleetkit.api.labels.LabelSelector;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The desired part of a Job. Kubernetes' defaults (applied by {@link Job#builder()}): parallelism 1, completions 1
 * when neither is set, NonIndexed, backoffLimit 6, not suspended.
 *
 * @param completions {@code null}: done when any pod succeeds and all have terminated (work-queue jobs)
 * @param activeDeadlineSeconds {@code null} when unbounded
 * @param ttlSecondsAfterFinished {@code null}: never cleaned up automatically
 * @param selector the pods that are the Job's (the controller adopts matching orphans and releases pods that stop
 *     matching); {@code null}: the selector Kubernetes generates, {@code batch.kubernetes.io/controller-uid=<uid>},
 *     the label the Job controller puts on every pod it creates
 * @param podFailurePolicy how failed pods count; {@code null}: every failure counts towards {@code backoffLimit}
 * @param podReplacementPolicy when pods are replaced; {@code null}: Kubernetes' default,
 *     {@link #effectivePodReplacementPolicy()}
 * @param backoffLimitPerIndex Indexed Jobs only: the failures (counted as {@code podFailurePolicy} says) each index
 *     may have before the index fails, counted on the pods' {@code batch.kubernetes.io/job-index-failure-count}
 *     annotation; a failed index is not retried and the other indexes go on; {@code null}: failures count
 *     towards {@code backoffLimit} only
 * @param maxFailedIndexes with {@code backoffLimitPerIndex}: the Job fails (reason {@value
 *     JobCondition#REASON_MAX_FAILED_INDEXES_EXCEEDED}) when more indexes than this failed; {@code null}: the Job
 *     runs every index and fails (reason {@value JobCondition#REASON_FAILED_INDEXES}) at the end if one failed
 * @param successPolicy Indexed Jobs only: when the Job succeeds before all its indexes have; {@code null}: when
 *     {@code completions} indexes succeeded
 * @param managedBy the controller that syncs the Job, a domain-prefixed path of at most 63 characters, immutable;
 *     {@code null} or {@value #JOB_CONTROLLER_NAME}: FleetKit's Job controller; any other value: an external
 *     controller (such as Kueue's MultiKueue, {@code kueue.x-k8s.io/multikueue}), and FleetKit's Job controller
 *     leaves the Job alone
 */
public record JobSpec(int parallelism, @Nullable Integer completions, CompletionMode completionMode,
    int backoffLimit, @Nullable Long activeDeadlineSeconds, @Nullable Integer ttlSecondsAfterFinished,
    boolean suspend, @Nullable LabelSelector selector, PodTemplateSpec template,
    @Nullable PodFailurePolicy podFailurePolicy, @Nullable PodReplacementPolicy podReplacementPolicy,
    @Nullable Integer backoffLimitPerIndex, @Nullable Integer maxFailedIndexes,
    @Nullable SuccessPolicy successPolicy, @Nullable String managedBy) {
  public static final int DEFAULT_BACKOFF_LIMIT = 6;
  /** Upstream's {@code JobControllerName}: the {@code managedBy} value meaning Kubernetes' own Job controller. */
  public static final String JOB_CONTROLLER_NAME = "kubernetes.io/job-controller";
  /** Upstream's {@code maxManagedByLength}. */
  public static final int MAX_MANAGED_BY_LENGTH = 63;
  /**
   * {@code backoffLimit}'s default when {@code backoffLimitPerIndex} is set (Kubernetes' {@code math.MaxInt32}): the
   * per-index limit decides.
   */
  public static final int DEFAULT_BACKOFF_LIMIT_PER_INDEX_JOB = Integer.MAX_VALUE;

  public JobSpec {
    Objects.requireNonNull(completionMode, "completionMode");
    Objects.requireNonNull(template, "template");
  }

  /** A spec synced by FleetKit's own Job controller ({@code managedBy} unset). */
  public JobSpec(int parallelism, @Nullable Integer completions, CompletionMode completionMode, int backoffLimit,
      @Nullable Long activeDeadlineSeconds, @Nullable Integer ttlSecondsAfterFinished, boolean suspend,
      @Nullable LabelSelector selector, PodTemplateSpec template, @Nullable PodFailurePolicy podFailurePolicy,
      @Nullable PodReplacementPolicy podReplacementPolicy, @Nullable Integer backoffLimitPerIndex,
      @Nullable Integer maxFailedIndexes, @Nullable SuccessPolicy successPolicy) {
    this(parallelism, completions, completionMode, backoffLimit, activeDeadlineSeconds, ttlSecondsAfterFinished,
        suspend, selector, template, podFailurePolicy, podReplacementPolicy, backoffLimitPerIndex, maxFailedIndexes,
        successPolicy, null);
  }

  /** A spec without per-index backoff and without a success policy. */
  public JobSpec(int parallelism, @Nullable Integer completions, CompletionMode completionMode, int backoffLimit,
      @Nullable Long activeDeadlineSeconds, @Nullable Integer ttlSecondsAfterFinished, boolean suspend,
      @Nullable LabelSelector selector, PodTemplateSpec template, @Nullable PodFailurePolicy podFailurePolicy,
      @Nullable PodReplacementPolicy podReplacementPolicy) {
    this(parallelism, completions, completionMode, backoffLimit, activeDeadlineSeconds, ttlSecondsAfterFinished,
        suspend, selector, template, podFailurePolicy, podReplacementPolicy, null, null, null, null);
  }

  /** A spec without a pod failure policy and with the default pod replacement policy. */
  public JobSpec(int parallelism, @Nullable Integer completions, CompletionMode completionMode, int backoffLimit,
      @Nullable Long activeDeadlineSeconds, @Nullable Integer ttlSecondsAfterFinished, boolean suspend,
      @Nullable LabelSelector selector, PodTemplateSpec template) {
    this(parallelism, completions, completionMode, backoffLimit, activeDeadlineSeconds, ttlSecondsAfterFinished,
        suspend, selector, template, null, null, null, null, null, null);
  }

  /**
   * {@code podReplacementPolicy}, or Kubernetes' default when unset: {@code Failed} with a pod failure policy,
   * else {@code TerminatingOrFailed}.
   */
  public PodReplacementPolicy effectivePodReplacementPolicy() {
    if (podReplacementPolicy != null) {
      return podReplacementPolicy;
    }
    return podFailurePolicy != null ? PodReplacementPolicy.Failed : PodReplacementPolicy.TerminatingOrFailed;
  }

  public JobSpec withSuspend(boolean v) {
    return new JobSpec(parallelism, completions, completionMode, backoffLimit, activeDeadlineSeconds,
        ttlSecondsAfterFinished, v, selector, template, podFailurePolicy, podReplacementPolicy,
        backoffLimitPerIndex, maxFailedIndexes, successPolicy, managedBy);
  }

  public JobSpec withParallelism(int v) {
    return new JobSpec(v, completions, completionMode, backoffLimit, activeDeadlineSeconds,
        ttlSecondsAfterFinished, suspend, selector, template, podFailurePolicy, podReplacementPolicy,
        backoffLimitPerIndex, maxFailedIndexes, successPolicy, managedBy);
  }

  public JobSpec withCompletions(@Nullable Integer v) {
    return new JobSpec(parallelism, v, completionMode, backoffLimit, activeDeadlineSeconds,
        ttlSecondsAfterFinished, suspend, selector, template, podFailurePolicy, podReplacementPolicy,
        backoffLimitPerIndex, maxFailedIndexes, successPolicy, managedBy);
  }

  public JobSpec withSelector(@Nullable LabelSelector v) {
    return new JobSpec(parallelism, completions, completionMode, backoffLimit, activeDeadlineSeconds,
        ttlSecondsAfterFinished, suspend, v, template, podFailurePolicy, podReplacementPolicy,
        backoffLimitPerIndex, maxFailedIndexes, successPolicy, managedBy);
  }

  public JobSpec withTemplate(PodTemplateSpec v) {
    return new JobSpec(parallelism, completions, completionMode, backoffLimit, activeDeadlineSeconds,
        ttlSecondsAfterFinished, suspend, selector, v, podFailurePolicy, podReplacementPolicy,
        backoffLimitPerIndex, maxFailedIndexes, successPolicy, managedBy);
  }

  public JobSpec withPodFailurePolicy(@Nullable PodFailurePolicy v) {
    return new JobSpec(parallelism, completions, completionMode, backoffLimit, activeDeadlineSeconds,
        ttlSecondsAfterFinished, suspend, selector, template, v, podReplacementPolicy,
        backoffLimitPerIndex, maxFailedIndexes, successPolicy, managedBy);
  }

  public JobSpec withPodReplacementPolicy(@Nullable PodReplacementPolicy v) {
    return new JobSpec(parallelism, completions, completionMode, backoffLimit, activeDeadlineSeconds,
        ttlSecondsAfterFinished, suspend, selector, template, podFailurePolicy, v,
        backoffLimitPerIndex, maxFailedIndexes, successPolicy, managedBy);
  }

  public JobSpec withBackoffLimitPerIndex(@Nullable Integer v) {
    return new JobSpec(parallelism, completions, completionMode, backoffLimit, activeDeadlineSeconds,
        ttlSecondsAfterFinished, suspend, selector, template, podFailurePolicy, podReplacementPolicy, v,
        maxFailedIndexes, successPolicy, managedBy);
  }

  public JobSpec withMaxFailedIndexes(@Nullable Integer v) {
    return new JobSpec(parallelism, completions, completionMode, backoffLimit, activeDeadlineSeconds,
        ttlSecondsAfterFinished, suspend, selector, template, podFailurePolicy, podReplacementPolicy,
        backoffLimitPerIndex, v, successPolicy, managedBy);
  }

  public JobSpec withSuccessPolicy(@Nullable SuccessPolicy v) {
    return new JobSpec(parallelism, completions, completionMode, backoffLimit, activeDeadlineSeconds,
        ttlSecondsAfterFinished, suspend, selector, template, podFailurePolicy, podReplacementPolicy,
        backoffLimitPerIndex, maxFailedIndexes, v, managedBy);
  }

  public JobSpec withManagedBy(@Nullable String v) {
    return new JobSpec(parallelism, completions, completionMode, backoffLimit, activeDeadlineSeconds,
        ttlSecondsAfterFinished, suspend, selector, template, podFailurePolicy, podReplacementPolicy,
        backoffLimitPerIndex, maxFailedIndexes, successPolicy, v);
  }

  /**
   * Whether a controller other than Kubernetes' Job controller syncs this Job (upstream's
   * {@code managedByExternalController}).
   */
  public boolean managedByExternalController() {
    return managedBy != null && !managedBy.equals(JOB_CONTROLLER_NAME);
  }
}
