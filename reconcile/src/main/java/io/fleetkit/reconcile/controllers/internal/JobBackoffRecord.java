package io.fleetkit.reconcile.controllers.internal;

import io.fleetkit.reconcile.ObjectKey;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A Job's pod-failure backoff record, upstream's {@code backoffRecord} ({@code pkg/controller/job/backoff_utils.go}):
 * the failures since the last success and the finish time of the latest of them. {@link JobBackoffStore} keeps one
 * per Job across syncs; new pods wait {@link #remainingTime}.
 *
 * @param key the Job
 * @param failuresAfterLastSuccess failed pods finished after the last succeeded one; not negative
 * @param lastFailureTime the finish time of the latest of them; {@code null} when there is none
 */
public record JobBackoffRecord(ObjectKey key, int failuresAfterLastSuccess, @Nullable Instant lastFailureTime) {
  public JobBackoffRecord {
    Objects.requireNonNull(key, "key");
    if (failuresAfterLastSuccess < 0) {
      throw new IllegalArgumentException("backoff record of job " + key + ": failuresAfterLastSuccess "
          + failuresAfterLastSuccess + " must not be negative");
    }
  }

  /** A record without failures. */
  public static JobBackoffRecord empty(ObjectKey key) {
    return new JobBackoffRecord(key, 0, null);
  }

  /**
   * Upstream's {@code getRemainingTime}: how long new pods still wait at {@code now}, {@link #delay} of the failures
   * counted from the last one; zero when there is none or the delay has passed.
   */
  public Duration remainingTime(Instant now, Duration initial, Duration max) {
    return remainingTime(failuresAfterLastSuccess, lastFailureTime, now, initial, max);
  }

  /**
   * Upstream's {@code getRemainingTimeForFailuresCount}: {@link #delay} of {@code failures} minus the time since
   * {@code lastFailure}, at least zero; zero for no failures.
   *
   * @throws NullPointerException {@code failures > 0} without a {@code lastFailure}
   */
  public static Duration remainingTime(int failures, @Nullable Instant lastFailure, Instant now, Duration initial,
      Duration max) {
    if (failures <= 0) {
      return Duration.ZERO;
    }
    Objects.requireNonNull(lastFailure, "lastFailure of " + failures + " failures");
    Duration left = delay(failures, initial, max).minus(Duration.between(lastFailure, now));
    return left.isNegative() ? Duration.ZERO : left;
  }

  /** {@code min(initial * 2^(failures-1), max)} for {@code failures >= 1}; zero for none. */
  public static Duration delay(int failures, Duration initial, Duration max) {
    if (failures <= 0) {
      return Duration.ZERO;
    }
    Duration d = initial;
    for (int i = 1; i < failures; i++) {
      d = d.multipliedBy(2);
      if (d.compareTo(max) >= 0) {
        return max;
      }
    }
    return d;
  }
}
