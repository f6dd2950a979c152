package io.fleetkit.api.gateway;

import java.util.Objects;

/**
 * A route kind, as a listener's status lists those it supports.
 *
 * @param group the kind's API group; {@value Gateway#GROUP} for the Gateway API's routes
 */
public record RouteGroupKind(String group, String kind) {
  public RouteGroupKind {
    Objects.requireNonNull(group, "group");
    Objects.requireNonNull(kind, "kind");
  }

  /** A route kind of the Gateway API's group. */
  public static RouteGroupKind of(String kind) {
    return new RouteGroupKind(Gateway.GROUP, kind);
  }
}
