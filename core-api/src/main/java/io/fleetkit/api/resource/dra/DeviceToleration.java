package io.fleetkit.api.resource.dra;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A toleration of device taints in a request or a prioritized-list alternative ({@code DeviceToleration}), with the
 * semantics of a pod's toleration of node taints: an empty key matches every key, a {@code null} effect every
 * effect, Exists every value. The claim's validation checks a non-empty key (a label name), that Exists has an
 * empty value and that Equal's value is a label value, and that a request has at most 16 tolerations.
 *
 * @param key the taint key it applies to; empty for all keys
 * @param operator Equal (the default) or Exists
 * @param value the taint value Equal requires; empty for Exists
 * @param effect the taint effect it applies to, or {@code null} for all
 * @param tolerationSeconds for NoExecute: how long a pod may keep running once the taint is added ({@code null}:
 *     forever); not used by allocation
 */
public record DeviceToleration(String key, DeviceTolerationOperator operator, String value,
    @Nullable DeviceTaintEffect effect, @Nullable Long tolerationSeconds) {
  /** Kubernetes' {@code DeviceTolerationsMaxLength}: tolerations per request or alternative. */
  public static final int MAX_PER_REQUEST = 16;

  public DeviceToleration {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(operator, "operator");
    Objects.requireNonNull(value, "value");
  }

  /** Tolerates taints with {@code key} (every key if empty) and {@code effect} (every effect if null), any value. */
  public static DeviceToleration exists(String key, @Nullable DeviceTaintEffect effect) {
    return new DeviceToleration(key, DeviceTolerationOperator.EXISTS, "", effect, null);
  }

  /** Tolerates taints {@code key=value} with {@code effect} (every effect if null). */
  public static DeviceToleration equal(String key, String value, @Nullable DeviceTaintEffect effect) {
    return new DeviceToleration(key, DeviceTolerationOperator.EQUAL, value, effect, null);
  }

  /** This toleration with {@code tolerationSeconds}. */
  public DeviceToleration withTolerationSeconds(@Nullable Long seconds) {
    return new DeviceToleration(key, operator, value, effect, seconds);
  }

  /**
   * Whether this toleration tolerates {@code taint} ({@code resourceclaim.ToleratesTaint}): a non-null effect must
   * equal the taint's, a non-empty key must equal the taint's, and then Exists matches any value and Equal the same
   * value. Whether the taint's effect matters at all is the caller's question ({@link
   * DeviceTaint#preventsAllocation}).
   */
  public boolean toleratesTaint(DeviceTaint taint) {
    if (effect != null && effect != taint.effect()) {
      return false;
    }
    if (!key.isEmpty() && !key.equals(taint.key())) {
      return false;
    }
    return switch (operator) {
      case EQUAL -> value.equals(taint.value());
      case EXISTS -> true;
    };
  }
}
