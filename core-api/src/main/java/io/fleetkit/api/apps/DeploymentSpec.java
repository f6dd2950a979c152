package io.fleetkit.api.apps;

import io.fleetkit.api.core.PodTemplateSpec;
import io.fleetkit.api.labels.LabelSelector;
import java.util.Objects;

/**
 * The desired part of a deployment. Kubernetes' defaults (applied by {@link Deployment#builder()}): replicas 1,
 * RollingUpdate 25%/25%, revisionHistoryLimit 10, progressDeadlineSeconds 600.
 */
public record DeploymentSpec(int replicas, LabelSelector selector, PodTemplateSpec template,
    DeploymentStrategy strategy, int minReadySeconds, int revisionHistoryLimit, int progressDeadlineSeconds,
    boolean paused) {
  public static final int DEFAULT_REVISION_HISTORY_LIMIT = 10;
  public static final int DEFAULT_PROGRESS_DEADLINE_SECONDS = 600;

  public DeploymentSpec {
    Objects.requireNonNull(selector, "selector");
    Objects.requireNonNull(template, "template");
    Objects.requireNonNull(strategy, "strategy");
  }

  public DeploymentSpec withReplicas(int n) {
    return new DeploymentSpec(n, selector, template, strategy, minReadySeconds, revisionHistoryLimit,
        progressDeadlineSeconds, paused);
  }
}
