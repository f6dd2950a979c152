package io.fleetkit.api.core;

import io.fleetkit.api.resource.Quantity;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/** Where a pod volume's data comes from: exactly one of the kinds below (a small subset of Kubernetes'). */
public sealed interface VolumeSource {

  /** A persistent volume claim in the pod's namespace. */
  record PersistentVolumeClaim(String claimName, boolean readOnly) implements VolumeSource {
    public PersistentVolumeClaim {
      Objects.requireNonNull(claimName, "claimName");
    }
  }

  /** Scratch space that lives as long as the pod; {@code sizeLimit} is {@code null} when unbounded. */
  record EmptyDir(String medium, @Nullable Quantity sizeLimit) implements VolumeSource {
    public static final EmptyDir DEFAULT = new EmptyDir("", null);

    public EmptyDir {
      Objects.requireNonNull(medium, "medium");
    }
  }

  /** A path on the node. */
  record HostPath(String path) implements VolumeSource {
    public HostPath {
      Objects.requireNonNull(path, "path");
    }
  }

  /** A config map's data, by name. */
  record ConfigMap(String name) implements VolumeSource {
    public ConfigMap {
      Objects.requireNonNull(name, "name");
    }
  }

  /**
   * A generic ephemeral volume: a claim made from {@code volumeClaimTemplate} for each pod, named
   * {@code <pod name>-<volume name>}, in the pod's namespace and owned by the pod, so that it lives as long as the
   * pod (Kubernetes' {@code EphemeralVolumeSource}, GA in 1.23). The ephemeral volume controller creates the claim;
   * the scheduler waits for it.
   */
  record Ephemeral(PersistentVolumeClaimTemplate volumeClaimTemplate) implements VolumeSource {
    public Ephemeral {
      Objects.requireNonNull(volumeClaimTemplate, "volumeClaimTemplate");
    }

    /** The name of the claim made for the volume {@code volumeName} of the pod {@code podName}. */
    public static String claimName(String podName, String volumeName) {
      return podName + "-" + volumeName;
    }
  }

  /** A secret's data, by name. */
  record Secret(String secretName) implements VolumeSource {
    public Secret {
      Objects.requireNonNull(secretName, "secretName");
    }
  }
}
