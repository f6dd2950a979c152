package io.fleetkit.api.gateway;

import java.util.List;
import java.util.Objects;

/**
 * A rule: its matches (alternatives; one {@code PathPrefix /} match when empty), the filters applied to the
 * requests it takes (in order), the backends that share its traffic, and an optional name.
 *
 * @param name empty for none; else a DNS-1123 subdomain unique among the route's rules (the API's experimental
 *     {@code Rule name must be unique within the route})
 */
public record HTTPRouteRule(List<HTTPRouteMatch> matches, List<HTTPBackendRef> backendRefs,
    List<HTTPRouteFilter> filters, String name) {
  public HTTPRouteRule {
    matches = List.copyOf(matches);
    backendRefs = List.copyOf(backendRefs);
    filters = List.copyOf(filters);
    Objects.requireNonNull(name, "name");
  }

  /** An unnamed rule. */
  public HTTPRouteRule(List<HTTPRouteMatch> matches, List<HTTPBackendRef> backendRefs,
      List<HTTPRouteFilter> filters) {
    this(matches, backendRefs, filters, "");
  }

  /** An unnamed rule without filters. */
  public HTTPRouteRule(List<HTTPRouteMatch> matches, List<HTTPBackendRef> backendRefs) {
    this(matches, backendRefs, List.of());
  }

  /** The matches, with the API's default when none is given. */
  public List<HTTPRouteMatch> effectiveMatches() {
    return matches.isEmpty() ? List.of(new HTTPRouteMatch(HTTPPathMatch.EVERYTHING, List.of(), List.of(), ""))
        : matches;
  }

  public HTTPRouteRule withFilters(List<HTTPRouteFilter> f) {
    return new HTTPRouteRule(matches, backendRefs, f, name);
  }

  public HTTPRouteRule withName(String n) {
    return new HTTPRouteRule(matches, backendRefs, filters, n);
  }
}
