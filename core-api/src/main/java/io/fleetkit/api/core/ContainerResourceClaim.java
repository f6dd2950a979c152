package io.fleetkit.api.core;

import java.util.Objects;

/**
 * A container's use of one of the pod's resource claims ({@code resources.claims[]}, core/v1 {@code ResourceClaim}):
 * the name of an entry in the pod's {@code spec.resourceClaims} and, optionally, one request of that claim.
 *
 * @param name the name of an entry in {@code spec.resourceClaims}
 * @param request one request of the claim (a DNS label), empty for all of them
 */
public record ContainerResourceClaim(String name, String request) {
  public ContainerResourceClaim {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(request, "request");
  }

  /** All requests of the claim named {@code name}. */
  public static ContainerResourceClaim of(String name) {
    return new ContainerResourceClaim(name, "");
  }
}
