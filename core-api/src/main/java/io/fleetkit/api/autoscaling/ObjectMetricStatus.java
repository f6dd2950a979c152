package io.fleetkit.api.autoscaling;

import java.util.Objects;

/** The current value of an Object metric. */
public record ObjectMetricStatus(MetricIdentifier metric, MetricValueStatus current, CrossVersionObjectReference describedObject) {
  public ObjectMetricStatus {
    Objects.requireNonNull(metric, "metric");
    Objects.requireNonNull(current, "current");
    Objects.requireNonNull(describedObject, "describedObject");
  }
}
