package io.fleetkit.api.gateway;

import java.util.List;

/**
 * A rule: its matches (alternatives; one {@code PathPrefix /} match when empty) and the backends that share its
 * traffic.
 */
public record HTTPRouteRule(List<HTTPRouteMatch> matches, List<HTTPBackendRef> backendRefs) {
  public HTTPRouteRule {
    matches = List.copyOf(matches);
    backendRefs = List.copyOf(backendRefs);
  }

  /** The matches, with the API's default when none is given. */
  public List<HTTPRouteMatch> effectiveMatches() {
    return matches.isEmpty() ? List.of(new HTTPRouteMatch(HTTPPathMatch.EVERYTHING, List.of(), List.of(), ""))
        : matches;
  }
}
