package io.fleetkit.reconcile.rollouts;

import io.fleetkit.api.apps.ReplicaSet;
import io.fleetkit.api.rollouts.PodTemplateMetadata;

/** Test access to the internal injection, to set up ReplicaSets as the controller leaves them. */
final class EphemeralMetadataAccess {
  private EphemeralMetadataAccess() {}

  static ReplicaSet inject(ReplicaSet rs, PodTemplateMetadata m) {
    return io.fleetkit.reconcile.rollouts.internal.EphemeralMetadataTestHook.inject(rs, m);
  }
}
