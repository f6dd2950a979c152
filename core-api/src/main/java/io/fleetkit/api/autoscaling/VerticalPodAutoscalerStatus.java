package io.fleetkit.api.autoscaling;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The observed state of a VPA.
 *
 * @param recommendation the latest recommendation, {@code null} until one is made
 */
public record VerticalPodAutoscalerStatus(@Nullable RecommendedPodResources recommendation,
    List<VerticalPodAutoscalerCondition> conditions) {
  /** The status of a new VPA. */
  public static final VerticalPodAutoscalerStatus EMPTY = new VerticalPodAutoscalerStatus(null, List.of());

  public VerticalPodAutoscalerStatus {
    conditions = List.copyOf(conditions);
  }
}
