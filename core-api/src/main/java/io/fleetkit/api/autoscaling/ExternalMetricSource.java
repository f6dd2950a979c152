package io.fleetkit.api.autoscaling;

import java.util.Objects;

/** Scales on a metric from outside the cluster; the target is a {@code value} or {@code averageValue}. */
public record ExternalMetricSource(MetricIdentifier metric, MetricTarget target) {
  public ExternalMetricSource {
    Objects.requireNonNull(metric, "metric");
    Objects.requireNonNull(target, "target");
  }
}
