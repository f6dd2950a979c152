package io.fleetkit.scheduler.dra;

import java.util.Objects;

/**
 * A device, unique in the cluster: driver, pool and device name ({@code DeviceID}).
 *
 * @param driver the driver
 * @param pool the pool
 * @param device the device name in the pool
 */
public record DeviceId(String driver, String pool, String device) {
  public DeviceId {
    Objects.requireNonNull(driver, "driver");
    Objects.requireNonNull(pool, "pool");
    Objects.requireNonNull(device, "device");
  }

  /** {@code driver/pool/device}, as Kubernetes prints it. */
  @Override
  public String toString() {
    return driver + "/" + pool + "/" + device;
  }
}
