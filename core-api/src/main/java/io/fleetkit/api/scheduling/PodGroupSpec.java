package io.fleetkit.api.scheduling;

import io.fleetkit.api.resource.ResourceList;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The desired part of a PodGroup (gang).
 *
 * @param minMember how many pods must be placeable together before any is bound
 * @param scheduleTimeoutSeconds how long members wait at Permit for the rest; {@code null} uses the scheduler's
 *     default
 * @param minResources the resources the whole gang needs at least; empty when not stated
 */
public record PodGroupSpec(int minMember, @Nullable Integer scheduleTimeoutSeconds, ResourceList minResources) {
  public PodGroupSpec {
    Objects.requireNonNull(minResources, "minResources");
  }

  public static PodGroupSpec of(int minMember) {
    return new PodGroupSpec(minMember, null, ResourceList.EMPTY);
  }
}
