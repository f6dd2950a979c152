package io.fleetkit.api.core;

/** Whether a volume is consumed as a file system or a raw block device. Defaults to Filesystem. */
public enum PersistentVolumeMode {
  Filesystem,
  Block
}
