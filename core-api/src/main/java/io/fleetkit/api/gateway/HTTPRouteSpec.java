package io.fleetkit.api.gateway;

import java.util.List;

/**
 * The desired state of an HTTPRoute. Rules are checked by {@link HTTPRoute}.
 *
 * @param hostnames host names the route serves (exact, or {@code *.suffix}); empty for every host
 */
public record HTTPRouteSpec(List<ParentReference> parentRefs, List<String> hostnames, List<HTTPRouteRule> rules) {
  public HTTPRouteSpec {
    parentRefs = List.copyOf(parentRefs);
    hostnames = List.copyOf(hostnames);
    rules = List.copyOf(rules);
  }
}
