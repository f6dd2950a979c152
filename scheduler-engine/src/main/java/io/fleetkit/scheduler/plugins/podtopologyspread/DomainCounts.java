package io.fleetkit.scheduler.plugins.podtopologyspread;

import java.util.Arrays;
import java.util.HashMap;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Matching-pod counts per eligible topology domain (value of one constraint's topology key), with the exact global
 * minimum kept up to date so that Filter reads it in O(1).
 *
 * <p>Domain values map to dense slots through an index that is never changed once shared: it may come from
 * {@link DomainIndexCache} (shared by every pod's state) and is copied before a new value is added. A slot is
 * <em>present</em> when an eligible node has that value; absent slots count 0 and are not domains. {@link #copy()}
 * clones only the count and presence arrays, so preemption's dry runs copy a few bytes per domain rather than a hash
 * map. Lookups ({@link #count}) allocate nothing. Not thread-safe while being changed; read-only use after
 * PreFilter/PreScore is safe from many threads.
 */
final class DomainCounts {
  /** The minimum when there is no domain (upstream math.MaxInt32): every skew then passes. */
  static final int NO_DOMAIN_MIN = Integer.MAX_VALUE;

  private HashMap<String, Integer> index;
  private boolean indexShared;
  private int[] counts;
  private boolean[] present;
  private int size;
  private int min = NO_DOMAIN_MIN;

  /** Counts over a shared {@code index} (not changed here; copied before a value is added). */
  DomainCounts(HashMap<String, Integer> index) {
    this.index = index;
    this.indexShared = true;
    int n = Math.max(4, index.size());
    this.counts = new int[n];
    this.present = new boolean[n];
  }

  /** Counts over a shared {@code index} with the given (owned) arrays; computes the minimum. */
  DomainCounts(HashMap<String, Integer> index, int[] counts, boolean[] present, int size) {
    this.index = index;
    this.indexShared = true;
    this.counts = counts;
    this.present = present;
    this.size = size;
    recomputeMin();
  }

  private DomainCounts(DomainCounts other) {
    this.index = other.index;
    this.indexShared = true;
    other.indexShared = true;
    this.counts = other.counts.clone();
    this.present = other.present.clone();
    this.size = other.size;
    this.min = other.min;
  }

  /** An independent copy (the value index is shared until either side needs to add a value). */
  DomainCounts copy() {
    return new DomainCounts(this);
  }

  /** The number of eligible domains. */
  int size() {
    return size;
  }

  /** The smallest count over the eligible domains, or {@link #NO_DOMAIN_MIN} when there is none. */
  int min() {
    return min;
  }

  /** The slot of {@code value} if it is an eligible domain, else -1. */
  int slot(String value) {
    Integer s = index.get(value);
    return s == null || !present[s] ? -1 : s;
  }

  /** The count of {@code value}'s domain, 0 when it is no eligible domain. Allocation-free. */
  int count(String value) {
    Integer s = index.get(value);
    return s == null ? 0 : counts[s];
  }

  int countAt(int slot) {
    return counts[slot];
  }

  /** Marks {@code value} as an eligible domain (count 0 if new) and returns its slot. */
  int register(String value) {
    Integer s = index.get(value);
    int slot;
    if (s != null) {
      slot = s;
    } else {
      if (indexShared) {
        index = new HashMap<>(index);
        indexShared = false;
      }
      slot = index.size();
      index.put(value, slot);
    }
    if (slot >= counts.length) {
      int n = Math.max(slot + 1, counts.length * 2);
      counts = Arrays.copyOf(counts, n);
      present = Arrays.copyOf(present, n);
    }
    if (!present[slot]) {
      present[slot] = true;
      size++;
      min = Math.min(min, counts[slot]);
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
      if (slot < present.length && present[slot]) {
        out.put(value, counts[slot]);
      }
    });
    return out;
  }

  /** Recomputes the minimum over the eligible domains from scratch. */
  void recomputeMin() {
    int m = NO_DOMAIN_MIN;
    for (int i = 0, n = Math.min(present.length, index.size()); i < n; i++) {
      if (present[i] && counts[i] < m) {
        m = counts[i];
      }
    }
    min = m;
  }

  /**
   * Adds {@code delta} to {@code value}'s domain, making it eligible if it was not, and keeps the minimum exact
   * (upstream preFilterState.updateWithPod/updateMin): a domain falling below the minimum becomes it; the domain that
   * held the minimum rising forces a rescan.
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

  /** The value index, for publishing back to the shared cache after a bulk build. */
  HashMap<String, Integer> index() {
    indexShared = true;
    return index;
  }
}
