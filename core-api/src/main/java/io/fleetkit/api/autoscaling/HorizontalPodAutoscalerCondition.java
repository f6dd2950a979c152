package io.fleetkit.api.autoscaling;

import io.fleetkit.api.meta.ConditionStatus;
import java.time.Instant;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A condition of an HPA.
 *
 * @param lastTransitionTime when {@code status} last changed, {@code null} when unknown
 * @param reason CamelCase reason, e.g. {@code TooManyReplicas}; may be empty
 * @param message human-readable detail; may be empty
 */
public record HorizontalPodAutoscalerCondition(HorizontalPodAutoscalerConditionType type, ConditionStatus status,
    @Nullable Instant lastTransitionTime, String reason, String message) {
  public HorizontalPodAutoscalerCondition {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(reason, "reason");
    Objects.requireNonNull(message, "message");
  }

  public static HorizontalPodAutoscalerCondition of(HorizontalPodAutoscalerConditionType type,
      ConditionStatus status, String reason, String message) {
    return new HorizontalPodAutoscalerCondition(type, status, null, reason, message);
  }
}
