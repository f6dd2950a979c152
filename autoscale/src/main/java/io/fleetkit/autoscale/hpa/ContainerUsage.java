package io.fleetkit.autoscale.hpa;

import java.util.Objects;

/**
 * The usage of one resource by one container, in milli-units (millicores for cpu, milli-bytes for memory), as the
 * resource metrics API reports it.
 */
public record ContainerUsage(String name, long milliValue) {
  public ContainerUsage {
    Objects.requireNonNull(name, "name");
  }
}
