package io.fleetkit.api.gateway;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A Service a rule forwards to, with its share of the rule's traffic: weight / sum of the rule's weights.
 *
 * @param namespace empty for the route's namespace
 * @param port the Service port, {@code null} when unset (invalid for a Service)
 * @param weight 0..1,000,000, default 1; 0 never receives traffic
 */
public record HTTPBackendRef(String name, String namespace, @Nullable Integer port, int weight) {
  public static final int DEFAULT_WEIGHT = 1;

  public HTTPBackendRef {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(namespace, "namespace");
  }

  public static HTTPBackendRef of(String name, int port, int weight) {
    return new HTTPBackendRef(name, "", port, weight);
  }
}
