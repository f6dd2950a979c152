package io.fleetkit.api.autoscaling;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The observed state of an HPA.
 *
 * @param observedGeneration the generation last acted on; 0 when none
 * @param lastScaleTime when the HPA last changed the replica count, {@code null} when never
 */
public record HorizontalPodAutoscalerStatus(long observedGeneration, @Nullable Instant lastScaleTime,
    int currentReplicas, int desiredReplicas, List<MetricStatus> currentMetrics,
    List<HorizontalPodAutoscalerCondition> conditions) {
  /** The status of a new HPA. */
  public static final HorizontalPodAutoscalerStatus EMPTY =
      new HorizontalPodAutoscalerStatus(0, null, 0, 0, List.of(), List.of());

  public HorizontalPodAutoscalerStatus {
    currentMetrics = List.copyOf(currentMetrics);
    conditions = List.copyOf(conditions);
  }

  /** The condition of {@code type}, if reported. */
  public Optional<HorizontalPodAutoscalerCondition> condition(HorizontalPodAutoscalerConditionType type) {
    return conditions.stream().filter(c -> c.type() == type).findFirst();
  }
}
