package io.fleetkit.api.autoscaling;

import java.util.Objects;

/** Scales on a custom metric averaged over the target's pods; the target is an {@code averageValue}. */
public record PodsMetricSource(MetricIdentifier metric, MetricTarget target) {
  public PodsMetricSource {
    Objects.requireNonNull(metric, "metric");
    Objects.requireNonNull(target, "target");
  }
}
