package io.fleetkit.reconcile.internal;

import io.fleetkit.reconcile.RateLimiter;
import io.fleetkit.api.time.TimerClock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * One token bucket for all items, with the reservation semantics of {@code golang.org/x/time/rate.Limiter}:
 * tokens refill at {@code qps} up to {@code burst}; each call takes one token, going into debt if needed, and
 * the delay is the time until the debt is repaid. See client-go {@code BucketRateLimiter}.
 */
public final class BucketRateLimiter<T> implements RateLimiter<T> {
  private final double qps;
  private final int burst;
  private final TimerClock clock;
  private double tokens;
  private Instant last;

  public BucketRateLimiter(double qps, int burst, TimerClock clock) {
    if (!(qps > 0) || Double.isInfinite(qps)) {
      throw new IllegalArgumentException("bucket: qps must be positive and finite but was " + qps);
    }
    if (burst < 1) {
      throw new IllegalArgumentException("bucket: burst must be at least 1 but was " + burst);
    }
    this.qps = qps;
    this.burst = burst;
    this.clock = Objects.requireNonNull(clock, "clock");
    this.tokens = burst;
    this.last = clock.now();
  }

  @Override
  public synchronized Duration when(T item) {
    Instant now = clock.now();
    if (now.isAfter(last)) {
      double elapsed = Duration.between(last, now).toNanos() / 1e9;
      tokens = Math.min(burst, tokens + elapsed * qps);
      last = now;
    }
    tokens -= 1;
    if (tokens >= 0) {
      return Duration.ZERO;
    }
    return Duration.ofNanos((long) (-tokens * 1e9 / qps)); // truncated, as Go's durationFromTokens
  }

  @Override
  public void forget(T item) {
    // the bucket is shared by all items; nothing per item to forget
  }

  @Override
  public int numRequeues(T item) {
    return 0;
  }

  @Override
  public String toString() {
    return "BucketRateLimiter{qps=" + qps + ", burst=" + burst + "}";
  }
}
