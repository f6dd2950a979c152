package io.fleetkit.reconcile;

import io.fleetkit.api.time.TimerClock;
import io.fleetkit.reconcile.internal.DefaultWorkQueue;

/**
 * A {@link DelayingQueue} whose retries are paced by a {@link RateLimiter}, as client-go's
 * {@code RateLimitingInterface}. The usual worker loop:
 * <pre>{@code
 * Optional<K> key = queue.get();          // empty: shutting down
 * try {
 *   if (sync(key)) queue.forget(key);      // success resets the backoff
 *   else queue.addRateLimited(key);        // failure: retry after the limiter's delay
 * } finally {
 *   queue.done(key);
 * }
 * }</pre>
 *
 * @param <T> the item type
 */
public interface RateLimitingQueue<T> extends DelayingQueue<T> {

  /** A rate-limited queue on {@code clock} with {@link RateLimiters#defaultController}. */
  static <T> RateLimitingQueue<T> create(TimerClock clock) {
    return new DefaultWorkQueue<>(clock, RateLimiters.defaultController(clock));
  }

  /** A rate-limited queue on {@code clock} with {@code limiter}. */
  static <T> RateLimitingQueue<T> create(TimerClock clock, RateLimiter<T> limiter) {
    return new DefaultWorkQueue<>(clock, limiter);
  }

  /**
   * A rate-limited queue on {@code clock} with {@code limiter} whose client-go metrics
   * ({@link io.fleetkit.reconcile.metrics.WorkQueueMetrics}) are recorded into {@code registry} under the label
   * {@code name=<name>}; an empty name records nothing.
   */
  static <T> RateLimitingQueue<T> create(TimerClock clock, RateLimiter<T> limiter, String name,
      io.fleetkit.api.metrics.MetricsRegistry registry) {
    return new DefaultWorkQueue<>(clock, limiter, name, registry);
  }

  /** Adds {@code item} after the delay the rate limiter gives it (which counts one requeue). */
  void addRateLimited(T item);

  /** Resets the rate limiter's memory of {@code item} (call on success or when giving up). */
  void forget(T item);

  /** How many times {@code item} was rate-limited since it was last forgotten. */
  int numRequeues(T item);
}
