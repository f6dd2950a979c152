package io.fleetkit.scheduler.plugins.podtopologyspread;

import java.util.Arrays;
import java.util.HashMap;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Matching-pod counts per topology domain (value of one constraint's topology key), with the exact global minimum
 * kept up to date so that Filter reads it in O(1).
 *
 * <p>Domain values are interned into dense slots once; counts live in an {@code int[]}. {@link #copy()} shares the
 * value index (copied again only if a copy meets a new domain) and clones the counts, so preemption's dry runs copy
 * {@code 4 * domains} bytes rather than a hash map. Lookups ({@link #count}, {@link #slot}) allocate nothing. Not
 * thread-safe while being changed; read-only use after PreFilter/PreScore is safe from many threads.
 */
final class DomainCounts {
  /** The minimum when there is no domain (upstream math.MaxInt32): every skew then passes. */
  static final int NO_DOMAIN_MIN = Integer.MAX_VALUE;

  private HashMap<String, Integer> index;
  private boolean indexShared;
  private int[] counts;
  private int size;
  private int min = NO_DOMAIN_MIN;

  DomainCounts(int expectedDomains) {
    this.index = new HashMap<>(Math.max(4, expectedDomains * 4 / 3 + 1));
    this.counts = new int[Math.max(4, expectedDomains)];
  }

  private DomainCounts(DomainCounts other) {
    this.index = other.index;
    this.indexShared = true;
    other.indexShared = true;
    this.counts = Arrays.copyOf(other.counts, Math.max(other.size, 1));
    this.size = other.size;
    this.min = other.min;
  }

  /** An independent copy (the value index is shared until either side needs to add a domain). */
  DomainCounts copy() {
    return new DomainCounts(this);
  }

  /** The number of eligible domains seen. */
  int size() {
    return size;
  }

  /** The smallest count over all domains, or {@link #NO_DOMAIN_MIN} when there is none. */
  int min() {
    return min;
  }

  /** The slot of {@code value}, or -1. */
  int slot(String value) {
    Integer s = index.get(value);
    return s == null ? -1 : s;
  }

  /** The count of {@code value}'s domain, 0 for an unknown domain. */
  int count(String value) {
    Integer s = index.get(value);
    return s == null ? 0 : counts[s];
  }

  int countAt(int slot) {
    return counts[slot];
  }

  /** Registers {@code value} as a domain (count 0 if new) and returns its slot. */
  int register(String value) {
    Integer s = index.get(value);
    if (s != null) {
      return s;
    }
    if (indexShared) {
      index = new HashMap<>(index);
      indexShared = false;
    }
    int slot = size++;
    if (slot == counts.length) {
      counts = Arrays.copyOf(counts, Math.max(4, slot * 2));
    }
    index.put(value, slot);
    counts[slot] = 0;
    if (min > 0) {
      min = 0;
    }
    return slot;
  }

  /** Adds {@code delta} to a slot during bulk building; call {@link #recomputeMin()} afterwards. */
  void addRaw(int slot, int delta) {
    counts[slot] += delta;
  }

  /** The counts by domain value, in a new sorted map (for tests and debugging). */
  SortedMap<String, Integer> asMap() {
    SortedMap<String, Integer> out = new TreeMap<>();
    index.forEach((value, slot) -> {
      if (slot < size) {
        out.put(value, counts[slot]);
      }
    });
    return out;
  }

  /** Recomputes the minimum from scratch. */
  void recomputeMin() {
    int m = NO_DOMAIN_MIN;
    for (int i = 0; i < size; i++) {
      m = Math.min(m, counts[i]);
    }
    min = m;
  }

  /**
   * Adds {@code delta} to {@code value}'s domain, registering it if new, and keeps the minimum exact (upstream
   * preFilterState.updateWithPod/updateMin): a domain falling below the minimum becomes it; the domain that held
   * the minimum rising forces a rescan.
   */
  void add(String value, int delta) {
    boolean isNew = slot(value) < 0;
    int slot = register(value);
    int old = counts[slot];
    int cur = old + delta;
    counts[slot] = cur;
    if (cur < min) {
      min = cur;
    } else if (old == min || isNew) {
      recomputeMin();
    }
  }
}
