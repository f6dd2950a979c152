package io.fleetkit.api.scheduling;

import java.util.List;
import org.jspecify.annotations.Nullable;

/** Required and preferred node affinity. */
public record NodeAffinity(@Nullable NodeSelector requiredDuringSchedulingIgnoredDuringExecution,
    List<PreferredSchedulingTerm> preferredDuringSchedulingIgnoredDuringExecution) {
  public NodeAffinity {
    preferredDuringSchedulingIgnoredDuringExecution = List.copyOf(preferredDuringSchedulingIgnoredDuringExecution);
  }
}
