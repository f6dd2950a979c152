package io.fleetkit.api.resource.dra;

import java.util.List;
import java.util.Objects;

/**
 * The desired part of a {@link ResourceClaim} ({@code ResourceClaimSpec}).
 *
 * @param devices the devices asked for
 */
public record ResourceClaimSpec(DeviceClaim devices) {
  public ResourceClaimSpec {
    Objects.requireNonNull(devices, "devices");
  }

  /** A spec with these requests and no constraints. */
  public static ResourceClaimSpec of(DeviceRequest... requests) {
    return new ResourceClaimSpec(new DeviceClaim(List.of(requests), List.of()));
  }

  /** A spec with these requests and constraints. */
  public static ResourceClaimSpec of(List<DeviceRequest> requests, List<DeviceConstraint> constraints) {
    return new ResourceClaimSpec(new DeviceClaim(requests, constraints));
  }
}
