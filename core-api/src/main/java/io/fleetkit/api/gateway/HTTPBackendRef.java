package io.fleetkit.api.gateway;

import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A backend a rule forwards to, with its share of the rule's traffic: weight / sum of the rule's weights, and the
 * filters applied (after the rule's) only to requests forwarded to this backend.
 *
 * @param group empty for the core group (Services)
 * @param kind empty for {@code Service}; another kind is kept so that the route reports {@code InvalidKind}
 * @param namespace empty for the route's namespace
 * @param port the Service port, {@code null} when unset (invalid for a Service)
 * @param weight 0..1,000,000, default 1; 0 never receives traffic
 * @param filters at most 16, with the rule-level filters' rules (any type; a {@code RequestRedirect} here answers
 *     the redirect when this backend is chosen)
 */
public record HTTPBackendRef(String group, String kind, String name, String namespace, @Nullable Integer port,
    int weight, List<HTTPRouteFilter> filters) {
  public static final int DEFAULT_WEIGHT = 1;

  public HTTPBackendRef {
    Objects.requireNonNull(group, "group");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(namespace, "namespace");
    filters = List.copyOf(filters);
  }

  /** A backend without filters. */
  public HTTPBackendRef(String group, String kind, String name, String namespace, @Nullable Integer port,
      int weight) {
    this(group, kind, name, namespace, port, weight, List.of());
  }

  /** A Service backend. */
  public HTTPBackendRef(String name, String namespace, @Nullable Integer port, int weight) {
    this("", "", name, namespace, port, weight);
  }

  public static HTTPBackendRef of(String name, int port, int weight) {
    return new HTTPBackendRef(name, "", port, weight);
  }

  /** Whether this refers to a core Service (group and kind unset, or {@code ""}/{@code Service}). */
  public boolean isService() {
    return group.isEmpty() && (kind.isEmpty() || kind.equals("Service"));
  }

  public HTTPBackendRef withFilters(List<HTTPRouteFilter> f) {
    return new HTTPBackendRef(group, kind, name, namespace, port, weight, f);
  }
}
