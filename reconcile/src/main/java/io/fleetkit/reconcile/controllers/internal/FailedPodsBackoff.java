package io.fleetkit.reconcile.controllers.internal;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.Objects;

/**
 * Upstream's {@code flowcontrol.Backoff} as the DaemonSet controller uses it for failed daemon pods: per key, a delay
 * that starts at {@code initial}, doubles on each {@link #next} up to {@code max}, and is forgotten once nothing
 * happened for twice {@code max}. No jitter (upstream's controller creates it without). Thread-safe.
 */
public final class FailedPodsBackoff {
  /** Upstream's controller manager values: 1 s initial, 15 min max. */
  public static final Duration DEFAULT_INITIAL = Duration.ofSeconds(1);
  public static final Duration DEFAULT_MAX = Duration.ofMinutes(15);

  private record Entry(Duration backoff, Instant lastUpdate) {}

  private final Duration initial;
  private final Duration max;
  private final Map<String, Entry> entries = new HashMap<>();

  public FailedPodsBackoff(Duration initial, Duration max) {
    this.initial = Objects.requireNonNull(initial, "initial");
    this.max = Objects.requireNonNull(max, "max");
  }

  /** Upstream's {@code failedPodsBackoffKey}: the set's uid and the node's name. */
  public static String key(String dsUid, String nodeName) {
    return dsUid + "/" + nodeName;
  }

  /** The current delay of {@code key}; zero when it has none. */
  public synchronized Duration get(String key) {
    Entry e = entries.get(key);
    return e == null ? Duration.ZERO : e.backoff();
  }

  /** Starts or doubles the delay of {@code key} at {@code now}; entries expired by then are dropped. */
  public synchronized void next(String key, Instant now) {
    Entry e = entries.get(key);
    Duration d = e == null || expired(e, now) ? initial : min(e.backoff().multipliedBy(2), max);
    for (Iterator<Entry> it = entries.values().iterator(); it.hasNext(); ) {
      if (expired(it.next(), now)) {
        it.remove();
      }
    }
    entries.put(key, new Entry(d, now));
  }

  /** Whether {@code now} is within the delay of {@code key} since its last {@link #next}. */
  public synchronized boolean isInBackOffSinceUpdate(String key, Instant now) {
    Entry e = entries.get(key);
    if (e == null || expired(e, now)) {
      return false;
    }
    return Duration.between(e.lastUpdate(), now).compareTo(e.backoff()) < 0;
  }

  private boolean expired(Entry e, Instant now) {
    return Duration.between(e.lastUpdate(), now).compareTo(max.multipliedBy(2)) > 0;
  }

  private static Duration min(Duration a, Duration b) {
    return a.compareTo(b) <= 0 ? a : b;
  }
}
