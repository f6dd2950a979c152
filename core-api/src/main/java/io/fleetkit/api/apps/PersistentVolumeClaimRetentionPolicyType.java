package io.fleetkit.api.apps;

/**
 * What happens to the claims a StatefulSet made from its {@code volumeClaimTemplates} (apps/v1
 * {@code PersistentVolumeClaimRetentionPolicyType}).
 */
public enum PersistentVolumeClaimRetentionPolicyType {
  /** The claims outlive the set or the scaled-away pod; the default. */
  Retain,
  /** The claims are deleted with the set, or with the pod whose ordinal was scaled away. */
  Delete
}
