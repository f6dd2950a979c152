package io.fleetkit.autoscale.hpa;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * One pod's resource usage sample ({@code metrics.k8s.io} PodMetrics).
 *
 * @param timestamp when the sample window ended
 * @param window the length of the sample window; the cpu readiness rule compares it with the pod's last readiness
 *     transition
 * @param containers per-container usage of the requested resource; a pod without containers counts as missing
 */
public record PodResourceMetrics(String podName, Instant timestamp, Duration window, List<ContainerUsage> containers) {
  public PodResourceMetrics {
    Objects.requireNonNull(podName, "podName");
    Objects.requireNonNull(timestamp, "timestamp");
    Objects.requireNonNull(window, "window");
    containers = List.copyOf(containers);
  }
}
