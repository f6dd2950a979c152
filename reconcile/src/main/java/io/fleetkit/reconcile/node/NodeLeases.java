package io.fleetkit.reconcile.node;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
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
  /** How many Leases run (not stopped), and how many of those ran at {@link #ranAt}, the latest instant any ran. */
  private int running;
  private int ranCount;
  private @Nullable Instant ranAt;
  /** The instant of the last {@link #ranAll}, and how many there were. */
  private @Nullable Instant allRanAt;
  private long allRuns;
  /** Told the node whose Lease started, stopped or went (the node lifecycle controller's pass visits it). */
  private @Nullable Consumer<String> listener;

  /**
   * One node's Lease: its kubelet renews on the grid {@code since + k * interval} while it runs; {@code seen} is the
   * last instant it ran, and a stopped Lease keeps the renewal it had when its kubelet was killed.
   */
  static final class Lease {
    private final NodeLeases table;
    private final String node;
    private final Instant since;
    private final long intervalNanos;
    private @Nullable Instant seen;
    private boolean stopped;
    /** Whether this is the table's Lease of its node (not replaced by a restart, not removed). */
    private boolean current = true;
    private @Nullable Instant last;
    /** The table's {@link #ranAll} calls when this Lease started: later ones count as runs of its kubelet. */
    private final long startedAfter;

    private Lease(NodeLeases table, String node, Instant since, Duration interval) {
      this.table = table;
      this.node = node;
      this.since = since;
      this.intervalNanos = interval.toNanos();
      this.startedAfter = table.allRuns;
    }

    /** The last instant its kubelet ran: its own {@link #ran} or a later {@link #ranAll} while it ran. */
    private @Nullable Instant seen() {
      Instant all = table.allRanAt;
      if (all == null || table.allRuns == startedAfter || stopped || !current) {
        return seen;
      }
      return seen == null || seen.isBefore(all) ? all : seen;
    }

    /** The kubelet runs at {@code now}: every tick of its grid up to {@code now} is renewed. */
    void ran(Instant now) {
      if (current && !stopped) {
        table.ran(this, now);
      }
      seen = now;
    }

    private void settleSeen() {
      seen = seen();
    }

    /**
     * The kubelet stops at {@code now}: it renewed at every tick before {@code now} (it was running, though it need
     * not have been asked to run at each), and at {@code now} itself only if it ran at {@code now}.
     */
    void stop(Instant now) {
      if (stopped) {
        return;
      }
      settleSeen();
      if (current) {
        table.leaving(this);
      }
      stopped = true;
      last = now.equals(seen) ? tickAtOrBefore(now) : tickBefore(now);
      if (current) {
        table.changed(node);
      }
    }

    boolean running() {
      return current && !stopped;
    }

    @Nullable Instant renewTime() {
      if (stopped) {
        return last;
      }
      Instant s = seen();
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

  /** Counts {@code l} among the running Leases that ran at {@code now} (the latest instant any ran). */
  private void ran(Lease l, Instant now) {
    if (!now.equals(ranAt)) {
      ranAt = now;
      ranCount = 0;
    }
    if (!now.equals(l.seen())) {
      ranCount++;
    }
  }

  /**
   * Every running Lease's kubelet runs at {@code now}, as if each called {@code ran}: for a caller that runs all its
   * kubelets at each step and calls {@link NodeAgent#sync} only on those with work. Leases started later at the same
   * instant are not included.
   */
  public void ranAll(Instant now) {
    Objects.requireNonNull(now, "now");
    allRanAt = now;
    allRuns++;
    ranAt = now;
    ranCount = running;
  }

  /** A running Lease stops counting: stopped, replaced or removed. */
  private void leaving(Lease l) {
    if (!l.stopped) {
      running--;
      Instant seen = l.seen();
      if (seen != null && seen.equals(ranAt)) {
        ranCount--;
      }
    }
  }

  private void changed(String node) {
    if (listener != null) {
      listener.accept(node);
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
    Lease l = new Lease(this, node, since, interval);
    Lease old = leases.put(node, l);
    if (old != null) {
      old.settleSeen();
      leaving(old);
      old.current = false;
    }
    running++;
    changed(node);
    return l;
  }

  /**
   * Node {@code node}'s kubelet registers at {@code since} and renews its Lease every {@link #RENEW_INTERVAL} before
   * it runs any pod: the kubelet of a starting node, which stays NotReady until another component makes it Ready
   * (a simulated machine start-up). The {@link NodeAgent} that then runs the node's pods replaces this Lease with its
   * own; {@link #forget} drops it when the node goes first.
   */
  public void register(String node, Instant since) {
    start(node, since, RENEW_INTERVAL);
  }

  /** Forgets node {@code node}'s Lease, whichever kubelet renews it (the node is gone); nothing when it has none. */
  public void forget(String node) {
    Lease l = leases.get(node);
    if (l != null) {
      remove(node, l);
    }
  }

  /** Forgets node {@code node}'s Lease if it is {@code lease} (its kubelet is gone). */
  void remove(String node, Lease lease) {
    if (leases.remove(node, lease)) {
      lease.settleSeen();
      leaving(lease);
      lease.current = false;
      changed(node);
    }
  }

  /**
   * Whether every running Lease's kubelet ran at {@code now}: then each renewed at the last tick of its grid at or
   * before {@code now}, less than one renew interval ago.
   */
  boolean allRanAt(Instant now) {
    return running == 0 || (now.equals(ranAt) && ranCount == running);
  }

  /** The nodes whose Lease runs (their kubelet was not killed), in no particular order. */
  List<String> runningNodes() {
    List<String> out = new ArrayList<>(running);
    for (Map.Entry<String, Lease> e : leases.entrySet()) {
      if (e.getValue().running()) {
        out.add(e.getKey());
      }
    }
    return out;
  }

  /** The renew interval of node {@code node}'s Lease in nanoseconds while it runs, else -1. */
  long runningInterval(String node) {
    Lease l = leases.get(node);
    return l != null && l.running() ? l.intervalNanos : -1;
  }

  /**
   * Calls {@code l} with the node whenever a Lease starts, stops or goes away, on the thread that does it; replaces
   * an earlier listener.
   */
  void listen(Consumer<String> l) {
    listener = Objects.requireNonNull(l, "listener");
  }

  /** The renew time of node {@code node}'s Lease, or null when it has none or its kubelet never renewed it. */
  public @Nullable Instant renewTime(String node) {
    Lease l = leases.get(node);
    return l == null ? null : l.renewTime();
  }
}
