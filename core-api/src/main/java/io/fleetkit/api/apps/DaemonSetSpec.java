package io.fleetkit.api.apps;

import io.fleetkit.api.core.PodTemplateSpec;
import io.fleetkit.api.labels.LabelSelector;
import java.util.Objects;

/**
 * The desired part of a DaemonSet. Kubernetes' defaults (applied by {@link DaemonSet#builder()}): RollingUpdate with
 * maxUnavailable 1 and maxSurge 0, revisionHistoryLimit 10, minReadySeconds 0.
 */
public record DaemonSetSpec(LabelSelector selector, PodTemplateSpec template, DaemonSetUpdateStrategy updateStrategy,
    int minReadySeconds, int revisionHistoryLimit) {
  public static final int DEFAULT_REVISION_HISTORY_LIMIT = 10;

  public DaemonSetSpec {
    Objects.requireNonNull(selector, "selector");
    Objects.requireNonNull(template, "template");
    Objects.requireNonNull(updateStrategy, "updateStrategy");
  }

  public DaemonSetSpec withTemplate(PodTemplateSpec newTemplate) {
    return new DaemonSetSpec(selector, newTemplate, updateStrategy, minReadySeconds, revisionHistoryLimit);
  }

  public DaemonSetSpec withUpdateStrategy(DaemonSetUpdateStrategy newStrategy) {
    return new DaemonSetSpec(selector, template, newStrategy, minReadySeconds, revisionHistoryLimit);
  }
}
