package io.fleetkit.api.gateway;

import io.fleetkit.api.meta.Condition;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A route's status for one of its {@code parentRefs} ({@code status.parents[]}), written by the controller of that
 * parent.
 *
 * @param parentRef the reference, as in the route's spec
 * @param controllerName the controller that wrote this entry (its GatewayClass's {@code controllerName})
 * @param conditions {@code Accepted} and {@code ResolvedRefs}
 */
public record RouteParentStatus(ParentReference parentRef, String controllerName, List<Condition> conditions) {
  public RouteParentStatus {
    Objects.requireNonNull(parentRef, "parentRef");
    Objects.requireNonNull(controllerName, "controllerName");
    conditions = List.copyOf(conditions);
  }

  /** The condition of {@code type}, or {@code null}. */
  public @Nullable Condition condition(String type) {
    return GatewayStatus.find(conditions, type);
  }
}
