package io.fleetkit.api.simulation;

import java.time.Duration;
import java.util.Objects;

/** One row of a {@link LoadShape#Csv} load: from {@code at} on, {@code requestsPerSecond}. */
public record RatePoint(Duration at, double requestsPerSecond) {
  public RatePoint {
    Objects.requireNonNull(at, "at");
  }
}
