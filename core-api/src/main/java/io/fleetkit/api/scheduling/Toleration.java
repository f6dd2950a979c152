package io.fleetkit.api.scheduling;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A pod toleration. An empty {@code key} with {@code Exists} tolerates every taint; a {@code null} effect
 * matches every effect; {@code tolerationSeconds} only applies to NoExecute.
 */
public record Toleration(String key, TolerationOperator operator, String value, @Nullable TaintEffect effect,
    @Nullable Long tolerationSeconds) {
  public Toleration {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(operator, "operator");
    Objects.requireNonNull(value, "value");
  }

  public static Toleration equal(String key, String value, @Nullable TaintEffect effect) {
    return new Toleration(key, TolerationOperator.Equal, value, effect, null);
  }

  public static Toleration exists(String key, @Nullable TaintEffect effect) {
    return new Toleration(key, TolerationOperator.Exists, "", effect, null);
  }
}
