package io.fleetkit.api.simulation;

import java.time.Duration;
import java.util.Objects;

/**
 * One row of a {@link LoadShape#Csv} load: from {@code at} on, {@code requestsPerSecond}.
 *
 * @throws IllegalArgumentException if {@code requestsPerSecond} is negative, NaN or infinite
 */
public record RatePoint(Duration at, double requestsPerSecond) {
  public RatePoint {
    Objects.requireNonNull(at, "at");
    if (!(requestsPerSecond >= 0) || requestsPerSecond == Double.POSITIVE_INFINITY) {
      throw new IllegalArgumentException("rate point at " + at + ": requestsPerSecond " + requestsPerSecond
          + " must be a finite number greater than or equal to 0");
    }
  }
}
