package io.fleetkit.networking.gateway;

import io.fleetkit.api.meta.Condition;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A listener's status as a Gateway controller writes it.
 *
 * @param supportedKinds the route kinds that may attach (those of {@code allowedRoutes.kinds} FleetKit supports)
 * @param attachedRoutes how many routes are accepted on this listener
 * @param conditions Accepted, ResolvedRefs, Programmed and Conflicted
 */
public record ListenerStatus(String name, List<String> supportedKinds, int attachedRoutes,
    List<Condition> conditions) {
  public ListenerStatus {
    Objects.requireNonNull(name, "name");
    supportedKinds = List.copyOf(supportedKinds);
    conditions = List.copyOf(conditions);
  }

  public @Nullable Condition condition(String type) {
    return Conditions.find(conditions, type);
  }
}
