package io.fleetkit.api.gateway;

/**
 * A share of requests, {@code numerator / denominator}: 0 &lt;= numerator &lt;= denominator, denominator at least
 * 1 (the API's default is 100). {@link HTTPRoute} checks it with the API's messages.
 */
public record Fraction(int numerator, int denominator) {
  /** The API's default denominator. */
  public static final int DEFAULT_DENOMINATOR = 100;
}
