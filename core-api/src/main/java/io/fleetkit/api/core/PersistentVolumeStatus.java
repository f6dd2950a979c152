package io.fleetkit.api.core;

import java.time.Instant;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The observed state of a PersistentVolume.
 *
 * @param message human-readable detail, e.g. why reclamation failed; may be empty
 * @param reason CamelCase reason; may be empty
 * @param lastPhaseTransitionTime when {@code phase} last changed, {@code null} when unknown
 */
public record PersistentVolumeStatus(PersistentVolumePhase phase, String message, String reason,
    @Nullable Instant lastPhaseTransitionTime) {
  /** The status of a new volume (Kubernetes defaults the phase to Pending). */
  public static final PersistentVolumeStatus INITIAL =
      new PersistentVolumeStatus(PersistentVolumePhase.Pending, "", "", null);

  public PersistentVolumeStatus {
    Objects.requireNonNull(phase, "phase");
    Objects.requireNonNull(message, "message");
    Objects.requireNonNull(reason, "reason");
  }

  public static PersistentVolumeStatus of(PersistentVolumePhase phase) {
    return new PersistentVolumeStatus(phase, "", "", null);
  }
}
