package io.fleetkit.api.scheduling;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A pod toleration. An empty {@code key} with {@code Exists} tolerates every taint; a {@code null} effect
 * matches every effect; {@code tolerationSeconds} only applies to NoExecute. With {@link TolerationOperator#Gt} or
 * {@link TolerationOperator#Lt} the {@code value} is a threshold: a decimal integer in canonical form (see
 * {@link #toleratesTaint}).
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
   * equal the taint's; a non-empty key must equal the taint's; then by operator:
   *
   * <ul>
   *   <li>Exists matches any value (so an empty key with Exists and a null effect tolerates every taint);
   *   <li>Equal requires the same value;
   *   <li>Gt requires the taint's value to be greater than this toleration's, Lt less than it, both read as signed
   *       64-bit decimal integers in canonical form: an optional {@code -}, then {@code 0} alone or digits not starting
   *       with {@code 0} (no {@code +}, no leading zeros, no spaces, no {@code -0}), within the {@code long} range.
   *       Equal numbers do not match. If either value is not such an integer the toleration does not match; {@link
   *       #comparisonError} says why.
   * </ul>
   *
   * <p>Allocates nothing.
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
      case Lt, Gt -> compareNumericValues(value, taint.value(), operator);
    };
  }

  /**
   * Why this toleration cannot compare itself with {@code taint}: for a Gt or Lt toleration with the taint's key and
   * effect (as {@link #toleratesTaint} matches them), Kubernetes' parse error for whichever value (the toleration's
   * first) is not a canonical 64-bit decimal integer, such as {@code failed to parse taint value "high" as int64:
   * must be a valid decimal integer in canonical form}; {@code null} when both values are integers, the operator is
   * not Gt or Lt, or the key or effect does not match.
   */
  public @Nullable String comparisonError(Taint taint) {
    if (operator != TolerationOperator.Gt && operator != TolerationOperator.Lt) {
      return null;
    }
    if ((effect != null && effect != taint.effect()) || (!key.isEmpty() && !key.equals(taint.key()))) {
      return null;
    }
    String err = DecimalInt64.error(value);
    if (err != null) {
      return "failed to parse toleration value \"" + value + "\" as int64: " + err;
    }
    err = DecimalInt64.error(taint.value());
    return err == null ? null : "failed to parse taint value \"" + taint.value() + "\" as int64: " + err;
  }

  /**
   * Upstream's {@code compareNumericValues}: whether {@code taintValue} compares with {@code tolerationValue} as
   * {@code op} says (Lt: taint &lt; toleration; Gt: taint &gt; toleration); false when either is not a canonical
   * 64-bit decimal integer, and for Equal and Exists. The one implementation of the numeric operators.
   */
  static boolean compareNumericValues(String tolerationValue, String taintValue, TolerationOperator op) {
    if (op != TolerationOperator.Lt && op != TolerationOperator.Gt) {
      return false;
    }
    if (DecimalInt64.error(tolerationValue) != null || DecimalInt64.error(taintValue) != null) {
      return false;
    }
    int c = Long.compare(Long.parseLong(taintValue), Long.parseLong(tolerationValue));
    return op == TolerationOperator.Lt ? c < 0 : c > 0;
  }

  public static Toleration equal(String key, String value, @Nullable TaintEffect effect) {
    return new Toleration(key, TolerationOperator.Equal, value, effect, null);
  }

  public static Toleration exists(String key, @Nullable TaintEffect effect) {
    return new Toleration(key, TolerationOperator.Exists, "", effect, null);
  }

  /** A toleration of taints with {@code key} whose value, as an integer, is greater than {@code threshold}. */
  public static Toleration greaterThan(String key, long threshold, @Nullable TaintEffect effect) {
    return new Toleration(key, TolerationOperator.Gt, Long.toString(threshold), effect, null);
  }

  /** A toleration of taints with {@code key} whose value, as an integer, is less than {@code threshold}. */
  public static Toleration lessThan(String key, long threshold, @Nullable TaintEffect effect) {
    return new Toleration(key, TolerationOperator.Lt, Long.toString(threshold), effect, null);
  }
}
