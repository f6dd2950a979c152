package io.fleetkit.api.resource.dra;

import java.util.Objects;

/**
 * The pool a {@link ResourceSlice} belongs to ({@code ResourcePool}). A pool is complete when
 * {@code resourceSliceCount} slices of its newest {@code generation} exist; older generations are ignored.
 *
 * @param name the pool name (one or more DNS subdomains separated by {@code /})
 * @param generation bumped by the driver whenever the pool changes
 * @param resourceSliceCount how many slices make up the pool in this generation
 */
public record ResourcePool(String name, long generation, long resourceSliceCount) {
  public ResourcePool {
    Objects.requireNonNull(name, "name");
  }

  /** Generation 1 in one slice. */
  public static ResourcePool of(String name) {
    return new ResourcePool(name, 1, 1);
  }
}
