package io.fleetkit.api.gateway;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The parent a route attaches to: a Gateway, optionally one of its listeners by {@code sectionName} and/or
 * {@code port} (both set: the listener must match both).
 *
 * @param group empty for the default {@value Gateway#GROUP}
 * @param kind empty for the default {@code Gateway}
 * @param namespace empty for the route's own
 * @param sectionName a listener name, empty for every listener
 * @param port a listener port, {@code null} for every port
 */
public record ParentReference(String group, String kind, String name, String namespace, String sectionName,
    @Nullable Integer port) {
  public ParentReference {
    Objects.requireNonNull(group, "group");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(sectionName, "sectionName");
  }

  /** A reference to a Gateway (default group and kind, any port). */
  public ParentReference(String name, String namespace, String sectionName) {
    this("", "", name, namespace, sectionName, null);
  }

  /** Whether this refers to a Gateway (group and kind unset or the Gateway API's). */
  public boolean isGateway() {
    return (group.isEmpty() || group.equals(Gateway.GROUP)) && (kind.isEmpty() || kind.equals(Gateway.KIND));
  }
}
