package io.fleetkit.api.gateway;

import io.fleetkit.api.meta.Condition;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The observed state of a Gateway, written by the controller of its GatewayClass.
 *
 * @param conditions {@code Accepted}, {@code Programmed} and {@code ResolvedRefs}, each with the
 *     {@code observedGeneration} it was computed for
 * @param listeners one entry per listener, in spec order
 */
public record GatewayStatus(List<Condition> conditions, List<ListenerStatus> listeners) {
  /** No status written yet. */
  public static final GatewayStatus EMPTY = new GatewayStatus(List.of(), List.of());

  public GatewayStatus {
    conditions = List.copyOf(conditions);
    listeners = List.copyOf(listeners);
  }

  /** The condition of {@code type}, or {@code null}. */
  public @Nullable Condition condition(String type) {
    return find(conditions, type);
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

  static @Nullable Condition find(List<Condition> conditions, String type) {
    for (Condition c : conditions) {
      if (c.type().equals(type)) {
        return c;
      }
    }
    return null;
  }
}
