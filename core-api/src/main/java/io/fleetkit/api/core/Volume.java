package io.fleetkit.api.core;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/** A named pod volume with one source. */
public record Volume(String name, VolumeSource source) {
  public Volume {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(source, "source");
  }

  public static Volume persistentVolumeClaim(String name, String claimName) {
    return new Volume(name, new VolumeSource.PersistentVolumeClaim(claimName, false));
  }

  public static Volume emptyDir(String name) {
    return new Volume(name, VolumeSource.EmptyDir.DEFAULT);
  }

  /** A generic ephemeral volume whose claim is made from {@code template} (see {@link VolumeSource.Ephemeral}). */
  public static Volume ephemeral(String name, PersistentVolumeClaimTemplate template) {
    return new Volume(name, new VolumeSource.Ephemeral(template));
  }

  /** The ephemeral source of this volume, or {@code null} when it is not a generic ephemeral volume. */
  public VolumeSource.@Nullable Ephemeral ephemeral() {
    return source instanceof VolumeSource.Ephemeral e ? e : null;
  }

  /** The claim this volume mounts, or {@code null} when it is not a PVC volume. */
  public VolumeSource.@Nullable PersistentVolumeClaim claim() {
    return source instanceof VolumeSource.PersistentVolumeClaim c ? c : null;
  }
}
