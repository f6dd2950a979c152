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
  /** Upstream's error classes ({@code cloudprovider.InstanceErrorClass}). */
  enum ErrorClass { OUT_OF_RESOURCES, OTHER }

  /** Why a pool was backed off: upstream's {@code InstanceErrorInfo}. */
  record ErrorInfo(ErrorClass errorClass, String errorCode, String errorMessage) {
    ErrorInfo {
      Objects.requireNonNull(errorClass, "errorClass");
      Objects.requireNonNull(errorCode, "errorCode");
      Objects.requireNonNull(errorMessage, "errorMessage");
    }
  }

  /** A pool's backoff: upstream's {@code exponentialBackoffInfo}. */
  record Entry(Duration duration, Instant until, Instant lastFailure, ErrorInfo error) {}

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
  Instant backoff(String pool, ErrorInfo error, Instant now) {
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
  @Nullable ErrorInfo status(String pool, Instant now) {
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

  /**
   * Go's {@code time.Duration.String()}, in which upstream's messages print durations: {@code 3m0s}, {@code 2m1s},
   * {@code 1h0m0s}, {@code 1.5s}, {@code 250ms}, {@code 0s}.
   */
  static String goDuration(Duration d) {
    if (d.isZero()) {
      return "0s";
    }
    if (d.isNegative()) {
      return "-" + goDuration(d.negated());
    }
    long nanos = d.toNanos();
    if (nanos < 1_000_000_000L) {
      String[] units = {"ns", "µs", "ms"};
      int u = nanos < 1_000 ? 0 : nanos < 1_000_000 ? 1 : 2;
      long scale = u == 0 ? 1 : u == 1 ? 1_000 : 1_000_000;
      return fraction(nanos / scale, nanos % scale, scale) + units[u];
    }
    long seconds = d.getSeconds();
    String s = fraction(seconds % 60, d.getNano(), 1_000_000_000L) + "s";
    long minutes = seconds / 60;
    if (minutes == 0) {
      return s;
    }
    long hours = minutes / 60;
    return (hours > 0 ? hours + "h" : "") + (minutes % 60) + "m" + s;
  }

  /** {@code whole} and {@code part / scale}, the fraction's trailing zeros dropped, as Go prints them. */
  private static String fraction(long whole, long part, long scale) {
    if (part == 0) {
      return Long.toString(whole);
    }
    StringBuilder digits = new StringBuilder(Long.toString(scale + part).substring(1));
    while (digits.charAt(digits.length() - 1) == '0') {
      digits.setLength(digits.length() - 1);
    }
    return whole + "." + digits;
  }

  /** How many pools have a backoff on record. */
  int size() {
    return entries.size();
  }
}
