package io.fleetkit.reconcile.internal;

import io.fleetkit.reconcile.RateLimiter;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/** Fast delay for the first attempts, slow afterwards; see client-go {@code ItemFastSlowRateLimiter}. */
public final class ItemFastSlowRateLimiter<T> implements RateLimiter<T> {
  private final Duration fast;
  private final Duration slow;
  private final int maxFastAttempts;
  private final Map<T, Integer> failures = new HashMap<>();

  public ItemFastSlowRateLimiter(Duration fast, Duration slow, int maxFastAttempts) {
    Objects.requireNonNull(fast, "fast");
    Objects.requireNonNull(slow, "slow");
    if (fast.isNegative() || slow.isNegative()) {
      throw new IllegalArgumentException("itemFastSlow: delays must not be negative but were fast=" + fast
          + ", slow=" + slow);
    }
    if (maxFastAttempts < 0) {
      throw new IllegalArgumentException("itemFastSlow: maxFastAttempts must not be negative but was "
          + maxFastAttempts);
    }
    this.fast = fast;
    this.slow = slow;
    this.maxFastAttempts = maxFastAttempts;
  }

  @Override
  public synchronized Duration when(T item) {
    int n = failures.merge(item, 1, Integer::sum);
    return n <= maxFastAttempts ? fast : slow;
  }

  @Override
  public synchronized void forget(T item) {
    failures.remove(item);
  }

  @Override
  public synchronized int numRequeues(T item) {
    return failures.getOrDefault(item, 0);
  }
}
