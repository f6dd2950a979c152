package io.fleetkit.api.gateway;

import io.fleetkit.api.meta.Condition;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The status of one listener of a Gateway ({@code status.listeners[]}).
 *
 * @param name the listener's name
 * @param supportedKinds the route kinds that may attach to it
 * @param attachedRoutes how many routes are accepted on it
 * @param conditions {@code Accepted}, {@code ResolvedRefs}, {@code Conflicted} and {@code Programmed}
 */
public record ListenerStatus(String name, List<RouteGroupKind> supportedKinds, int attachedRoutes,
    List<Condition> conditions) {
  public ListenerStatus {
    Objects.requireNonNull(name, "name");
    supportedKinds = List.copyOf(supportedKinds);
    conditions = List.copyOf(conditions);
  }

  /** The condition of {@code type}, or {@code null}. */
  public @Nullable Condition condition(String type) {
    return GatewayStatus.find(conditions, type);
  }
}
