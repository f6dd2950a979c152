package io.fleetkit.api.autoscaling;

import io.fleetkit.api.resource.Quantity;
import org.jspecify.annotations.Nullable;

/** The current value of a metric, in the forms that apply ({@code null} for the others). */
public record MetricValueStatus(@Nullable Quantity value, @Nullable Quantity averageValue,
    @Nullable Integer averageUtilization) {

  public static MetricValueStatus ofValue(Quantity value) {
    return new MetricValueStatus(value, null, null);
  }

  public static MetricValueStatus ofAverage(Quantity averageValue, @Nullable Integer averageUtilization) {
    return new MetricValueStatus(null, averageValue, averageUtilization);
  }
}
