package io.fleetkit.api.core;

import java.util.Objects;

/** A node address; {@code type} is e.g. {@code InternalIP}, {@code ExternalIP} or {@code Hostname}. */
public record NodeAddress(String type, String address) {
  public NodeAddress {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(address, "address");
  }
}
