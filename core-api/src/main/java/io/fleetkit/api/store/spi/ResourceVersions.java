package io.fleetkit.api.store.spi;

import io.fleetkit.api.text.GoIntegers;

/** The resourceVersion strings of FleetKit's stores: decimal numbers, {@code ""} meaning "now" (0). Stateless. */
public final class ResourceVersions {
  private ResourceVersions() {}

  /**
   * The number {@code rv} stands for; {@code ""} and {@code "0"} are 0 ("from now" for a watch).
   *
   * @throws IllegalArgumentException if {@code rv} is not a non-negative decimal number
   */
  public static long parse(String rv) {
    if (rv.isEmpty()) {
      return 0;
    }
    long v;
    try {
      v = GoIntegers.parseInt(rv, 64); // ASCII digits only: Long.parseLong takes the digits of every script
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("resourceVersion must be a decimal number but was \"" + rv + "\"", e);
    }
    if (v < 0) {
      throw new IllegalArgumentException("resourceVersion must not be negative but was " + rv);
    }
    return v;
  }
}
