package io.fleetkit.api.core;

import io.fleetkit.api.meta.ConditionStatus;
import java.time.Instant;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One condition of a replication controller (core/v1 ReplicationControllerCondition). The only type Kubernetes sets
 * is {@link #REPLICA_FAILURE}: a pod could not be created ({@link #REASON_FAILED_CREATE}) or deleted
 * ({@link #REASON_FAILED_DELETE}); it is removed once the pods are managed without error.
 */
public record ReplicationControllerCondition(String type, ConditionStatus status, String reason, String message,
    @Nullable Instant lastTransitionTime) {
  public static final String REPLICA_FAILURE = "ReplicaFailure";
  public static final String REASON_FAILED_CREATE = "FailedCreate";
  public static final String REASON_FAILED_DELETE = "FailedDelete";

  public ReplicationControllerCondition {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(reason, "reason");
    Objects.requireNonNull(message, "message");
  }
}
