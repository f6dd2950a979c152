package io.fleetkit.queueing.internal;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * Admission fair sharing's per-LocalQueue accounting (Kueue's {@code AfsUsageLedger}, {@code
 * pkg/cache/queue/afs}): for each LocalQueue key ({@code namespace/name}) the decayed consumed history, the entry
 * penalties of its reserved but not yet admitted workloads (one record per workload, so pushing again replaces and
 * removing subtracts exactly what was pushed), when the history was last decayed, and whether the LocalQueue's
 * persisted status was folded into it. {@link #version()} changes with every write, for the queues ordered by it to
 * know when to reorder.
 */
final class AfsUsageLedger {
  /** One LocalQueue's entry (Kueue's {@code UsageLedgerEntry}). */
  static final class Entry {
    /** The decayed consumed history. */
    TreeMap<String, BigDecimal> resources = new TreeMap<>();
    /** The pending entry penalty of each workload, by workload key. */
    final Map<String, TreeMap<String, BigDecimal>> penalties = new LinkedHashMap<>();
    /** When {@link #resources} was last decayed, or when the entry was created. */
    Instant lastUpdate;
    /** Whether the LocalQueue's persisted status was merged into {@link #resources}. */
    boolean statusAccounted;

    Entry(Instant lastUpdate) {
      this.lastUpdate = lastUpdate;
    }

    /** The sum of the pending penalties. */
    TreeMap<String, BigDecimal> pendingPenalty() {
      TreeMap<String, BigDecimal> out = new TreeMap<>();
      for (TreeMap<String, BigDecimal> p : penalties.values()) {
        out = AfsMath.sum(out, p);
      }
      return out;
    }

    /** Whether some penalty awaits settlement (Kueue tests the aggregate's amounts, not the records' presence). */
    boolean hasPendingPenalty() {
      for (BigDecimal v : pendingPenalty().values()) {
        if (v.signum() != 0) {
          return true;
        }
      }
      return false;
    }
  }

  private final Map<String, Entry> entries = new HashMap<>();
  private long version;

  /** The entry of {@code lqKey}, or {@code null}; a caller that changes it calls {@link #changed()}. */
  @Nullable Entry get(String lqKey) {
    return entries.get(lqKey);
  }

  /** The entry of {@code lqKey}, created with {@code lastUpdate} and not status-accounted if it had none. */
  Entry getOrCreate(String lqKey, Instant lastUpdate) {
    Entry e = entries.get(lqKey);
    if (e == null) {
      e = new Entry(lastUpdate);
      entries.put(lqKey, e);
      version++;
    }
    return e;
  }

  /** Marks a change to an entry. */
  void changed() {
    version++;
  }

  /**
   * Kueue's {@code PushPenalty}: records {@code penalty} for workload {@code wlKey} of {@code lqKey}, replacing its
   * previous record; an entry created here has {@code now} as its last update and is not status-accounted.
   */
  void pushPenalty(String lqKey, String wlKey, TreeMap<String, BigDecimal> penalty, Instant now) {
    getOrCreate(lqKey, now).penalties.put(wlKey, penalty);
    version++;
  }

  /**
   * Kueue's {@code SubPenalty}: drops the pending penalty of {@code wlKey} and returns it, or {@code null} (creating
   * no entry) if it has none.
   */
  @Nullable TreeMap<String, BigDecimal> subPenalty(String lqKey, String wlKey) {
    Entry e = entries.get(lqKey);
    if (e == null) {
      return null;
    }
    TreeMap<String, BigDecimal> removed = e.penalties.remove(wlKey);
    if (removed != null) {
      version++;
    }
    return removed;
  }

  /** Whether {@code lqKey} has a penalty awaiting settlement. */
  boolean hasPendingPenalty(String lqKey) {
    Entry e = entries.get(lqKey);
    return e != null && e.hasPendingPenalty();
  }

  /** Drops the entry of a removed LocalQueue, its history and penalties together. */
  void delete(String lqKey) {
    if (entries.remove(lqKey) != null) {
      version++;
    }
  }

  /** Advances with every write. */
  long version() {
    return version;
  }
}
