package io.fleetkit.api.apps;

import java.util.Objects;

/**
 * A StatefulSet's {@code spec.persistentVolumeClaimRetentionPolicy} (apps/v1, GA in Kubernetes 1.32): whether the
 * claims made from its {@code volumeClaimTemplates} are deleted when the set is deleted ({@code whenDeleted}) and when
 * the pod of an ordinal is scaled away ({@code whenScaled}). The controller expresses {@code Delete} as owner
 * references (the set, or the condemned pod, as the claim's controller), which the garbage collector follows; a
 * claim is never deleted by the controller itself. Both default to
 * {@link PersistentVolumeClaimRetentionPolicyType#Retain}.
 */
public record StatefulSetPersistentVolumeClaimRetentionPolicy(PersistentVolumeClaimRetentionPolicyType whenDeleted,
    PersistentVolumeClaimRetentionPolicyType whenScaled) {
  /** Retain on both: Kubernetes' default ({@code SetDefaults_StatefulSet}). */
  public static final StatefulSetPersistentVolumeClaimRetentionPolicy RETAIN =
      new StatefulSetPersistentVolumeClaimRetentionPolicy(PersistentVolumeClaimRetentionPolicyType.Retain,
          PersistentVolumeClaimRetentionPolicyType.Retain);

  public StatefulSetPersistentVolumeClaimRetentionPolicy {
    Objects.requireNonNull(whenDeleted, "whenDeleted");
    Objects.requireNonNull(whenScaled, "whenScaled");
  }

  /** The policy with these two values. */
  public static StatefulSetPersistentVolumeClaimRetentionPolicy of(PersistentVolumeClaimRetentionPolicyType whenDeleted,
      PersistentVolumeClaimRetentionPolicyType whenScaled) {
    return new StatefulSetPersistentVolumeClaimRetentionPolicy(whenDeleted, whenScaled);
  }

  /** Whether both are Retain: the controller then leaves the owner references of the claims alone. */
  public boolean retainsAll() {
    return whenDeleted == PersistentVolumeClaimRetentionPolicyType.Retain
        && whenScaled == PersistentVolumeClaimRetentionPolicyType.Retain;
  }
}
