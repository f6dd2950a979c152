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

  /**
   * Parses {@code "25%"} or {@code "3"}.
   *
   * @throws IllegalArgumentException when {@code s} is neither an integer nor an integer followed by {@code %}
   */
  public static IntOrPercent parse(String s) {
    Objects.requireNonNull(s, "s");
    boolean pct = s.endsWith("%");
    String digits = pct ? s.substring(0, s.length() - 1) : s;
    try {
      return new IntOrPercent(Integer.parseInt(digits), pct);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("int or percent \"" + s + "\" must be an integer or a percentage such as"
          + " \"25%\"", e);
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
