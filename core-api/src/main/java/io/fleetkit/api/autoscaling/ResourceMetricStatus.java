package io.fleetkit.api.autoscaling;

import java.util.Objects;

/** The current value of a Resource metric. */
public record ResourceMetricStatus(String name, MetricValueStatus current) {
  public ResourceMetricStatus {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(current, "current");
  }
}
