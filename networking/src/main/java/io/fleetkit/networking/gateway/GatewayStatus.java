package io.fleetkit.networking.gateway;

import io.fleetkit.api.meta.Condition;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A Gateway's status as a Gateway controller writes it.
 *
 * @param gateway {@code namespace/name}
 * @param conditions Accepted, Programmed and ResolvedRefs
 * @param listeners one entry per listener, in spec order
 */
public record GatewayStatus(String gateway, List<Condition> conditions, List<ListenerStatus> listeners) {
  public GatewayStatus {
    Objects.requireNonNull(gateway, "gateway");
    conditions = List.copyOf(conditions);
    listeners = List.copyOf(listeners);
  }

  public @Nullable Condition condition(String type) {
    return Conditions.find(conditions, type);
  }

  /** The status of listener {@code name}, or {@code null}. */
  public @Nullable ListenerStatus listener(String name) {
    for (ListenerStatus l : listeners) {
      if (l.name().equals(name)) {
        return l;
      }
    }
    return null;
  }
}
