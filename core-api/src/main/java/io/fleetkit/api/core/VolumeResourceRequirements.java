package io.fleetkit.api.core;

import io.fleetkit.api.resource.ResourceList;
import java.util.Objects;

/**
 * What a claim asks for ({@code spec.resources}): {@code requests.storage} is the minimum size of the volume.
 * {@code limits} is accepted for compatibility and otherwise unused.
 */
public record VolumeResourceRequirements(ResourceList requests, ResourceList limits) {
  public VolumeResourceRequirements {
    Objects.requireNonNull(requests, "requests");
    Objects.requireNonNull(limits, "limits");
  }

  /** Requests {@code quantity} of storage, e.g. {@code 10Gi}. */
  public static VolumeResourceRequirements ofStorage(String quantity) {
    return new VolumeResourceRequirements(
        ResourceList.builder().put(VolumeRules.STORAGE, quantity).build(), ResourceList.EMPTY);
  }
}
