package io.fleetkit.api.gateway;

import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A rule: its matches (alternatives; one {@code PathPrefix /} match when empty), the filters applied to the
 * requests it takes (in order), the backends that share its traffic, an optional name, timeouts and retry policy.
 *
 * @param name empty for none; else a DNS-1123 subdomain unique among the route's rules (the API's experimental
 *     {@code Rule name must be unique within the route})
 * @param timeouts {@code null} when unset
 * @param retry {@code null} when unset (a failed backend request is not retried)
 */
public record HTTPRouteRule(List<HTTPRouteMatch> matches, List<HTTPBackendRef> backendRefs,
    List<HTTPRouteFilter> filters, String name, @Nullable HTTPRouteTimeouts timeouts,
    @Nullable HTTPRouteRetry retry) {
  public HTTPRouteRule {
    matches = List.copyOf(matches);
    backendRefs = List.copyOf(backendRefs);
    filters = List.copyOf(filters);
    Objects.requireNonNull(name, "name");
  }

  /** A rule without a retry policy. */
  public HTTPRouteRule(List<HTTPRouteMatch> matches, List<HTTPBackendRef> backendRefs,
      List<HTTPRouteFilter> filters, String name, @Nullable HTTPRouteTimeouts timeouts) {
    this(matches, backendRefs, filters, name, timeouts, null);
  }

  /** An unnamed rule without timeouts. */
  public HTTPRouteRule(List<HTTPRouteMatch> matches, List<HTTPBackendRef> backendRefs,
      List<HTTPRouteFilter> filters) {
    this(matches, backendRefs, filters, "", null, null);
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
    return new HTTPRouteRule(matches, backendRefs, f, name, timeouts, retry);
  }

  public HTTPRouteRule withName(String n) {
    return new HTTPRouteRule(matches, backendRefs, filters, n, timeouts, retry);
  }

  public HTTPRouteRule withTimeouts(@Nullable HTTPRouteTimeouts t) {
    return new HTTPRouteRule(matches, backendRefs, filters, name, t, retry);
  }

  public HTTPRouteRule withRetry(@Nullable HTTPRouteRetry r) {
    return new HTTPRouteRule(matches, backendRefs, filters, name, timeouts, r);
  }

  /** This rule with {@code refs} as its backends, everything else kept. */
  public HTTPRouteRule withBackendRefs(List<HTTPBackendRef> refs) {
    return new HTTPRouteRule(matches, refs, filters, name, timeouts, retry);
  }
}
