package io.fleetkit.api.scheduling;

import java.time.Instant;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/** A node taint. {@code value} is empty when absent; {@code timeAdded} is set for NoExecute taints. */
public record Taint(String key, String value, TaintEffect effect, @Nullable Instant timeAdded) {
  public Taint {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(value, "value");
    Objects.requireNonNull(effect, "effect");
  }

  public static Taint of(String key, String value, TaintEffect effect) {
    return new Taint(key, value, effect, null);
  }

  /** {@code key=value:Effect}, as kubectl prints it. */
  @Override
  public String toString() {
    return key + (value.isEmpty() ? "" : "=" + value) + ":" + effect;
  }
}
