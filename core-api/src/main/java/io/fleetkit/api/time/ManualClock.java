package io.fleetkit.api.time;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Objects;

/**
 * A UTC clock that stands still until {@link #advance} or {@link #set} moves it. Thread-safe: readers always see
 * the latest instant set.
 */
public final class ManualClock extends Clock {
  private volatile Instant now;

  public ManualClock(Instant start) {
    this.now = Objects.requireNonNull(start, "start");
  }

  /** A clock starting at 2026-01-01T00:00:00Z. */
  public static ManualClock atEpoch2026() {
    return new ManualClock(Instant.parse("2026-01-01T00:00:00Z"));
  }

  /**
   * Moves the clock forward.
   *
   * @throws IllegalArgumentException if {@code d} is negative
   */
  public synchronized void advance(Duration d) {
    if (d.isNegative()) {
      throw new IllegalArgumentException("manual clock: advance " + d + " must not be negative");
    }
    now = now.plus(d);
  }

  /**
   * Sets the clock to {@code instant}.
   *
   * @throws IllegalArgumentException if {@code instant} is before the current instant (time never goes back)
   */
  public synchronized void set(Instant instant) {
    if (instant.isBefore(now)) {
      throw new IllegalArgumentException("manual clock: " + instant + " is before the current " + now);
    }
    now = instant;
  }

  @Override
  public Instant instant() {
    return now;
  }

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  /** This clock (it is always UTC; the zone only matters for formatting). */
  @Override
  public Clock withZone(ZoneId zone) {
    return this;
  }

  @Override
  public String toString() {
    return "ManualClock(" + now + ")";
  }
}
