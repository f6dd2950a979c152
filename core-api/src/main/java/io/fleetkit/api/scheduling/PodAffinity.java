package io.fleetkit.api.scheduling;

import java.util.List;

/** Required and preferred inter-pod affinity (also used, with the same shape, for anti-affinity). */
public record PodAffinity(List<PodAffinityTerm> requiredDuringSchedulingIgnoredDuringExecution,
    List<WeightedPodAffinityTerm> preferredDuringSchedulingIgnoredDuringExecution) {
  public static final PodAffinity NONE = new PodAffinity(List.of(), List.of());

  public PodAffinity {
    requiredDuringSchedulingIgnoredDuringExecution = List.copyOf(requiredDuringSchedulingIgnoredDuringExecution);
    preferredDuringSchedulingIgnoredDuringExecution = List.copyOf(preferredDuringSchedulingIgnoredDuringExecution);
  }

  public boolean isEmpty() {
    return requiredDuringSchedulingIgnoredDuringExecution.isEmpty()
        && preferredDuringSchedulingIgnoredDuringExecution.isEmpty();
  }
}
