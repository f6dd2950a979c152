package io.fleetkit.observability.events;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** apimachinery's {@code clock.IntervalClock}: every read returns the time, then advances it by a fixed step. */
final class IntervalClock extends Clock {
  private Instant time;
  private final Duration step;

  IntervalClock(Instant start, Duration step) {
    this.time = start;
    this.step = step;
  }

  @Override
  public synchronized Instant instant() {
    Instant t = time;
    time = time.plus(step);
    return t;
  }

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  @Override
  public Clock withZone(ZoneId zone) {
    throw new UnsupportedOperationException();
  }
}
