package io.fleetkit.networking.gateway;

import io.fleetkit.api.gateway.RouteParentStatus;
import io.fleetkit.api.meta.Condition;
import java.util.Objects;

/**
 * A route's status for one of its {@code parentRefs}, as {@link GatewayAttachment} computes it, with the keys of the
 * route and of the Gateway the reference resolves to (which the status entry itself does not carry).
 *
 * @param route {@code namespace/name} of the route
 * @param gateway {@code namespace/name} the reference resolves to (whether or not such a Gateway exists)
 * @param status the entry a controller writes to the route's {@code status.parents}, conditions not yet stamped
 *     with a generation or time
 */
public record RouteParent(String route, String gateway, RouteParentStatus status) {
  public RouteParent {
    Objects.requireNonNull(route, "route");
    Objects.requireNonNull(gateway, "gateway");
    Objects.requireNonNull(status, "status");
  }

  /** Whether the parent accepted the route ({@code Accepted=True}). */
  public boolean accepted() {
    Condition c = status.condition(Conditions.ACCEPTED);
    return c != null && c.isTrue();
  }
}
