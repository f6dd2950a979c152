package io.fleetkit.api.apps;

import io.fleetkit.api.core.PodTemplateSpec;
import io.fleetkit.api.labels.LabelSelector;
import java.util.List;
import java.util.Objects;

/**
 * The desired part of a StatefulSet. Kubernetes' defaults (applied by {@link StatefulSet#builder()}): replicas 1,
 * OrderedReady, RollingUpdate with partition 0, revisionHistoryLimit 10, claims retained on deletion and on scale-down
 * ({@link StatefulSetPersistentVolumeClaimRetentionPolicy#RETAIN}), ordinals from 0
 * ({@link StatefulSetOrdinals#DEFAULT}).
 *
 * @param serviceName the governing headless service; may be empty
 * @param persistentVolumeClaimRetentionPolicy whether the claims of {@code volumeClaimTemplates} are deleted with the
 *     set or with a scaled-away pod
 * @param ordinals the first pod ordinal; the pods are {@code <name>-<start>..<name>-<start+replicas-1>}
 */
public record StatefulSetSpec(int replicas, LabelSelector selector, PodTemplateSpec template, String serviceName,
    List<ClaimTemplate> volumeClaimTemplates, PodManagementPolicy podManagementPolicy,
    StatefulSetUpdateStrategy updateStrategy, int revisionHistoryLimit, int minReadySeconds,
    StatefulSetPersistentVolumeClaimRetentionPolicy persistentVolumeClaimRetentionPolicy,
    StatefulSetOrdinals ordinals) {
  public StatefulSetSpec {
    Objects.requireNonNull(selector, "selector");
    Objects.requireNonNull(template, "template");
    Objects.requireNonNull(serviceName, "serviceName");
    volumeClaimTemplates = List.copyOf(volumeClaimTemplates);
    Objects.requireNonNull(podManagementPolicy, "podManagementPolicy");
    Objects.requireNonNull(updateStrategy, "updateStrategy");
    Objects.requireNonNull(persistentVolumeClaimRetentionPolicy, "persistentVolumeClaimRetentionPolicy");
    Objects.requireNonNull(ordinals, "ordinals");
  }

  public StatefulSetSpec withReplicas(int n) {
    return new StatefulSetSpec(n, selector, template, serviceName, volumeClaimTemplates, podManagementPolicy,
        updateStrategy, revisionHistoryLimit, minReadySeconds, persistentVolumeClaimRetentionPolicy, ordinals);
  }

  public StatefulSetSpec withTemplate(PodTemplateSpec t) {
    return new StatefulSetSpec(replicas, selector, t, serviceName, volumeClaimTemplates, podManagementPolicy,
        updateStrategy, revisionHistoryLimit, minReadySeconds, persistentVolumeClaimRetentionPolicy, ordinals);
  }

  public StatefulSetSpec withPodManagementPolicy(PodManagementPolicy p) {
    return new StatefulSetSpec(replicas, selector, template, serviceName, volumeClaimTemplates, p,
        updateStrategy, revisionHistoryLimit, minReadySeconds, persistentVolumeClaimRetentionPolicy, ordinals);
  }

  public StatefulSetSpec withUpdateStrategy(StatefulSetUpdateStrategy s) {
    return new StatefulSetSpec(replicas, selector, template, serviceName, volumeClaimTemplates, podManagementPolicy,
        s, revisionHistoryLimit, minReadySeconds, persistentVolumeClaimRetentionPolicy, ordinals);
  }

  public StatefulSetSpec withPersistentVolumeClaimRetentionPolicy(StatefulSetPersistentVolumeClaimRetentionPolicy p) {
    return new StatefulSetSpec(replicas, selector, template, serviceName, volumeClaimTemplates, podManagementPolicy,
        updateStrategy, revisionHistoryLimit, minReadySeconds, p, ordinals);
  }

  public StatefulSetSpec withOrdinals(StatefulSetOrdinals o) {
    return new StatefulSetSpec(replicas, selector, template, serviceName, volumeClaimTemplates, podManagementPolicy,
        updateStrategy, revisionHistoryLimit, minReadySeconds, persistentVolumeClaimRetentionPolicy, o);
  }

  /** Upstream's {@code getStartOrdinal}: {@code ordinals.start}. */
  public int startOrdinal() {
    return ordinals.start();
  }

  /** Upstream's {@code getEndOrdinal}: the last ordinal in range (inclusive), {@code start + replicas - 1}. */
  public long endOrdinal() {
    return (long) ordinals.start() + replicas - 1;
  }

  /** Upstream's {@code podInOrdinalRange} for an ordinal: {@code start <= ordinal <= start + replicas - 1}. */
  public boolean inOrdinalRange(int ordinal) {
    return ordinal >= startOrdinal() && ordinal <= endOrdinal();
  }
}
