package io.fleetkit.queueing.backfill;

import java.time.Duration;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A Slurm partition as far as priority and time limits go.
 *
 * @param name the partition name
 * @param priorityJobFactor {@code PriorityJobFactor}: the partition factor is this over the largest one
 * @param priorityTier {@code PriorityTier}: jobs of a higher tier are considered before any job of a lower tier
 * @param defaultTime {@code DefaultTime}: the time limit of jobs that set none ({@code null}: {@code maxTime})
 * @param maxTime {@code MaxTime}: the largest time limit a job may ask for ({@code null}: unlimited)
 */
public record Partition(
    String name, int priorityJobFactor, int priorityTier, @Nullable Duration defaultTime, @Nullable Duration maxTime) {
  public Partition {
    Objects.requireNonNull(name, "name");
    if (priorityJobFactor < 0 || priorityTier < 0) {
      throw new IllegalArgumentException("partition " + name + ": PriorityJobFactor " + priorityJobFactor
          + " and PriorityTier " + priorityTier + " must not be negative");
    }
    for (Duration d : new Duration[] {defaultTime, maxTime}) {
      if (d != null && (d.isNegative() || d.isZero())) {
        throw new IllegalArgumentException("partition " + name + ": time limit " + d + " must be positive");
      }
    }
    if (defaultTime != null && maxTime != null && defaultTime.compareTo(maxTime) > 0) {
      throw new IllegalArgumentException("partition " + name + ": DefaultTime " + defaultTime
          + " must not exceed MaxTime " + maxTime);
    }
  }

  /** A partition with factor 1, tier 1 and the given limits. */
  public static Partition of(String name, @Nullable Duration defaultTime, @Nullable Duration maxTime) {
    return new Partition(name, 1, 1, defaultTime, maxTime);
  }
}
