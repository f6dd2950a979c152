package io.fleetkit.scheduler.plugins.noderesources;

import java.util.Objects;

/**
 * A resource taking part in scoring, with its weight (kube's {@code config.ResourceSpec}).
 *
 * @param name the resource name, e.g. {@code cpu} or {@code nvidia.com/gpu}
 * @param weight in [1, 100]
 */
public record ResourceSpec(String name, long weight) {
  /** The largest weight kube accepts ({@code framework.MaxNodeScore}). */
  public static final long MAX_WEIGHT = 100;

  public ResourceSpec {
    Objects.requireNonNull(name, "name");
    if (name.isEmpty()) {
      throw new IllegalArgumentException("resource spec: name must not be empty");
    }
    if (weight < 1 || weight > MAX_WEIGHT) {
      throw new IllegalArgumentException(
          "resource spec " + name + ": weight " + weight + " must be in [1, " + MAX_WEIGHT + "]");
    }
  }

  public static ResourceSpec of(String name, long weight) {
    return new ResourceSpec(name, weight);
  }
}
