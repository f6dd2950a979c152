package io.fleetkit.reconcile.internal;

import io.fleetkit.reconcile.RateLimiter;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/** {@code base * 2^failures}, capped at {@code max}; see client-go {@code ItemExponentialFailureRateLimiter}. */
public final class ItemExponentialFailureRateLimiter<T> implements RateLimiter<T> {
  private final Duration base;
  private final Duration max;
  private final Map<T, Integer> failures = new HashMap<>();

  public ItemExponentialFailureRateLimiter(Duration base, Duration max) {
    Objects.requireNonNull(base, "base");
    Objects.requireNonNull(max, "max");
    if (base.isNegative()) {
      throw new IllegalArgumentException("itemExponential: base delay must not be negative but was " + base);
    }
    if (max.compareTo(base) < 0) {
      throw new IllegalArgumentException("itemExponential: max delay " + max + " must be >= base delay " + base);
    }
    this.base = base;
    this.max = max;
  }

  @Override
  public synchronized Duration when(T item) {
    int exp = failures.getOrDefault(item, 0);
    failures.put(item, exp + 1);
    // As upstream: compute in floating point so that a large exponent saturates instead of overflowing.
    double backoff = base.toNanos() * Math.pow(2, exp);
    if (backoff >= Long.MAX_VALUE) {
      return max;
    }
    Duration d = Duration.ofNanos((long) backoff);
    return d.compareTo(max) > 0 ? max : d;
  }

  @Override
  public synchronized void forget(T item) {
    failures.remove(item);
  }

  @Override
  public synchronized int numRequeues(T item) {
    return failures.getOrDefault(item, 0);
  }

  @Override
  public String toString() {
    return "ItemExponentialFailureRateLimiter{base=" + base + ", max=" + max + "}";
  }
}
