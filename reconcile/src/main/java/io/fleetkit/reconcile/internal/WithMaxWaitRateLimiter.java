package io.fleetkit.reconcile.internal;

import io.fleetkit.reconcile.RateLimiter;
import java.time.Duration;
import java.util.Objects;

/** Caps another limiter's delay; see client-go {@code WithMaxWaitRateLimiter}. */
public final class WithMaxWaitRateLimiter<T> implements RateLimiter<T> {
  private final RateLimiter<T> limiter;
  private final Duration maxWait;

  public WithMaxWaitRateLimiter(RateLimiter<T> limiter, Duration maxWait) {
    this.limiter = Objects.requireNonNull(limiter, "limiter");
    this.maxWait = Objects.requireNonNull(maxWait, "maxWait");
    if (maxWait.isNegative()) {
      throw new IllegalArgumentException("withMaxWait: maxWait must not be negative but was " + maxWait);
    }
  }

  @Override
  public Duration when(T item) {
    Duration d = limiter.when(item);
    return d.compareTo(maxWait) > 0 ? maxWait : d;
  }

  @Override
  public void forget(T item) {
    limiter.forget(item);
  }

  @Override
  public int numRequeues(T item) {
    return limiter.numRequeues(item);
  }
}
