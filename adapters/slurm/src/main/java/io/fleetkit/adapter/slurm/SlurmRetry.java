package io.fleetkit.adapter.slurm;

import java.time.Duration;
import java.util.Objects;

/**
 * How connection failures and timeouts are retried: up to {@code maxAttempts} attempts in all, waiting
 * {@code initialBackoff}, then twice as long each time, at most {@code maxBackoff}. Rejections (Slurm answered
 * with an error) are never retried.
 */
public record SlurmRetry(int maxAttempts, Duration initialBackoff, Duration maxBackoff) {
  /** 5 attempts, 200 ms doubling up to 3 s (about 5 s of waiting in all). */
  public static final SlurmRetry DEFAULT = new SlurmRetry(5, Duration.ofMillis(200), Duration.ofSeconds(3));
  /** One attempt, no retry. */
  public static final SlurmRetry NONE = new SlurmRetry(1, Duration.ZERO, Duration.ZERO);

  public SlurmRetry {
    Objects.requireNonNull(initialBackoff, "initialBackoff");
    Objects.requireNonNull(maxBackoff, "maxBackoff");
    if (maxAttempts < 1) {
      throw new IllegalArgumentException("slurm retry: maxAttempts " + maxAttempts + " must be at least 1");
    }
    if (initialBackoff.isNegative() || maxBackoff.compareTo(initialBackoff) < 0) {
      throw new IllegalArgumentException("slurm retry: backoff must satisfy 0 <= initialBackoff (" + initialBackoff
          + ") <= maxBackoff (" + maxBackoff + ")");
    }
  }

  /** The wait after failed attempt number {@code attempt} (1-based). */
  public Duration backoffAfter(int attempt) {
    if (attempt < 1) {
      throw new IllegalArgumentException("slurm retry: attempt " + attempt + " must be at least 1");
    }
    Duration d = initialBackoff;
    for (int i = 1; i < attempt && d.compareTo(maxBackoff) < 0; i++) {
      d = d.multipliedBy(2);
    }
    return d.compareTo(maxBackoff) > 0 ? maxBackoff : d;
  }
}
