package io.fleetkit.api.rollouts;

import io.fleetkit.api.core.PodTemplateSpec;
import io.fleetkit.api.labels.LabelSelector;
import java.util.Objects;

/**
 * The desired part of a {@link Rollout}: like a Deployment's, with a canary or blue-green strategy.
 *
 * @param progressDeadlineSeconds an update that makes no progress this long is Degraded (default 600)
 * @param progressDeadlineAbort also abort an update that missed its deadline (automatic rollback)
 * @param paused a manual pause: no step advances while set
 */
public record RolloutSpec(int replicas, LabelSelector selector, PodTemplateSpec template, RolloutStrategy strategy,
    int minReadySeconds, int revisionHistoryLimit, int progressDeadlineSeconds, boolean progressDeadlineAbort,
    boolean paused) {
  public static final int DEFAULT_PROGRESS_DEADLINE_SECONDS = 600;
  public static final int DEFAULT_REVISION_HISTORY_LIMIT = 10;

  public RolloutSpec {
    Objects.requireNonNull(selector, "selector");
    Objects.requireNonNull(template, "template");
    Objects.requireNonNull(strategy, "strategy");
  }

  public RolloutSpec withTemplate(PodTemplateSpec t) {
    return new RolloutSpec(replicas, selector, t, strategy, minReadySeconds, revisionHistoryLimit,
        progressDeadlineSeconds, progressDeadlineAbort, paused);
  }

  public RolloutSpec withPaused(boolean p) {
    return new RolloutSpec(replicas, selector, template, strategy, minReadySeconds, revisionHistoryLimit,
        progressDeadlineSeconds, progressDeadlineAbort, p);
  }

  public RolloutSpec withReplicas(int n) {
    return new RolloutSpec(n, selector, template, strategy, minReadySeconds, revisionHistoryLimit,
        progressDeadlineSeconds, progressDeadlineAbort, paused);
  }
}
