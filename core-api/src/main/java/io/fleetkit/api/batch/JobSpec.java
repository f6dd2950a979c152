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
 */
public record JobSpec(int parallelism, @Nullable Integer completions, CompletionMode completionMode,
    int backoffLimit, @Nullable Long activeDeadlineSeconds, @Nullable Integer ttlSecondsAfterFinished,
    boolean suspend, @Nullable LabelSelector selector, PodTemplateSpec template) {
  public static final int DEFAULT_BACKOFF_LIMIT = 6;

  public JobSpec {
    Objects.requireNonNull(completionMode, "completionMode");
    Objects.requireNonNull(template, "template");
  }

  public JobSpec withSuspend(boolean v) {
    return new JobSpec(parallelism, completions, completionMode, backoffLimit, activeDeadlineSeconds,
        ttlSecondsAfterFinished, v, selector, template);
  }

  public JobSpec withParallelism(int v) {
    return new JobSpec(v, completions, completionMode, backoffLimit, activeDeadlineSeconds,
        ttlSecondsAfterFinished, suspend, selector, template);
  }
}
