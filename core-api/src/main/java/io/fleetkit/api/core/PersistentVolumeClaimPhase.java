package io.fleetkit.api.core;

/** The life-cycle phase of a PersistentVolumeClaim, spelled as in Kubernetes. */
public enum PersistentVolumeClaimPhase {
  /** Not yet bound. */
  Pending,
  /** Bound to a volume. */
  Bound,
  /** Its volume is gone or bound elsewhere; data may be lost. */
  Lost
}
