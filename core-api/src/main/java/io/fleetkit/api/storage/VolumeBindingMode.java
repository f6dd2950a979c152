package io.fleetkit.api.storage;

/** When claims of a StorageClass are bound and provisioned, spelled as in Kubernetes. Defaults to Immediate. */
public enum VolumeBindingMode {
  /** As soon as the claim exists, without knowing where its pod will run. */
  Immediate,
  /** Once a pod using the claim is scheduled; the scheduler picks a volume (or a node to provision on). */
  WaitForFirstConsumer
}
