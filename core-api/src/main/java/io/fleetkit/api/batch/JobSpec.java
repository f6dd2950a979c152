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
 */
public record JobSpec(int parallelism, @Nullable Integer completions, CompletionMode completionMode,
    int backoffLimit, @Nullable Long activeDeadlineSeconds, @Nullable Integer ttlSecondsAfterFinished,
    boolean suspend, @Nullable LabelSelector selector, PodTemplateSpec template,
    @Nullable PodFailurePolicy podFailurePolicy, @Nullable PodReplacementPolicy podReplacementPolicy) {
  public static final int DEFAULT_BACKOFF_LIMIT = 6;

  public JobSpec {
    Objects.requireNonNull(completionMode, "completionMode");
    Objects.requireNonNull(template, "template");
  }

  /** A spec without a pod failure policy and with the default pod replacement policy. */
  public JobSpec(int parallelism, @Nullable Integer completions, CompletionMode completionMode, int backoffLimit,
      @Nullable Long activeDeadlineSeconds, @Nullable Integer ttlSecondsAfterFinished, boolean suspend,
      @Nullable LabelSelector selector, PodTemplateSpec template) {
    this(parallelism, completions, completionMode, backoffLimit, activeDeadlineSeconds, ttlSecondsAfterFinished,
        suspend, selector, template, null, null);
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
        ttlSecondsAfterFinished, v, selector, template, podFailurePolicy, podReplacementPolicy);
  }

  public JobSpec withParallelism(int v) {
    return new JobSpec(v, completions, completionMode, backoffLimit, activeDeadlineSeconds,
        ttlSecondsAfterFinished, suspend, selector, template, podFailurePolicy, podReplacementPolicy);
  }

  public JobSpec withCompletions(@Nullable Integer v) {
    return new JobSpec(parallelism, v, completionMode, backoffLimit, activeDeadlineSeconds,
        ttlSecondsAfterFinished, suspend, selector, template, podFailurePolicy, podReplacementPolicy);
  }

  public JobSpec withSelector(@Nullable LabelSelector v) {
    return new JobSpec(parallelism, completions, completionMode, backoffLimit, activeDeadlineSeconds,
        ttlSecondsAfterFinished, suspend, v, template, podFailurePolicy, podReplacementPolicy);
  }

  public JobSpec withTemplate(PodTemplateSpec v) {
    return new JobSpec(parallelism, completions, completionMode, backoffLimit, activeDeadlineSeconds,
        ttlSecondsAfterFinished, suspend, selector, v, podFailurePolicy, podReplacementPolicy);
  }

  public JobSpec withPodFailurePolicy(@Nullable PodFailurePolicy v) {
    return new JobSpec(parallelism, completions, completionMode, backoffLimit, activeDeadlineSeconds,
        ttlSecondsAfterFinished, suspend, selector, template, v, podReplacementPolicy);
  }

  public JobSpec withPodReplacementPolicy(@Nullable PodReplacementPolicy v) {
    return new JobSpec(parallelism, completions, completionMode, backoffLimit, activeDeadlineSeconds,
        ttlSecondsAfterFinished, suspend, selector, template, podFailurePolicy, v);
  }
}
