package io.fleetkit.reconcile.rollouts.internal;

import io.fleetkit.api.apps.ReplicaSet;
import io.fleetkit.api.rollouts.PodTemplateMetadata;

/** Exposes {@link EphemeralMetadata#syncReplicaSet} to the controller tests of the parent package. */
public final class EphemeralMetadataTestHook {
  private EphemeralMetadataTestHook() {}

  public static ReplicaSet inject(ReplicaSet rs, PodTemplateMetadata m) {
    return EphemeralMetadata.syncReplicaSet(rs, m);
  }
}
