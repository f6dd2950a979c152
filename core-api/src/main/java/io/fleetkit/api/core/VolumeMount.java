package io.fleetkit.api.core;

import java.util.Objects;

/**
 * A container's mount of one of its pod's volumes (Kubernetes' {@code VolumeMount}). Checked as part of its pod: the
 * name must be one of the pod's volumes, the mount path is required and unique within the container, a sub-path is
 * relative without a {@code ..} element.
 *
 * @param name the pod volume mounted
 * @param readOnly whether the container sees the volume read-only
 * @param mountPath where, in the container, the volume appears
 * @param subPath the volume's sub-directory mounted instead of its root; empty for the root
 */
public record VolumeMount(String name, boolean readOnly, String mountPath, String subPath) {
  public VolumeMount {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(mountPath, "mountPath");
    subPath = subPath == null ? "" : subPath; // an encoding written without the component decodes as unset
  }

  /** A mount of the volume's root. */
  public static VolumeMount of(String name, String mountPath, boolean readOnly) {
    return new VolumeMount(name, readOnly, mountPath, "");
  }
}
