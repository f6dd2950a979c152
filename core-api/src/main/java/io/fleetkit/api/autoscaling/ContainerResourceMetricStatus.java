package io.fleetkit.api.autoscaling;

import java.util.Objects;

/** The current value of a ContainerResource metric. */
public record ContainerResourceMetricStatus(String name, String container, MetricValueStatus current) {
  public ContainerResourceMetricStatus {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(container, "container");
    Objects.requireNonNull(current, "current");
  }
}
