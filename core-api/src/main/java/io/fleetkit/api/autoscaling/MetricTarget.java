package io.fleetkit.api.autoscaling;

import io.fleetkit.api.resource.Quantity;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The target value of a metric. Exactly the field that {@code type} names should be set; rules are checked by
 * {@link HorizontalPodAutoscaler}.
 *
 * @param value the total target, for {@link MetricTargetType#Value}
 * @param averageValue the per-pod target, for {@link MetricTargetType#AverageValue}
 * @param averageUtilization the per-pod target in percent of requests, for {@link MetricTargetType#Utilization}
 */
public record MetricTarget(MetricTargetType type, @Nullable Quantity value, @Nullable Quantity averageValue,
    @Nullable Integer averageUtilization) {
  public MetricTarget {
    Objects.requireNonNull(type, "type");
  }

  public static MetricTarget utilization(int percent) {
    return new MetricTarget(MetricTargetType.Utilization, null, null, percent);
  }

  public static MetricTarget value(Quantity value) {
    return new MetricTarget(MetricTargetType.Value, value, null, null);
  }

  public static MetricTarget averageValue(Quantity averageValue) {
    return new MetricTarget(MetricTargetType.AverageValue, null, averageValue, null);
  }
}
