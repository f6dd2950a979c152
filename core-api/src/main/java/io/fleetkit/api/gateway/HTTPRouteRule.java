package io.fleetkit.api.gateway;

import java.util.List;

/**
 * A rule: its matches (alternatives; one {@code PathPrefix /} match when empty), the filters applied to the
 * requests it takes (in order), and the backends that share its traffic.
 */
public record HTTPRouteRule(List<HTTPRouteMatch> matches, List<HTTPBackendRef> backendRefs,
    List<HTTPRouteFilter> filters) {
  public HTTPRouteRule {
    matches = List.copyOf(matches);
    backendRefs = List.copyOf(backendRefs);
    filters = List.copyOf(filters);
  }

  /** A rule without filters. */
  public HTTPRouteRule(List<HTTPRouteMatch> matches, List<HTTPBackendRef> backendRefs) {
    this(matches, backendRefs, List.of());
  }

  /** The matches, with the API's default when none is given. */
  public List<HTTPRouteMatch> effectiveMatches() {
    return matches.isEmpty() ? List.of(new HTTPRouteMatch(HTTPPathMatch.EVERYTHING, List.of(), List.of(), ""))
        : matches;
  }

  public HTTPRouteRule withFilters(List<HTTPRouteFilter> f) {
    return new HTTPRouteRule(matches, backendRefs, f);
  }
}
