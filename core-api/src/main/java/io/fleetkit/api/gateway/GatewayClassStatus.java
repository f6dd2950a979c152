package io.fleetkit.api.gateway;

import io.fleetkit.api.meta.Condition;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The observed state of a GatewayClass, written by the controller it names.
 *
 * @param conditions {@code Accepted}, with the {@code observedGeneration} it was computed for
 */
public record GatewayClassStatus(List<Condition> conditions) {
  /** No status written yet. */
  public static final GatewayClassStatus EMPTY = new GatewayClassStatus(List.of());

  public GatewayClassStatus {
    conditions = List.copyOf(conditions);
  }

  /** The condition of {@code type}, or {@code null}. */
  public @Nullable Condition condition(String type) {
    return GatewayStatus.find(conditions, type);
  }
}
