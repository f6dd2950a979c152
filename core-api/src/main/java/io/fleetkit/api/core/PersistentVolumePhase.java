package io.fleetkit.api.core;

/** The life-cycle phase of a PersistentVolume, spelled as in Kubernetes. */
public enum PersistentVolumePhase {
  /** Not yet available (rare). */
  Pending,
  /** Free and not bound to a claim. */
  Available,
  /** Bound to a claim. */
  Bound,
  /** Its claim was deleted; not yet reclaimed. */
  Released,
  /** Automatic reclamation failed. */
  Failed
}
