package io.fleetkit.autoscale.queue;

import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What one poll of a {@link ScaledObject} did.
 *
 * @param previousReplicas the target's replicas before the poll
 * @param replicas the target's replicas after it
 * @param active whether any trigger's value was above its activation threshold
 * @param reason why: {@code Activated} (0 to 1), {@code Scaled} (the HPA math, 1 to N), {@code Held} (no change),
 *     {@code CooldownPending} (inactive, cooldown not over), {@code ScaledToIdle} (back to the resting count),
 *     {@code ScalerError}, {@code ScaledObjectCheckFailed} (the scale target is missing or has no scale subresource:
 *     nothing read or scaled, both replica counts 0)
 * @param values the value read per trigger name
 * @param error the scaler errors, {@code null} when none
 */
public record ScaleDecision(int previousReplicas, int replicas, boolean active, String reason,
    Map<String, Double> values, @Nullable String error) {
  public ScaleDecision {
    Objects.requireNonNull(reason, "reason");
    values = Map.copyOf(values);
  }
}
