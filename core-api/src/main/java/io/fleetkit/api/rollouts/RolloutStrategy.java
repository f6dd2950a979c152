package io.fleetkit.api.rollouts;

import org.jspecify.annotations.Nullable;

/** How a rollout ships a new version: exactly one of canary or blue-green (checked by {@link Rollout}). */
public record RolloutStrategy(@Nullable CanaryStrategy canary, @Nullable BlueGreenStrategy blueGreen) {
  public static RolloutStrategy canary(CanaryStrategy c) {
    return new RolloutStrategy(java.util.Objects.requireNonNull(c, "canary"), null);
  }

  public static RolloutStrategy blueGreen(BlueGreenStrategy b) {
    return new RolloutStrategy(null, java.util.Objects.requireNonNull(b, "blueGreen"));
  }
}
