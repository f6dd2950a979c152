package io.fleetkit.api.core;

import io.fleetkit.api.resource.Quantity;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One file of a downward API volume or projection: a field of the pod, or a resource of one of its containers,
 * written at {@code path} (Kubernetes' {@code DownwardAPIVolumeFile}). Exactly one of {@code fieldRef} and
 * {@code resourceFieldRef} is set in a valid pod; the pod's validation says so.
 *
 * @param path the file's path, relative to the volume's root
 * @param fieldRef the pod field written ({@code metadata.namespace}), or {@code null}
 * @param resourceFieldRef the container resource written ({@code limits.cpu}), or {@code null}
 * @param mode the file's permission bits (0 to 0777), or {@code null} for the volume's default mode
 */
public record DownwardAPIVolumeFile(String path, @Nullable FieldRef fieldRef,
    @Nullable ResourceFieldRef resourceFieldRef, @Nullable Integer mode) {
  public DownwardAPIVolumeFile {
    Objects.requireNonNull(path, "path");
  }

  /** A field of the pod, by path ({@code metadata.labels}), in {@code apiVersion} ({@code v1} when empty). */
  public record FieldRef(String apiVersion, String fieldPath) {
    public FieldRef {
      Objects.requireNonNull(apiVersion, "apiVersion");
      Objects.requireNonNull(fieldPath, "fieldPath");
    }
  }

  /**
   * A resource of a container ({@code requests.memory}), divided by {@code divisor} ({@code null}: 1).
   *
   * @param containerName the container; required in a volume
   */
  public record ResourceFieldRef(String containerName, String resource, @Nullable Quantity divisor) {
    public ResourceFieldRef {
      Objects.requireNonNull(containerName, "containerName");
      Objects.requireNonNull(resource, "resource");
    }
  }
}
