package io.fleetkit.api.gateway;

import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The observed state of an HTTPRoute: one entry per parent whose controller has looked at it.
 *
 * @param parents in the order the controllers wrote them
 */
public record HTTPRouteStatus(List<RouteParentStatus> parents) {
  /** No status written yet. */
  public static final HTTPRouteStatus EMPTY = new HTTPRouteStatus(List.of());

  public HTTPRouteStatus {
    parents = List.copyOf(parents);
  }

  /** The entry for {@code parentRef} written by {@code controllerName}, or {@code null}. */
  public @Nullable RouteParentStatus parent(ParentReference parentRef, String controllerName) {
    for (RouteParentStatus p : parents) {
      if (p.parentRef().equals(parentRef) && p.controllerName().equals(controllerName)) {
        return p;
      }
    }
    return null;
  }

  /** The entries for the Gateway {@code namespace/name}, whatever their section or port. */
  public List<RouteParentStatus> parentsFor(String routeNamespace, String gatewayNamespace, String gatewayName) {
    Objects.requireNonNull(gatewayName, "gatewayName");
    return parents.stream().filter(p -> p.parentRef().isGateway() && p.parentRef().name().equals(gatewayName)
        && (p.parentRef().namespace().isEmpty() ? routeNamespace : p.parentRef().namespace())
            .equals(gatewayNamespace)).toList();
  }
}
