package io.fleetkit.autoscale.cluster;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Which pools are backed off after a failed scale-up, by kubernetes/autoscaler's exponential backoff
 * ({@code cluster-autoscaler/utils/backoff/exponential_backoff.go}, keyed by pool as its id-based backoff):
 * <ul>
 *   <li>a pool's first failure backs it off for the initial duration;
 *   <li>a failure after its backoff ended doubles the duration (up to the maximum); a failure while it is still backed
 *       off keeps the duration and moves the end, so failures of one scale-up do not compound;
 *   <li>a pool is backed off up to and including the end instant;
 *   <li>a pool whose last failure is older than the reset timeout is forgotten ({@link #removeStale}, which the
 *       autoscaler calls every loop, as upstream's cluster state registry): its next failure starts again at the
 *       initial duration.
 * </ul>
 * Not thread-safe: the autoscaler holds it under its lock.
 */
final class NodeGroupBackoff {
  /** A pool's backoff: upstream's {@code exponentialBackoffInfo}. */
  record Entry(Duration duration, Instant until, Instant lastFailure, InstanceErrorInfo error) {}

  private final Duration initial;
  private final Duration max;
  private final Duration resetTimeout;
  private final Map<String, Entry> entries = new HashMap<>();

  NodeGroupBackoff(Duration initial, Duration max, Duration resetTimeout) {
    this.initial = Objects.requireNonNull(initial, "initial");
    this.max = Objects.requireNonNull(max, "max");
    this.resetTimeout = Objects.requireNonNull(resetTimeout, "resetTimeout");
  }

  /** Backs {@code pool} off after a failure at {@code now}; returns the instant its backoff ends. */
  Instant backoff(String pool, InstanceErrorInfo error, Instant now) {
    Duration d = initial;
    Entry e = entries.get(pool);
    if (e != null) {
      d = e.duration();
      if (e.until().isBefore(now)) { // out of backoff, but failed recently: longer this time
        d = d.multipliedBy(2);
        if (d.compareTo(max) > 0) {
          d = max;
        }
      }
    }
    Instant until = now.plus(d);
    entries.put(pool, new Entry(d, until, now, error));
    return until;
  }

  /** The error {@code pool} is backed off for at {@code now}, or {@code null} when it is not backed off. */
  @Nullable InstanceErrorInfo status(String pool, Instant now) {
    Entry e = entries.get(pool);
    return e == null || e.until().isBefore(now) ? null : e.error();
  }

  /** The backoff of {@code pool}, or {@code null} if it has none on record. */
  @Nullable Entry entry(String pool) {
    return entries.get(pool);
  }

  /** Forgets {@code pool}'s backoff. */
  void remove(String pool) {
    entries.remove(pool);
  }

  /** Forgets every pool whose last failure is more than the reset timeout before {@code now}. */
  void removeStale(Instant now) {
    entries.values().removeIf(e -> e.lastFailure().plus(resetTimeout).isBefore(now));
  }

  /** How many pools have a backoff on record. */
  int size() {
    return entries.size();
  }
}
