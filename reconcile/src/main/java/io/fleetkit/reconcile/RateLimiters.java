package io.fleetkit.reconcile;

import io.fleetkit.api.time.TimerClock;
import io.fleetkit.reconcile.internal.BucketRateLimiter;
import io.fleetkit.reconcile.internal.ItemExponentialFailureRateLimiter;
import io.fleetkit.reconcile.internal.ItemFastSlowRateLimiter;
import io.fleetkit.reconcile.internal.MaxOfRateLimiter;
import io.fleetkit.reconcile.internal.WithMaxWaitRateLimiter;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/** Factories for the rate limiters of client-go's {@code util/workqueue/default_rate_limiters.go}. */
public final class RateLimiters {
  /** Per-item base delay of {@link #defaultController}: 5 ms. */
  public static final Duration DEFAULT_BASE_DELAY = Duration.ofMillis(5);
  /** Per-item maximum delay of {@link #defaultController}: 1000 s. */
  public static final Duration DEFAULT_MAX_DELAY = Duration.ofSeconds(1000);
  /** Overall rate of {@link #defaultController}: 10 items per second. */
  public static final double DEFAULT_QPS = 10;
  /** Overall burst of {@link #defaultController}: 100 items. */
  public static final int DEFAULT_BURST = 100;

  private RateLimiters() {}

  /**
   * {@code DefaultControllerRateLimiter}: the maximum of a per-item exponential backoff (5 ms doubling to 1000 s)
   * and an overall token bucket (10 qps, burst 100) on {@code clock}.
   */
  public static <T> RateLimiter<T> defaultController(TimerClock clock) {
    return maxOf(List.of(itemExponential(DEFAULT_BASE_DELAY, DEFAULT_MAX_DELAY),
        bucket(DEFAULT_QPS, DEFAULT_BURST, clock)));
  }

  /**
   * {@code ItemExponentialFailureRateLimiter}: {@code base * 2^failures(item)}, capped at {@code max} (overflow
   * safe); each call counts one failure.
   *
   * @throws IllegalArgumentException if {@code base} is negative or {@code max < base}
   */
  public static <T> RateLimiter<T> itemExponential(Duration base, Duration max) {
    return new ItemExponentialFailureRateLimiter<>(base, max);
  }

  /**
   * {@code ItemFastSlowRateLimiter}: {@code fast} for the first {@code maxFastAttempts} calls per item, then
   * {@code slow}.
   *
   * @throws IllegalArgumentException if a delay is negative or {@code maxFastAttempts < 0}
   */
  public static <T> RateLimiter<T> itemFastSlow(Duration fast, Duration slow, int maxFastAttempts) {
    return new ItemFastSlowRateLimiter<>(fast, slow, maxFastAttempts);
  }

  /**
   * {@code BucketRateLimiter}: one token bucket for all items ({@code golang.org/x/time/rate} reservation
   * semantics: a call takes a token even if none is available and waits for it). Does not track items.
   *
   * @throws IllegalArgumentException if {@code qps <= 0} or {@code burst < 1}
   */
  public static <T> RateLimiter<T> bucket(double qps, int burst, TimerClock clock) {
    return new BucketRateLimiter<>(qps, burst, clock);
  }

  /**
   * {@code MaxOfRateLimiter}: asks every limiter, returns the longest delay; {@code numRequeues} is the maximum,
   * {@code forget} goes to all.
   *
   * @throws IllegalArgumentException if {@code limiters} is empty
   */
  public static <T> RateLimiter<T> maxOf(List<? extends RateLimiter<T>> limiters) {
    return new MaxOfRateLimiter<>(limiters);
  }

  /** {@code WithMaxWaitRateLimiter}: {@code limiter}'s delay, capped at {@code maxWait}. */
  public static <T> RateLimiter<T> withMaxWait(RateLimiter<T> limiter, Duration maxWait) {
    Objects.requireNonNull(limiter, "limiter");
    return new WithMaxWaitRateLimiter<>(limiter, maxWait);
  }
}
