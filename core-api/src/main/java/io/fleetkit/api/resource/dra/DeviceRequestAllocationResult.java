package io.fleetkit.api.resource.dra;

import java.util.Objects;

/**
 * One allocated device ({@code DeviceRequestAllocationResult}).
 *
 * @param request the request it was allocated for
 * @param driver the driver of the device
 * @param pool the pool of the device
 * @param device the device name, unique in its pool
 */
public record DeviceRequestAllocationResult(String request, String driver, String pool, String device) {
  public DeviceRequestAllocationResult {
    Objects.requireNonNull(request, "request");
    Objects.requireNonNull(driver, "driver");
    Objects.requireNonNull(pool, "pool");
    Objects.requireNonNull(device, "device");
  }
}
