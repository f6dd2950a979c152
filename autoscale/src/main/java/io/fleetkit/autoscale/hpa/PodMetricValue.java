package io.fleetkit.autoscale.hpa;

import java.time.Instant;
import java.util.Objects;

/** One pod's value of a custom metric ({@code custom.metrics.k8s.io}), in milli-units. */
public record PodMetricValue(String podName, long milliValue, Instant timestamp) {
  public PodMetricValue {
    Objects.requireNonNull(podName, "podName");
    Objects.requireNonNull(timestamp, "timestamp");
  }
}
