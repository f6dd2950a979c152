package io.fleetkit.api.gateway;

import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A rule: its matches (alternatives; one {@code PathPrefix /} match when empty), the filters applied to the
 * requests it takes (in order), the backends that share its traffic, an optional name and timeouts.
 *
 * @param name empty for none; else a DNS-1123 subdomain unique among the route's rules (the API's experimental
 *     {@code Rule name must be unique within the route})
 * @param timeouts {@code null} when unset
 */
public record HTTPRouteRule(List<HTTPRouteMatch> matches, List<HTTPBackendRef> backendRefs,
    List<HTTPRouteFilter> filters, String name, @Nullable HTTPRouteTimeouts timeouts) {
  public HTTPRouteRule {
    matches = List.copyOf(matches);
    backendRefs = List.copyOf(backendRefs);
    filters = List.copyOf(filters);
    Objects.requireNonNull(name, "name");
  }

  /** An unnamed rule without timeouts. */
  public HTTPRouteRule(List<HTTPRouteMatch> matches, List<HTTPBackendRef> backendRefs,
      List<HTTPRouteFilter> filters) {
    this(matches, backendRefs, filters, "", null);
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
    return new HTTPRouteRule(matches, backendRefs, f, name, timeouts);
  }

  public HTTPRouteRule withName(String n) {
    return new HTTPRouteRule(matches, backendRefs, filters, n, timeouts);
  }

  public HTTPRouteRule withTimeouts(@Nullable HTTPRouteTimeouts t) {
    return new HTTPRouteRule(matches, backendRefs, filters, name, t);
  }
}
