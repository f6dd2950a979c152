package io.fleetkit.api.autoscaling;

import java.util.Objects;

/** Scales on a resource of one container of each of the target's pods. */
public record ContainerResourceMetricSource(String name, String container, MetricTarget target) {
  public ContainerResourceMetricSource {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(container, "container");
    Objects.requireNonNull(target, "target");
  }
}
