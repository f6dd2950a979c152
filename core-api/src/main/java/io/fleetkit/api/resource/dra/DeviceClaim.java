package io.fleetkit.api.resource.dra;

import java.util.List;

/**
 * The devices a claim asks for ({@code DeviceClaim}). Claim configuration is not modelled.
 *
 * @param requests at most 32 requests with unique names
 * @param constraints at most 32 constraints over the requests
 */
public record DeviceClaim(List<DeviceRequest> requests, List<DeviceConstraint> constraints) {
  public DeviceClaim {
    requests = List.copyOf(requests);
    constraints = List.copyOf(constraints);
  }
}
