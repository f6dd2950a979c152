package io.fleetkit.api.store;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** A test clock that moves only when told. */
final class MutableClock extends Clock {
  private volatile Instant now;

  MutableClock(Instant start) {
    now = start;
  }

  void advance(Duration d) {
    now = now.plus(d);
  }

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  @Override
  public Clock withZone(ZoneId zone) {
    throw new UnsupportedOperationException("fixed to UTC");
  }

  @Override
  public Instant instant() {
    return now;
  }
}
