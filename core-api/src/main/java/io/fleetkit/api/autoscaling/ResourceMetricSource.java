package io.fleetkit.api.autoscaling;

import java.util.Objects;

/** Scales on a resource of the target's pods, e.g. {@code cpu} at 80% utilization. */
public record ResourceMetricSource(String name, MetricTarget target) {
  public ResourceMetricSource {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(target, "target");
  }
}
