package io.fleetkit.api.scheduling;

import java.util.Objects;

/** A weighted (1..100) pod affinity term for preferred (anti-)affinity. */
public record WeightedPodAffinityTerm(int weight, PodAffinityTerm podAffinityTerm) {
  public WeightedPodAffinityTerm {
    Objects.requireNonNull(podAffinityTerm, "podAffinityTerm");
  }
}
