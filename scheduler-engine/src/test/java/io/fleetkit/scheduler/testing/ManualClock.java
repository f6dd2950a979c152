package io.fleetkit.scheduler.testing;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** A clock that moves only when told to. Not thread-safe beyond visibility of the current instant. */
public final class ManualClock extends Clock {
  private volatile Instant now;

  public ManualClock() {
    this(Instant.parse("2026-01-01T00:00:00Z"));
  }

  public ManualClock(Instant start) {
    this.now = start;
  }

  public void advance(Duration d) {
    now = now.plus(d);
  }

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  @Override
  public Clock withZone(ZoneId zone) {
    return this;
  }

  @Override
  public Instant instant() {
    return now;
  }
}
