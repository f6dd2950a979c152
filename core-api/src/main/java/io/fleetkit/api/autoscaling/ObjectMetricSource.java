package io.fleetkit.api.autoscaling;

import java.util.Objects;

/** Scales on a metric of another object in the namespace; the target is a {@code value} or {@code averageValue}. */
public record ObjectMetricSource(CrossVersionObjectReference describedObject, MetricIdentifier metric,
    MetricTarget target) {
  public ObjectMetricSource {
    Objects.requireNonNull(describedObject, "describedObject");
    Objects.requireNonNull(metric, "metric");
    Objects.requireNonNull(target, "target");
  }
}
