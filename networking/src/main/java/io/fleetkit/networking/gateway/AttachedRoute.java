package io.fleetkit.networking.gateway;

import io.fleetkit.api.gateway.HTTPRoute;
import java.util.List;
import java.util.Objects;

/**
 * A route accepted on a listener.
 *
 * @param hostnames the intersection of the listener's and the route's hostnames ({@link Hostnames#effective});
 *     empty for every host
 */
public record AttachedRoute(HTTPRoute route, List<String> hostnames) {
  public AttachedRoute {
    Objects.requireNonNull(route, "route");
    hostnames = List.copyOf(hostnames);
  }
}
