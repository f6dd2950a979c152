package io.fleetkit.simulator;

import java.time.Duration;

/**
 * How far a run has got, reported after every sample.
 *
 * @param simulated simulated time reached
 * @param total the run's simulated duration
 * @param wallNanos wall time since the run started
 * @param events timeline events so far
 */
public record Progress(Duration simulated, Duration total, long wallNanos, int events) {
  /** Timeline events per wall second. */
  public double eventsPerSecond() {
    return wallNanos == 0 ? 0 : events * 1e9 / wallNanos;
  }
}
