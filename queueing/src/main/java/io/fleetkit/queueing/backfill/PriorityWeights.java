package io.fleetkit.queueing.backfill;

import java.time.Duration;
import java.util.Objects;

/**
 * The {@code slurm.conf} settings of {@code priority/multifactor}. Weights are unsigned 32-bit integers.
 *
 * @param age {@code PriorityWeightAge}
 * @param fairShare {@code PriorityWeightFairshare}
 * @param jobSize {@code PriorityWeightJobSize}
 * @param partition {@code PriorityWeightPartition}
 * @param qos {@code PriorityWeightQOS}
 * @param maxAge {@code PriorityMaxAge} (default 7 days): the wait at which the age factor reaches 1
 * @param favorSmall {@code PriorityFavorSmall}
 * @param smallRelativeToTime {@code PriorityFlags=SMALL_RELATIVE_TO_TIME}
 */
public record PriorityWeights(
    long age,
    long fairShare,
    long jobSize,
    long partition,
    long qos,
    Duration maxAge,
    boolean favorSmall,
    boolean smallRelativeToTime) {
  /** The largest weight Slurm accepts. */
  public static final long MAX_WEIGHT = 0xFFFF_FFFFL;
  /** Slurm's default {@code PriorityMaxAge}, 7-0. */
  public static final Duration DEFAULT_MAX_AGE = Duration.ofDays(7);

  public PriorityWeights {
    Objects.requireNonNull(maxAge, "maxAge");
    long[] w = {age, fairShare, jobSize, partition, qos};
    String[] n = {"PriorityWeightAge", "PriorityWeightFairshare", "PriorityWeightJobSize", "PriorityWeightPartition",
        "PriorityWeightQOS"};
    for (int i = 0; i < w.length; i++) {
      if (w[i] < 0 || w[i] > MAX_WEIGHT) {
        throw new IllegalArgumentException("priority weights: " + n[i] + " " + w[i] + " must be in [0, " + MAX_WEIGHT
            + "]");
      }
    }
    if (maxAge.isNegative() || maxAge.isZero()) {
      throw new IllegalArgumentException("priority weights: PriorityMaxAge " + maxAge + " must be positive");
    }
  }

  /** The given weights with PriorityMaxAge 7 days, favouring large jobs. */
  public static PriorityWeights of(long age, long fairShare, long jobSize, long partition, long qos) {
    return new PriorityWeights(age, fairShare, jobSize, partition, qos, DEFAULT_MAX_AGE, false, false);
  }

  public PriorityWeights withMaxAge(Duration maxAge) {
    return new PriorityWeights(age, fairShare, jobSize, partition, qos, maxAge, favorSmall, smallRelativeToTime);
  }

  public PriorityWeights withFavorSmall(boolean favorSmall) {
    return new PriorityWeights(age, fairShare, jobSize, partition, qos, maxAge, favorSmall, smallRelativeToTime);
  }

  public PriorityWeights withSmallRelativeToTime(boolean smallRelativeToTime) {
    return new PriorityWeights(age, fairShare, jobSize, partition, qos, maxAge, favorSmall, smallRelativeToTime);
  }
}
