package io.fleetkit.adapter.kubernetes.scheduler;

import java.time.Duration;
import java.util.Objects;

/**
 * Leader election on a coordination.k8s.io/v1 Lease, with kube-scheduler's defaults (lease 15 s, renew deadline
 * 10 s, retry 2 s). Only the replica holding the lease binds pods; the others keep their informers warm and take over
 * when the lease expires (or at once when the leader closes and releases it).
 *
 * @param namespace the Lease's namespace
 * @param leaseName the Lease's name
 * @param identity this replica's identity (the pod name, typically); must differ between replicas
 * @param leaseDuration how long a lease is valid without renewal; followers wait this long before taking over
 * @param renewDeadline how long the leader keeps retrying a renewal before it gives up leading; below
 *     {@code leaseDuration}, so that a leader stops binding before anyone else may start
 * @param retryPeriod how often candidates try to acquire and the leader renews
 */
public record LeaderElection(String namespace, String leaseName, String identity, Duration leaseDuration,
    Duration renewDeadline, Duration retryPeriod) {
  /** The default Lease name. */
  public static final String DEFAULT_LEASE_NAME = "fleetkit-scheduler";

  public LeaderElection {
    nonEmpty("namespace", namespace);
    nonEmpty("leaseName", leaseName);
    nonEmpty("identity", identity);
    positive("leaseDuration", leaseDuration);
    positive("renewDeadline", renewDeadline);
    positive("retryPeriod", retryPeriod);
    if (renewDeadline.compareTo(leaseDuration) >= 0) {
      throw new IllegalArgumentException("leader election: renewDeadline " + renewDeadline
          + " must be shorter than leaseDuration " + leaseDuration);
    }
    // fabric8's elector jitters the retry period by up to 20% and requires the renew deadline to exceed that.
    if (renewDeadline.toMillis() <= retryPeriod.toMillis() * 12 / 10) {
      throw new IllegalArgumentException("leader election: renewDeadline " + renewDeadline
          + " must be longer than 1.2 x retryPeriod " + retryPeriod);
    }
  }

  /** kube-scheduler's timings (15 s / 10 s / 2 s) on the Lease {@value #DEFAULT_LEASE_NAME} in {@code namespace}. */
  public static LeaderElection of(String namespace, String identity) {
    return new LeaderElection(namespace, DEFAULT_LEASE_NAME, identity, Duration.ofSeconds(15),
        Duration.ofSeconds(10), Duration.ofSeconds(2));
  }

  /** This configuration with other timings. */
  public LeaderElection withTimings(Duration leaseDuration, Duration renewDeadline, Duration retryPeriod) {
    return new LeaderElection(namespace, leaseName, identity, leaseDuration, renewDeadline, retryPeriod);
  }

  private static void nonEmpty(String field, String value) {
    Objects.requireNonNull(value, field);
    if (value.isEmpty()) {
      throw new IllegalArgumentException("leader election: " + field + " must not be empty");
    }
  }

  private static void positive(String field, Duration d) {
    Objects.requireNonNull(d, field);
    if (d.isNegative() || d.isZero()) {
      throw new IllegalArgumentException("leader election: " + field + " " + d + " must be positive");
    }
  }
}
