package io.fleetkit.reconcile.node;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * Per-key exponential backoff, a port of client-go's {@code util/flowcontrol.Backoff} without jitter (the kubelet
 * builds its container-restart backoff without jitter): {@link #next} starts a key at the initial delay and doubles
 * it on every further call up to the maximum; an entry not updated for more than twice the maximum counts as
 * expired and starts over. The kubelet's CrashLoopBackOff is {@link #kubelet} (10 s doubling to 300 s, so a
 * container that ran 10 minutes without crashing starts again at 10 s).
 *
 * <p>Not thread-safe: each {@link NodeAgent} owns one and uses it on the simulation thread.
 */
public final class RestartBackoff {
  /** The kubelet's initial container restart delay. */
  public static final Duration KUBELET_INITIAL = Duration.ofSeconds(10);
  /** The kubelet's maximum container restart delay ({@code MaxContainerBackOff}). */
  public static final Duration KUBELET_MAX = Duration.ofSeconds(300);

  private final Duration initial;
  private final Duration max;
  private final Supplier<Instant> clock;
  private final Map<String, Entry> entries = new HashMap<>();

  private static final class Entry {
    Duration backoff;
    Instant lastUpdate;

    Entry(Duration backoff, Instant lastUpdate) {
      this.backoff = backoff;
      this.lastUpdate = lastUpdate;
    }
  }

  /**
   * A backoff from {@code initial} doubling to {@code max}, reading the time from {@code clock}.
   *
   * @throws IllegalArgumentException if {@code initial} is not positive or {@code max} is below it
   */
  public RestartBackoff(Duration initial, Duration max, Supplier<Instant> clock) {
    Objects.requireNonNull(initial, "initial");
    Objects.requireNonNull(max, "max");
    this.clock = Objects.requireNonNull(clock, "clock");
    if (initial.isNegative() || initial.isZero()) {
      throw new IllegalArgumentException("restart backoff: initial delay " + initial + " must be positive");
    }
    if (max.compareTo(initial) < 0) {
      throw new IllegalArgumentException("restart backoff: max delay " + max + " must not be below initial "
          + initial);
    }
    this.initial = initial;
    this.max = max;
  }

  /** The kubelet's CrashLoopBackOff: 10 s doubling to 300 s. */
  public static RestartBackoff kubelet(Supplier<Instant> clock) {
    return new RestartBackoff(KUBELET_INITIAL, KUBELET_MAX, clock);
  }

  /** The current delay of {@code id}; zero when it has none. */
  public Duration get(String id) {
    Entry e = entries.get(id);
    return e == null ? Duration.ZERO : e.backoff;
  }

  /**
   * Records a failure of {@code id} that happened at {@code eventTime}: the first one (or the first after the entry
   * expired) sets the initial delay, later ones double it up to the maximum. The entry's update time is now.
   */
  public void next(String id, Instant eventTime) {
    Entry e = entries.get(id);
    Instant now = clock.get();
    if (e == null || hasExpired(eventTime, e.lastUpdate)) {
      entries.put(id, new Entry(initial, now));
    } else {
      Duration doubled = e.backoff.multipliedBy(2);
      e.backoff = doubled.compareTo(max) > 0 ? max : doubled;
      e.lastUpdate = now;
    }
  }

  /** Forgets {@code id} (a success). */
  public void reset(String id) {
    entries.remove(id);
  }

  /** Whether less than the current delay has passed since {@code eventTime} (upstream {@code IsInBackOffSince}). */
  public boolean isInBackOffSince(String id, Instant eventTime) {
    Entry e = entries.get(id);
    if (e == null || hasExpired(eventTime, e.lastUpdate)) {
      return false;
    }
    return Duration.between(eventTime, clock.get()).compareTo(e.backoff) < 0;
  }

  /** Whether {@code eventTime} is within the current delay of the last update (upstream IsInBackOffSinceUpdate). */
  public boolean isInBackOffSinceUpdate(String id, Instant eventTime) {
    Entry e = entries.get(id);
    if (e == null || hasExpired(eventTime, e.lastUpdate)) {
      return false;
    }
    return Duration.between(e.lastUpdate, eventTime).compareTo(e.backoff) < 0;
  }

  /** When the backoff of {@code id} that started at {@code eventTime} ends: {@code eventTime} plus the delay. */
  public Instant backoffEnd(String id, Instant eventTime) {
    return eventTime.plus(get(id));
  }

  /** Drops the entries not updated for more than twice the maximum delay (upstream {@code GC}). */
  public void gc() {
    Instant now = clock.get();
    for (Iterator<Entry> it = entries.values().iterator(); it.hasNext(); ) {
      if (hasExpired(now, it.next().lastUpdate)) {
        it.remove();
      }
    }
  }

  /** Whether {@code id} has an entry. */
  public boolean contains(String id) {
    return entries.containsKey(id);
  }

  private boolean hasExpired(Instant eventTime, Instant lastUpdate) {
    return Duration.between(lastUpdate, eventTime).compareTo(max.multipliedBy(2)) > 0;
  }
}
