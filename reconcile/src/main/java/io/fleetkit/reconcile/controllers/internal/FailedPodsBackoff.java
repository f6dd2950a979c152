package io.fleetkit.reconcile.controllers.internal;

import io.fleetkit.reconcile.node.RestartBackoff;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * The DaemonSet controller's {@code failedPodsBackoff}: client-go's {@code flowcontrol.Backoff} (the one port,
 * {@link RestartBackoff}) keyed by set and node, with the controller manager's values (1 s doubling to 15 min, no
 * jitter), expired entries collected on every {@link #next} (upstream's controller runs its {@code GC} once a
 * minute). Thread-safe: the controller's workers share it.
 */
public final class FailedPodsBackoff {
  /** Upstream's controller manager values: 1 s initial, 15 min max. */
  public static final Duration DEFAULT_INITIAL = Duration.ofSeconds(1);
  public static final Duration DEFAULT_MAX = Duration.ofMinutes(15);

  private final RestartBackoff backoff;

  /** @param clock the controller's clock: the time an entry is updated */
  public FailedPodsBackoff(Duration initial, Duration max, Supplier<Instant> clock) {
    this.backoff = new RestartBackoff(initial, max, Objects.requireNonNull(clock, "clock"));
  }

  /** Upstream's {@code failedPodsBackoffKey}: the set's uid and the node's name. */
  public static String key(String dsUid, String nodeName) {
    return dsUid + "/" + nodeName;
  }

  /** The current delay of {@code key}; zero when it has none. */
  public synchronized Duration get(String key) {
    return backoff.get(key);
  }

  /** Starts or doubles the delay of {@code key} for a failure seen at {@code now}. */
  public synchronized void next(String key, Instant now) {
    backoff.gc();
    backoff.next(key, now);
  }

  /** Whether {@code now} is within the delay of {@code key} since its last {@link #next}. */
  public synchronized boolean isInBackOffSinceUpdate(String key, Instant now) {
    return backoff.isInBackOffSinceUpdate(key, now);
  }
}
