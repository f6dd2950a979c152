package io.fleetkit.api.apps;

import io.fleetkit.api.meta.ConditionStatus;
import java.time.Instant;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/** One condition of a DaemonSet (apps/v1 {@code DaemonSetCondition}; Kubernetes defines no types of its own yet). */
public record DaemonSetCondition(String type, ConditionStatus status, @Nullable Instant lastTransitionTime,
    String reason, String message) {
  public DaemonSetCondition {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(reason, "reason");
    Objects.requireNonNull(message, "message");
  }
}
