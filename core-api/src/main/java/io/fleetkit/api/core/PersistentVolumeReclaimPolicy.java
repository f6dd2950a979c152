package io.fleetkit.api.core;

/**
 * What happens to a volume once its claim is deleted, spelled as in Kubernetes. PersistentVolumes default to
 * Retain, StorageClasses (and so dynamically provisioned volumes) to Delete.
 */
public enum PersistentVolumeReclaimPolicy {
  /** The volume stays Released until an administrator cleans it up. */
  Retain,
  /** The backing storage and the PersistentVolume are deleted. */
  Delete,
  /**
   * Deprecated upstream (scrub and reuse). Kept so that manifests parse, but rejected by validation: use Retain,
   * or Delete with dynamic provisioning.
   */
  Recycle
}
