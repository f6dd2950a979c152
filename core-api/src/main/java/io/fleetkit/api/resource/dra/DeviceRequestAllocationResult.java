package io.fleetkit.api.resource.dra;

import java.util.List;
import java.util.Objects;

/**
 * One allocated device ({@code DeviceRequestAllocationResult}).
 *
 * @param request the request it was allocated for: its name, or {@code request/subrequest} for the chosen
 *     alternative of a prioritized list
 * @param driver the driver of the device
 * @param pool the pool of the device
 * @param device the device name, unique in its pool
 * @param adminAccess whether the device was allocated for a request with admin access (it is then not in use by this
 *     claim, and may be in use by others)
 * @param tolerations a copy of the request's (or alternative's) tolerations when the device was allocated, at most 16
 */
public record DeviceRequestAllocationResult(String request, String driver, String pool, String device,
    boolean adminAccess, List<DeviceToleration> tolerations) {
  public DeviceRequestAllocationResult {
    Objects.requireNonNull(request, "request");
    Objects.requireNonNull(driver, "driver");
    Objects.requireNonNull(pool, "pool");
    Objects.requireNonNull(device, "device");
    tolerations = List.copyOf(tolerations);
  }

  /** A device allocated for a request without tolerations. */
  public DeviceRequestAllocationResult(String request, String driver, String pool, String device,
      boolean adminAccess) {
    this(request, driver, pool, device, adminAccess, List.of());
  }

  /** A device allocated without admin access, for a request without tolerations. */
  public DeviceRequestAllocationResult(String request, String driver, String pool, String device) {
    this(request, driver, pool, device, false, List.of());
  }
}
