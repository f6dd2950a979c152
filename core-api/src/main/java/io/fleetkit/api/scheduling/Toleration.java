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

  /**
   * Whether this toleration tolerates {@code taint}, as {@code v1.Toleration.ToleratesTaint}: a non-null effect must
   * equal the taint's; a non-empty key must equal the taint's; Exists matches any value, Equal requires the same
   * value. So an empty key with Exists (and a null effect) tolerates every taint.
   */
  public boolean toleratesTaint(Taint taint) {
    if (effect != null && effect != taint.effect()) {
      return false;
    }
    if (!key.isEmpty() && !key.equals(taint.key())) {
      return false;
    }
    return switch (operator) {
      case Equal -> value.equals(taint.value());
      case Exists -> true;
    };
  }

  public static Toleration equal(String key, String value, @Nullable TaintEffect effect) {
    return new Toleration(key, TolerationOperator.Equal, value, effect, null);
  }

  public static Toleration exists(String key, @Nullable TaintEffect effect) {
    return new Toleration(key, TolerationOperator.Exists, "", effect, null);
  }
}
