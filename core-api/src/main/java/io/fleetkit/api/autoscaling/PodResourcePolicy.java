package io.fleetkit.api.autoscaling;

import java.util.List;
import java.util.Optional;

/** The per-container policies of a VPA ({@code spec.resourcePolicy}). */
public record PodResourcePolicy(List<ContainerResourcePolicy> containerPolicies) {
  public PodResourcePolicy {
    containerPolicies = List.copyOf(containerPolicies);
  }

  public static PodResourcePolicy of(ContainerResourcePolicy... policies) {
    return new PodResourcePolicy(List.of(policies));
  }

  /** The policy for {@code containerName}: its own, else the {@code "*"} one, else none. */
  public Optional<ContainerResourcePolicy> policyFor(String containerName) {
    Optional<ContainerResourcePolicy> own =
        containerPolicies.stream().filter(p -> p.containerName().equals(containerName)).findFirst();
    return own.isPresent() ? own : containerPolicies.stream()
        .filter(p -> p.containerName().equals(ContainerResourcePolicy.ALL_CONTAINERS)).findFirst();
  }
}
