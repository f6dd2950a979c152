package io.fleetkit.reconcile;

import io.fleetkit.api.time.TimerClock;
import io.fleetkit.reconcile.internal.DefaultWorkQueue;
import java.time.Duration;

/**
 * A {@link WorkQueue} that can add an item later, as client-go's {@code DelayingInterface}: delayed items wait
 * on the queue's {@link TimerClock} and are {@link #add added} when due, earliest first. An item waiting
 * twice keeps the earlier time.
 *
 * @param <T> the item type
 */
public interface DelayingQueue<T> extends WorkQueue<T> {

  /** A delaying queue on {@code clock}. */
  static <T> DelayingQueue<T> create(TimerClock clock) {
    return new DefaultWorkQueue<>(clock, RateLimiters.itemExponential(Duration.ZERO, Duration.ZERO));
  }

  /**
   * Adds {@code item} after {@code delay} ({@code <= 0}: now). If it is already waiting, the earlier time wins.
   * Ignored once the queue is shutting down.
   */
  void addAfter(T item, Duration delay);

  /** How many items are waiting for their time (each distinct item counted once). */
  int waitingLen();
}
