package io.fleetkit.api.core;

import io.fleetkit.api.meta.ConditionStatus;
import java.time.Instant;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/** One condition of a node, e.g. {@code Ready=True}. */
public record NodeCondition(String type, ConditionStatus status, String reason, String message,
    @Nullable Instant lastHeartbeatTime, @Nullable Instant lastTransitionTime) {
  public static final String READY = "Ready";
  public static final String MEMORY_PRESSURE = "MemoryPressure";
  public static final String DISK_PRESSURE = "DiskPressure";
  public static final String PID_PRESSURE = "PIDPressure";
  public static final String NETWORK_UNAVAILABLE = "NetworkUnavailable";

  public NodeCondition {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(reason, "reason");
    Objects.requireNonNull(message, "message");
  }

  public static NodeCondition of(String type, ConditionStatus status) {
    return new NodeCondition(type, status, "", "", null, null);
  }

  /** {@code Ready=True}. */
  public static NodeCondition ready() {
    return of(READY, ConditionStatus.True);
  }
}
