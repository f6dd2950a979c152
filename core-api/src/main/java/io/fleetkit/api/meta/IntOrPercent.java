package io.fleetkit.api.meta;

import java.util.Objects;

/**
 * Kubernetes' {@code IntOrString} as used by {@code maxSurge}, {@code maxUnavailable} and {@code minAvailable}: an
 * absolute count or a percentage of a total.
 *
 * @param value the count, or the percentage when {@code percent} is true
 */
public record IntOrPercent(int value, boolean percent) {
  public static final IntOrPercent ZERO = new IntOrPercent(0, false);
  public static final IntOrPercent ONE = new IntOrPercent(1, false);
  public static final IntOrPercent TWENTY_FIVE_PERCENT = new IntOrPercent(25, true);

  public static IntOrPercent of(int value) {
    return new IntOrPercent(value, false);
  }

  public static IntOrPercent ofPercent(int percent) {
    return new IntOrPercent(percent, true);
  }

  /** Kubernetes' rule for the string form of an int-or-string that holds a percentage. */
  public static final String PERCENT_RULE =
      "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%')";

  /**
   * Parses the string form, which Kubernetes only accepts as a percentage {@code "N%"} (a plain count arrives from
   * YAML as a number: use {@link #of(int)}).
   *
   * @throws IllegalArgumentException naming the value and {@link #PERCENT_RULE} when {@code s} is not {@code digits%}
   */
  public static IntOrPercent parse(String s) {
    Objects.requireNonNull(s, "s");
    int n = s.length();
    boolean ok = n >= 2 && s.charAt(n - 1) == '%';
    for (int i = 0; ok && i < n - 1; i++) {
      ok = s.charAt(i) >= '0' && s.charAt(i) <= '9';
    }
    if (!ok) {
      throw new IllegalArgumentException("\"" + s + "\": " + PERCENT_RULE);
    }
    try {
      return new IntOrPercent(Integer.parseInt(s.substring(0, n - 1)), true);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("\"" + s + "\": percentage out of range", e);
    }
  }

  /**
   * The absolute value against {@code total}, as Kubernetes' {@code intstr.GetScaledValueFromIntOrPercent}: a
   * count is returned as is; a percentage is {@code value * total / 100}, rounded up when {@code roundUp}, else down.
   */
  public int scaledValue(int total, boolean roundUp) {
    if (!percent) {
      return value;
    }
    long product = (long) value * total;
    long scaled = roundUp ? Math.floorDiv(product + 99, 100) : Math.floorDiv(product, 100);
    return (int) scaled;
  }

  /** {@code "25%"} or {@code "3"}, as written in a manifest. */
  @Override
  public String toString() {
    return percent ? value + "%" : Integer.toString(value);
  }
}
