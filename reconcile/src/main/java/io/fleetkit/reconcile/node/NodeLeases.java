package io.fleetkit.reconcile.node;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The kubelets' node Leases (kube's {@code kube-node-lease} namespace, one {@code coordination.k8s.io} Lease per node)
 * as a table whose renew times are computed when read. A kubelet renews its Lease every renew interval (10 s: a
 * quarter of {@code nodeLeaseDurationSeconds} 40) and posts the node's status only when it changes or every
 * {@code nodeStatusReportFrequency} (5 min); the node lifecycle controller counts a Lease renewal as a heartbeat
 * (upstream {@code tryUpdateNodeHealth}: a newer {@code spec.renewTime} moves the probe timestamp).
 *
 * <p>A running kubelet's renew time is the last tick of its grid ({@code since}, {@code since + interval}, ...) at
 * or before the last instant it ran: the write a kubelet makes every 10 s costs nothing until the controller looks.
 * A killed kubelet's Lease stays at the last tick before it died. The Leases are not objects in the store.
 *
 * <p>Not thread-safe: made for single-threaded simulations, as the rest of this package.
 */
public final class NodeLeases {
  /** The kubelet's renew interval: a quarter of the default {@code nodeLeaseDurationSeconds} (40 s). */
  public static final Duration RENEW_INTERVAL = Duration.ofSeconds(10);

  private final Map<String, Lease> leases = new HashMap<>();

  /**
   * One node's Lease: its kubelet renews on the grid {@code since + k * interval} while it runs; {@code seen} is the
   * last instant it ran, and a stopped Lease keeps the renewal it had when its kubelet was killed.
   */
  static final class Lease {
    private final Instant since;
    private final long intervalNanos;
    private @Nullable Instant seen;
    private boolean stopped;
    private @Nullable Instant last;

    private Lease(Instant since, Duration interval) {
      this.since = since;
      this.intervalNanos = interval.toNanos();
    }

    /** The kubelet runs at {@code now}: every tick of its grid up to {@code now} is renewed. */
    void ran(Instant now) {
      seen = now;
    }

    /**
     * The kubelet stops at {@code now}: it renewed at every tick before {@code now} (it was running, though it need
     * not have been asked to run at each), and at {@code now} itself only if it ran at {@code now}.
     */
    void stop(Instant now) {
      if (stopped) {
        return;
      }
      stopped = true;
      last = now.equals(seen) ? tickAtOrBefore(now) : tickBefore(now);
    }

    @Nullable Instant renewTime() {
      if (stopped) {
        return last;
      }
      Instant s = seen;
      return s == null ? null : tickAtOrBefore(s);
    }

    private @Nullable Instant tickAtOrBefore(Instant t) {
      if (t.isBefore(since)) {
        return null;
      }
      long elapsed = Duration.between(since, t).toNanos();
      return since.plusNanos(elapsed - elapsed % intervalNanos);
    }

    private @Nullable Instant tickBefore(Instant t) {
      return t.isAfter(since) ? tickAtOrBefore(t.minusNanos(1)) : null;
    }
  }

  /**
   * Node {@code node}'s kubelet (re)starts at {@code since} and renews its Lease every {@code interval} while it
   * runs, the first time when it first runs; replaces an earlier Lease of the node.
   *
   * @throws IllegalArgumentException if {@code interval} is not positive
   */
  Lease start(String node, Instant since, Duration interval) {
    Objects.requireNonNull(node, "node");
    Objects.requireNonNull(since, "since");
    Objects.requireNonNull(interval, "interval");
    if (interval.isNegative() || interval.isZero()) {
      throw new IllegalArgumentException("node lease " + node + ": renew interval " + interval
          + " must be positive");
    }
    Lease l = new Lease(since, interval);
    leases.put(node, l);
    return l;
  }

  /** Forgets node {@code node}'s Lease if it is {@code lease} (its kubelet is gone). */
  void remove(String node, Lease lease) {
    leases.remove(node, lease);
  }

  /** The renew time of node {@code node}'s Lease, or null when it has none or its kubelet never renewed it. */
  public @Nullable Instant renewTime(String node) {
    Lease l = leases.get(node);
    return l == null ? null : l.renewTime();
  }
}
