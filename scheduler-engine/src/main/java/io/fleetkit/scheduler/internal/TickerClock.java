package io.fleetkit.scheduler.internal;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.function.LongSupplier;

/**
 * A UTC clock over a nanosecond ticker (nanoseconds since the epoch), which plugins see when the scheduler was built
 * with a ticker instead of a clock. Thread-safe if the ticker is.
 */
final class TickerClock extends Clock {
  private final LongSupplier ticker;

  TickerClock(LongSupplier ticker) {
    this.ticker = ticker;
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
    long t = ticker.getAsLong();
    return Instant.ofEpochSecond(Math.floorDiv(t, 1_000_000_000L), Math.floorMod(t, 1_000_000_000L));
  }
}
