package io.fleetkit.api.apps;

import io.fleetkit.api.meta.ConditionStatus;
import java.time.Instant;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/** One condition of a deployment ({@code Available}, {@code Progressing}, {@code ReplicaFailure}). */
public record DeploymentCondition(String type, ConditionStatus status, String reason, String message,
    @Nullable Instant lastUpdateTime, @Nullable Instant lastTransitionTime) {
  public static final String AVAILABLE = "Available";
  public static final String PROGRESSING = "Progressing";
  public static final String REPLICA_FAILURE = "ReplicaFailure";

  public DeploymentCondition {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(reason, "reason");
    Objects.requireNonNull(message, "message");
  }
}
