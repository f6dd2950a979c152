package io.fleetkit.api.core;

import java.util.Map;
import java.util.Objects;

/**
 * Where a PersistentVolume's data lives. FleetKit mounts nothing, so only the few sources that matter for placement
 * are modelled: CSI, host path and local (the last one needs node affinity).
 */
public sealed interface PersistentVolumeSource
    permits PersistentVolumeSource.Csi, PersistentVolumeSource.HostPath, PersistentVolumeSource.Local {

  /** A volume served by a CSI driver. {@code fsType} is empty when unset. */
  record Csi(String driver, String volumeHandle, String fsType, boolean readOnly,
      Map<String, String> volumeAttributes) implements PersistentVolumeSource {
    public Csi {
      Objects.requireNonNull(driver, "driver");
      Objects.requireNonNull(volumeHandle, "volumeHandle");
      Objects.requireNonNull(fsType, "fsType");
      volumeAttributes = Map.copyOf(volumeAttributes);
    }

    public static Csi of(String driver, String volumeHandle) {
      return new Csi(driver, volumeHandle, "", false, Map.of());
    }
  }

  /** A directory on the node ({@code hostPath}); {@code type} is empty when unset, e.g. {@code DirectoryOrCreate}. */
  record HostPath(String path, String type) implements PersistentVolumeSource {
    public HostPath {
      Objects.requireNonNull(path, "path");
      Objects.requireNonNull(type, "type");
    }

    public static HostPath of(String path) {
      return new HostPath(path, "");
    }
  }

  /** A local disk or directory ({@code local}); {@code fsType} is empty when unset. */
  record Local(String path, String fsType) implements PersistentVolumeSource {
    public Local {
      Objects.requireNonNull(path, "path");
      Objects.requireNonNull(fsType, "fsType");
    }

    public static Local of(String path) {
      return new Local(path, "");
    }
  }
}
