package io.fleetkit.reconcile;

import java.time.Duration;
import java.util.Objects;

/**
 * Leader-election settings with client-go's meaning and checks ({@code leaderelection.NewLeaderElector}).
 *
 * @param namespace namespace of the lock object
 * @param name name of the lock object
 * @param identity this candidate's unique identity
 * @param leaseDuration how long non-leaders wait after the last observed change of the lock before they may take
 *     it over
 * @param renewDeadline how long a leader keeps leading without a successful renewal; must be less than
 *     {@code leaseDuration}, so a leader always steps down before anyone else may take over
 * @param retryPeriod how often candidates try to acquire and leaders renew
 * @param releaseOnClose whether {@link LeaderElector#close()} releases a held lease so others need not wait
 */
public record LeaderElectionConfig(String namespace, String name, String identity, Duration leaseDuration,
    Duration renewDeadline, Duration retryPeriod, boolean releaseOnClose) {
  /** client-go's {@code JitterFactor}: renewDeadline must exceed this times retryPeriod. */
  public static final double JITTER_FACTOR = 1.2;

  public LeaderElectionConfig {
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(identity, "identity");
    Objects.requireNonNull(leaseDuration, "leaseDuration");
    Objects.requireNonNull(renewDeadline, "renewDeadline");
    Objects.requireNonNull(retryPeriod, "retryPeriod");
    String who = "leader election " + namespace + "/" + name + ": ";
    if (name.isEmpty() || identity.isEmpty()) {
      throw new IllegalArgumentException(who + "name and identity must not be empty (identity \"" + identity
          + "\")");
    }
    if (!positive(leaseDuration) || !positive(renewDeadline) || !positive(retryPeriod)) {
      throw new IllegalArgumentException(who + "leaseDuration, renewDeadline and retryPeriod must be positive but"
          + " were " + leaseDuration + ", " + renewDeadline + ", " + retryPeriod);
    }
    if (leaseDuration.compareTo(renewDeadline) <= 0) {
      throw new IllegalArgumentException(who + "leaseDuration " + leaseDuration
          + " must be greater than renewDeadline " + renewDeadline);
    }
    if (renewDeadline.toNanos() <= JITTER_FACTOR * retryPeriod.toNanos()) {
      throw new IllegalArgumentException(who + "renewDeadline " + renewDeadline + " must be greater than "
          + JITTER_FACTOR + " * retryPeriod " + retryPeriod);
    }
  }

  private static boolean positive(Duration d) {
    return !d.isNegative() && !d.isZero();
  }

  /** The usual timings: lease 15 s, renew deadline 10 s, retry 2 s, release on close. */
  public static LeaderElectionConfig of(String namespace, String name, String identity) {
    return new LeaderElectionConfig(namespace, name, identity, Duration.ofSeconds(15), Duration.ofSeconds(10),
        Duration.ofSeconds(2), true);
  }
}
