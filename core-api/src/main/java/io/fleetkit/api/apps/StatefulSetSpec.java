package io.fleetkit.api.apps;

import io.fleetkit.api.core.PodTemplateSpec;
import io.fleetkit.api.labels.LabelSelector;
import java.util.List;
import java.util.Objects;

/**
 * The desired part of a StatefulSet. Kubernetes' defaults (applied by {@link StatefulSet#builder()}): replicas 1,
 * OrderedReady, RollingUpdate with partition 0, revisionHistoryLimit 10.
 *
 * @param serviceName the governing headless service; may be empty
 */
public record StatefulSetSpec(int replicas, LabelSelector selector, PodTemplateSpec template, String serviceName,
    List<ClaimTemplate> volumeClaimTemplates, PodManagementPolicy podManagementPolicy,
    StatefulSetUpdateStrategy updateStrategy, int revisionHistoryLimit, int minReadySeconds) {
  public StatefulSetSpec {
    Objects.requireNonNull(selector, "selector");
    Objects.requireNonNull(template, "template");
    Objects.requireNonNull(serviceName, "serviceName");
    volumeClaimTemplates = List.copyOf(volumeClaimTemplates);
    Objects.requireNonNull(podManagementPolicy, "podManagementPolicy");
    Objects.requireNonNull(updateStrategy, "updateStrategy");
  }

  public StatefulSetSpec withReplicas(int n) {
    return new StatefulSetSpec(n, selector, template, serviceName, volumeClaimTemplates, podManagementPolicy,
        updateStrategy, revisionHistoryLimit, minReadySeconds);
  }
}
