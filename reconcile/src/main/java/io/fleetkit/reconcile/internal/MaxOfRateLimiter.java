package io.fleetkit.reconcile.internal;

import io.fleetkit.reconcile.RateLimiter;
import java.time.Duration;
import java.util.List;

/** The longest delay of several limiters; see client-go {@code MaxOfRateLimiter}. */
public final class MaxOfRateLimiter<T> implements RateLimiter<T> {
  private final List<RateLimiter<T>> limiters;

  public MaxOfRateLimiter(List<? extends RateLimiter<T>> limiters) {
    this.limiters = List.copyOf(limiters);
    if (this.limiters.isEmpty()) {
      throw new IllegalArgumentException("maxOf: needs at least one limiter but got none");
    }
  }

  @Override
  public Duration when(T item) {
    Duration max = Duration.ZERO;
    for (RateLimiter<T> l : limiters) {
      Duration d = l.when(item); // every limiter must count the attempt, so no short-circuit
      if (d.compareTo(max) > 0) {
        max = d;
      }
    }
    return max;
  }

  @Override
  public void forget(T item) {
    for (RateLimiter<T> l : limiters) {
      l.forget(item);
    }
  }

  @Override
  public int numRequeues(T item) {
    int max = 0;
    for (RateLimiter<T> l : limiters) {
      max = Math.max(max, l.numRequeues(item));
    }
    return max;
  }
}
