package io.fleetkit.api.apps;

import io.fleetkit.api.meta.ConditionStatus;
import java.time.Instant;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One condition of a replica set (apps/v1 ReplicaSetCondition). The only type Kubernetes sets is
 * {@link #REPLICA_FAILURE}: a pod could not be created ({@link #REASON_FAILED_CREATE}, e.g. refused by a quota) or
 * deleted ({@link #REASON_FAILED_DELETE}); it is removed once the replica set's pods are managed without error.
 */
public record ReplicaSetCondition(String type, ConditionStatus status, String reason, String message,
    @Nullable Instant lastTransitionTime) {
  public static final String REPLICA_FAILURE = "ReplicaFailure";
  public static final String REASON_FAILED_CREATE = "FailedCreate";
  public static final String REASON_FAILED_DELETE = "FailedDelete";

  public ReplicaSetCondition {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(reason, "reason");
    Objects.requireNonNull(message, "message");
  }
}
