package io.fleetkit.api.autoscaling;

import java.util.Objects;

/** The current value of an External metric. */
public record ExternalMetricStatus(MetricIdentifier metric, MetricValueStatus current) {
  public ExternalMetricStatus {
    Objects.requireNonNull(metric, "metric");
    Objects.requireNonNull(current, "current");
  }
}
