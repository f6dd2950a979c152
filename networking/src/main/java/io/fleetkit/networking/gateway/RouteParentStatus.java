package io.fleetkit.networking.gateway;

import io.fleetkit.api.gateway.ParentReference;
import io.fleetkit.api.meta.Condition;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A route's status for one of its {@code parentRefs}.
 *
 * @param route {@code namespace/name} of the route
 * @param gateway {@code namespace/name} the reference resolves to
 * @param conditions Accepted (with upstream's reason when False) and ResolvedRefs
 */
public record RouteParentStatus(String route, ParentReference parentRef, String gateway, List<Condition> conditions) {
  public RouteParentStatus {
    Objects.requireNonNull(route, "route");
    Objects.requireNonNull(parentRef, "parentRef");
    Objects.requireNonNull(gateway, "gateway");
    conditions = List.copyOf(conditions);
  }

  public @Nullable Condition condition(String type) {
    return Conditions.find(conditions, type);
  }

  /** Whether the parent accepted the route. */
  public boolean accepted() {
    Condition c = condition(Conditions.ACCEPTED);
    return c != null && c.isTrue();
  }
}
