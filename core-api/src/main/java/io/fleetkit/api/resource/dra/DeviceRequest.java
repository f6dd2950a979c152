package io.fleetkit.api.resource.dra;

import java.util.Objects;

/**
 * One named request of a claim ({@code DeviceRequest}). Only the {@code exactly} form is modelled;
 * {@code firstAvailable} sub-requests are not.
 *
 * @param name a DNS label, unique in the claim; allocation results and constraints refer to it
 * @param exactly what is requested
 */
public record DeviceRequest(String name, ExactDeviceRequest exactly) {
  public DeviceRequest {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(exactly, "exactly");
  }

  /** A request named {@code name} for {@code count} devices of {@code deviceClassName}. */
  public static DeviceRequest of(String name, String deviceClassName, long count) {
    return new DeviceRequest(name, ExactDeviceRequest.count(deviceClassName, count));
  }
}
