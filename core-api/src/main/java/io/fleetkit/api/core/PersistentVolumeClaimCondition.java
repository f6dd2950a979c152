package io.fleetkit.api.core;

import io.fleetkit.api.meta.ConditionStatus;
import java.time.Instant;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A condition of a PersistentVolumeClaim, e.g. {@value #RESIZING} or {@value #FILE_SYSTEM_RESIZE_PENDING}.
 *
 * @param reason CamelCase reason; may be empty
 * @param message human-readable detail; may be empty
 */
public record PersistentVolumeClaimCondition(String type, ConditionStatus status, @Nullable Instant lastProbeTime,
    @Nullable Instant lastTransitionTime, String reason, String message) {
  public static final String RESIZING = "Resizing";
  public static final String FILE_SYSTEM_RESIZE_PENDING = "FileSystemResizePending";

  public PersistentVolumeClaimCondition {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(reason, "reason");
    Objects.requireNonNull(message, "message");
  }
}
