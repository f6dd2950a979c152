package io.fleetkit.api.autoscaling;

import java.util.Objects;

/**
 * A limit on how fast an HPA may change the replica count: {@code value} pods or percent per
 * {@code periodSeconds}. Rules (value &gt; 0, period in 1..1800) are checked by {@link HorizontalPodAutoscaler}.
 */
public record HPAScalingPolicy(HPAScalingPolicyType type, int value, int periodSeconds) {
  public HPAScalingPolicy {
    Objects.requireNonNull(type, "type");
  }

  public static HPAScalingPolicy pods(int value, int periodSeconds) {
    return new HPAScalingPolicy(HPAScalingPolicyType.Pods, value, periodSeconds);
  }

  public static HPAScalingPolicy percent(int value, int periodSeconds) {
    return new HPAScalingPolicy(HPAScalingPolicyType.Percent, value, periodSeconds);
  }
}
