package io.fleetkit.api.core;

import java.util.Objects;

/**
 * The claim made for a template entry of a pod's {@code spec.resourceClaims} (core/v1 {@code PodResourceClaimStatus},
 * in {@code status.resourceClaimStatuses}).
 *
 * @param name the entry's name in {@code spec.resourceClaims}
 * @param resourceClaimName the generated ResourceClaim in the pod's namespace; empty when no claim was needed
 */
public record PodResourceClaimStatus(String name, String resourceClaimName) {
  public PodResourceClaimStatus {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(resourceClaimName, "resourceClaimName");
  }
}
