package io.fleetkit.reconcile;

import java.time.Duration;

/**
 * Decides how long an item waits before it is retried, as client-go's {@code workqueue.TypedRateLimiter}. Get
 * instances from {@link RateLimiters}. Implementations are thread-safe.
 *
 * @param <T> the item type (compared by {@code equals})
 */
public interface RateLimiter<T> {
  /** How long {@code item} should wait now; counts as one more requeue of it. */
  Duration when(T item);

  /** Stops tracking {@code item}: its failures are reset (it succeeded or was given up). */
  void forget(T item);

  /** How many times {@code item} has been rate-limited since it was last forgotten. */
  int numRequeues(T item);
}
