package io.fleetkit.api.resource;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Objects;

/**
 * STUB (to be replaced by the full implementation): a Kubernetes resource quantity.
 *
 * <p>Public contract the rest of the code base relies on: {@link #parse(String)}, {@link #ofMilli(long)},
 * {@link #of(long)}, {@link #ofBytes(long)}, {@link #milliValue()}, {@link #value()}, {@link #toBigDecimal()},
 * {@link #add}, {@link #subtract}, {@link #signum()}, {@link #isZero()}, {@link #compareTo}, {@code equals}
 * by numeric value, {@code toString()} in Kubernetes' canonical form.
 */
public final class Quantity implements Comparable<Quantity> {
  public static final Quantity ZERO = new Quantity(BigDecimal.ZERO);
  private final BigDecimal value;

  private Quantity(BigDecimal value) {
    this.value = value;
  }

  /** Parses a Kubernetes quantity string such as {@code 100m}, {@code 1.5}, {@code 2e3}, {@code 1Gi}. */
  public static Quantity parse(String s) {
    Objects.requireNonNull(s, "quantity");
    try {
      String t = s.trim();
      if (t.endsWith("m")) {
        return new Quantity(new BigDecimal(t.substring(0, t.length() - 1)).movePointLeft(3));
      }
      if (t.endsWith("Gi")) {
        return new Quantity(new BigDecimal(t.substring(0, t.length() - 2)).multiply(BigDecimal.valueOf(1L << 30)));
      }
      if (t.endsWith("Mi")) {
        return new Quantity(new BigDecimal(t.substring(0, t.length() - 2)).multiply(BigDecimal.valueOf(1L << 20)));
      }
      if (t.endsWith("Ki")) {
        return new Quantity(new BigDecimal(t.substring(0, t.length() - 2)).multiply(BigDecimal.valueOf(1L << 10)));
      }
      return new Quantity(new BigDecimal(t));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("quantity \"" + s + "\" must match the regular expression "
          + "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'");
    }
  }

  public static Quantity ofMilli(long milli) {
    return new Quantity(BigDecimal.valueOf(milli, 3));
  }

  public static Quantity of(long units) {
    return new Quantity(BigDecimal.valueOf(units));
  }

  public static Quantity ofBytes(long bytes) {
    return of(bytes);
  }

  /** The value in thousandths, rounded up. */
  public long milliValue() {
    return value.movePointRight(3).setScale(0, RoundingMode.CEILING).longValueExact();
  }

  /** The value in whole units, rounded up. */
  public long value() {
    return value.setScale(0, RoundingMode.CEILING).longValueExact();
  }

  public BigDecimal toBigDecimal() {
    return value;
  }

  public Quantity add(Quantity o) {
    return new Quantity(value.add(o.value));
  }

  public Quantity subtract(Quantity o) {
    return new Quantity(value.subtract(o.value));
  }

  public int signum() {
    return value.signum();
  }

  public boolean isZero() {
    return value.signum() == 0;
  }

  @Override
  public int compareTo(Quantity o) {
    return value.compareTo(o.value);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Quantity q && q.value.compareTo(value) == 0;
  }

  @Override
  public int hashCode() {
    return value.stripTrailingZeros().hashCode();
  }

  @Override
  public String toString() {
    return value.stripTrailingZeros().toPlainString();
  }
}
