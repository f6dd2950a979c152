package io.fleetkit.api.autoscaling;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * How fast an HPA scales up and down ({@code spec.behavior}). When a behavior is present, a missing direction
 * gets the defaults of {@link HPAScalingRules}, as in Kubernetes; an HPA without behavior uses the controller's
 * legacy rules instead.
 */
public record HorizontalPodAutoscalerBehavior(HPAScalingRules scaleUp, HPAScalingRules scaleDown) {
  /** Both directions with Kubernetes' defaults. */
  public static final HorizontalPodAutoscalerBehavior DEFAULT =
      new HorizontalPodAutoscalerBehavior(HPAScalingRules.DEFAULT_SCALE_UP, HPAScalingRules.DEFAULT_SCALE_DOWN);

  public HorizontalPodAutoscalerBehavior {
    Objects.requireNonNull(scaleUp, "scaleUp");
    Objects.requireNonNull(scaleDown, "scaleDown");
  }

  /** A behavior where a {@code null} direction takes its defaults. */
  public static HorizontalPodAutoscalerBehavior of(@Nullable HPAScalingRules scaleUp,
      @Nullable HPAScalingRules scaleDown) {
    return new HorizontalPodAutoscalerBehavior(scaleUp != null ? scaleUp : HPAScalingRules.DEFAULT_SCALE_UP,
        scaleDown != null ? scaleDown : HPAScalingRules.DEFAULT_SCALE_DOWN);
  }
}
