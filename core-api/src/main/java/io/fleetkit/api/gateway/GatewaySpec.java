package io.fleetkit.api.gateway;

import java.util.List;
import java.util.Objects;

/** The desired state of a Gateway. Rules are checked by {@link Gateway}. */
public record GatewaySpec(String gatewayClassName, List<Listener> listeners) {
  public GatewaySpec {
    Objects.requireNonNull(gatewayClassName, "gatewayClassName");
    listeners = List.copyOf(listeners);
  }
}
