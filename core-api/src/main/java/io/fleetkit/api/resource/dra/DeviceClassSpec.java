package io.fleetkit.api.resource.dra;

import java.util.List;

/**
 * What a {@link DeviceClass} selects ({@code DeviceClassSpec}): selectors every device allocated through the class
 * must satisfy. Class configuration is not modelled.
 *
 * @param selectors at most 32 selectors, all of which must match
 */
public record DeviceClassSpec(List<DeviceSelector> selectors) {
  public DeviceClassSpec {
    selectors = List.copyOf(selectors);
  }

  /** A class with the given selectors. */
  public static DeviceClassSpec of(DeviceSelector... selectors) {
    return new DeviceClassSpec(List.of(selectors));
  }
}
