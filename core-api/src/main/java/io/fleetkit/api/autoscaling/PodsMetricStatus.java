package io.fleetkit.api.autoscaling;

import java.util.Objects;

/** The current value of a Pods metric. */
public record PodsMetricStatus(MetricIdentifier metric, MetricValueStatus current) {
  public PodsMetricStatus {
    Objects.requireNonNull(metric, "metric");
    Objects.requireNonNull(current, "current");
  }
}
