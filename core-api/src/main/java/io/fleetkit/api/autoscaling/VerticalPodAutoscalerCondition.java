package io.fleetkit.api.autoscaling;

import io.fleetkit.api.meta.ConditionStatus;
import java.time.Instant;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A condition of a VPA, e.g. {@value #RECOMMENDATION_PROVIDED}.
 *
 * @param lastTransitionTime when {@code status} last changed, {@code null} when unknown
 * @param reason CamelCase reason; may be empty
 * @param message human-readable detail; may be empty
 */
public record VerticalPodAutoscalerCondition(String type, ConditionStatus status,
    @Nullable Instant lastTransitionTime, String reason, String message) {
  public static final String RECOMMENDATION_PROVIDED = "RecommendationProvided";
  public static final String LOW_CONFIDENCE = "LowConfidence";
  public static final String NO_PODS_MATCHED = "NoPodsMatched";
  public static final String FETCHING_HISTORY = "FetchingHistory";
  public static final String CONFIG_DEPRECATED = "ConfigDeprecated";
  public static final String CONFIG_UNSUPPORTED = "ConfigUnsupported";

  public VerticalPodAutoscalerCondition {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(reason, "reason");
    Objects.requireNonNull(message, "message");
  }

  public static VerticalPodAutoscalerCondition of(String type, ConditionStatus status, String reason,
      String message) {
    return new VerticalPodAutoscalerCondition(type, status, null, reason, message);
  }
}
