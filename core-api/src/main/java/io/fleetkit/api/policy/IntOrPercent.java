package io.fleetkit.api.policy;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A count of pods given as a number ({@code 2}) or a percentage ({@code "50%"}), as Kubernetes' IntOrString in
 * {@code minAvailable} and {@code maxUnavailable}. Range rules (not negative, at most 100%) are checked by the kind
 * that holds the value.
 *
 * @param value the number, or the percentage without {@code %}
 * @param percent whether {@code value} is a percentage
 */
public record IntOrPercent(int value, boolean percent) {
  private static final Pattern PERCENT = Pattern.compile("([0-9]+)%");

  /** The upstream rule for a malformed percent string. */
  public static final String PERCENT_RULE = "a valid percent string must be a numeric string followed by an ending "
      + "'%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')";

  public static IntOrPercent of(int value) {
    return new IntOrPercent(value, false);
  }

  public static IntOrPercent percent(int value) {
    return new IntOrPercent(value, true);
  }

  /**
   * Parses the string form: a percentage {@code "N%"}, as Kubernetes requires of a string value. (A number comes
   * from YAML as a number; use {@link #of(int)}.)
   *
   * @throws IllegalArgumentException when {@code s} is not {@code digits%}
   */
  public static IntOrPercent parse(String s) {
    Objects.requireNonNull(s, "s");
    Matcher m = PERCENT.matcher(s);
    if (!m.matches()) {
      throw new IllegalArgumentException("\"" + s + "\": " + PERCENT_RULE);
    }
    try {
      return percent(Integer.parseInt(m.group(1)));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("\"" + s + "\": percentage out of range", e);
    }
  }

  /**
   * The number of pods this value means out of {@code total}, as upstream's {@code GetScaledValueFromIntOrPercent}:
   * a number as is; a percentage of {@code total}, rounded up when {@code roundUp} and down otherwise
   * (PodDisruptionBudget rounds both {@code minAvailable} and {@code maxUnavailable} up).
   */
  public int scaledValue(int total, boolean roundUp) {
    if (!percent) {
      return value;
    }
    BigDecimal exact = BigDecimal.valueOf((long) value * total).movePointLeft(2);
    return exact.setScale(0, roundUp ? RoundingMode.CEILING : RoundingMode.FLOOR).intValueExact();
  }

  /** {@code 2} or {@code 50%}. */
  @Override
  public String toString() {
    return percent ? value + "%" : Integer.toString(value);
  }
}
