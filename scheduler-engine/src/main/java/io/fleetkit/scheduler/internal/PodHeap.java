package io.fleetkit.scheduler.internal;

import io.fleetkit.api.framework.QueuedPodInfo;
import java.util.Arrays;
import java.util.Comparator;
import org.jspecify.annotations.Nullable;

/**
 * A binary min-heap of queue entries, ordered by a sort key copied into the heap's own arrays when an entry is added
 * ({@link Key}: three longs compared in turn), optionally preceded by a comparator over the entry's
 * {@link QueuedPodInfo} as it was then (a QueueSort plugin's order; the record is immutable, a changed entry gets a new
 * one).
 *
 * <p>Sifting reads and moves only the heap's arrays, never the entries: a pop of a 10,000-pod queue ordered by key
 * touches a few cache lines of two arrays instead of two entry objects per level. Removal and re-ordering are lazy
 * for the same reason (an entry does not track its index, which every move would have to write): {@link #remove} and
 * {@link #fix} mark the entry's slot stale (the entry records the heap and the stamp of its live slot, and a slot
 * whose stamp no longer matches is skipped when it reaches the top); a slot's order never changes after it is
 * written, so stale slots keep the heap ordered. When stale slots outnumber live ones the heap is rebuilt, so its size
 * stays within twice the live entries plus a constant.
 */
final class PodHeap {
  /** An entry's sort key: writes three longs at {@code keys[at..at+2]}, compared in that order. */
  interface Key {
    void write(QueuedPod p, long[] keys, int at);
  }

  private static final int MIN_STALE_TO_COMPACT = 32;

  private final Key key;
  private final @Nullable Comparator<QueuedPodInfo> order;
  private QueuedPod[] items = new QueuedPod[64];
  /** Slot i's key at {@code 3i..3i+2}. */
  private long[] keys = new long[3 * 64];
  /** With a comparator: slot i's {@link QueuedPodInfo} when it was written. */
  private @Nullable QueuedPodInfo[] infos;
  private long[] stamps = new long[64];
  /** Slots used, stale ones included. */
  private int size;
  private int live;
  private int stale;
  private long nextStamp;

  /** A heap ordered by {@code key}, read when an entry is added or fixed. */
  PodHeap(Key key) {
    this(null, key);
  }

  /**
   * A heap ordered by {@code order} over the entries' {@link QueuedPod#queued} records, ties broken by {@code key};
   * both read when an entry is added or fixed.
   */
  PodHeap(@Nullable Comparator<QueuedPodInfo> order, Key key) {
    this.key = key;
    this.order = order;
    this.infos = new QueuedPodInfo[order == null ? 0 : 64];
  }

  /** The number of entries (stale slots excluded). */
  int size() {
    return live;
  }

  /** The first entry, or {@code null} when the heap is empty. */
  @Nullable QueuedPod peek() {
    dropStaleTop();
    return size == 0 ? null : items[0];
  }

  void add(QueuedPod p) {
    if (p.heap != null) {
      throw new IllegalStateException("pod heap: " + p.key() + " is already in a heap");
    }
    push(p);
    live++;
  }

  @Nullable QueuedPod poll() {
    dropStaleTop();
    if (size == 0) {
      return null;
    }
    QueuedPod top = items[0];
    removeTop();
    top.heap = null;
    live--;
    return top;
  }

  void remove(QueuedPod p) {
    if (p.heap != this) {
      throw new IllegalStateException("pod heap: " + p.key() + " is not in this heap");
    }
    p.heap = null;
    live--;
    stale++;
    compactIfMostlyStale();
  }

  /** Restores order after {@code p}'s sort keys changed. */
  void fix(QueuedPod p) {
    if (p.heap != this) {
      throw new IllegalStateException("pod heap: " + p.key() + " is not in this heap");
    }
    stale++; // its current slot
    p.heap = null;
    push(p);
    compactIfMostlyStale();
  }

  private boolean isLive(int slot) {
    QueuedPod p = items[slot];
    return p.heap == this && p.heapStamp == stamps[slot];
  }

  private void dropStaleTop() {
    while (size > 0 && !isLive(0)) {
      removeTop();
      stale--;
    }
  }

  /** Puts {@code p} in a new slot with a fresh stamp; its sort key is read now. */
  private void push(QueuedPod p) {
    if (size == items.length) {
      grow();
    }
    long stamp = ++nextStamp;
    p.heap = this;
    p.heapStamp = stamp;
    int i = size++;
    key.write(p, keys, 3 * i);
    siftUp(i, p, order == null ? null : p.queued, keys[3 * i], keys[3 * i + 1], keys[3 * i + 2], stamp);
  }

  private void grow() {
    int n = items.length * 2;
    items = Arrays.copyOf(items, n);
    stamps = Arrays.copyOf(stamps, n);
    keys = Arrays.copyOf(keys, 3 * n);
    if (order != null) {
      infos = Arrays.copyOf(infos, n);
    }
  }

  /** Removes slot 0 (live or stale) and restores the heap order. */
  private void removeTop() {
    int last = --size;
    QueuedPod x = items[last];
    @Nullable QueuedPodInfo xi = order == null ? null : infos[last];
    items[last] = null;
    if (order != null) {
      infos[last] = null;
    }
    if (last > 0) {
      siftDown(0, x, xi, keys[3 * last], keys[3 * last + 1], keys[3 * last + 2], stamps[last]);
    }
  }

  /** Rebuilds the heap from its live slots when stale ones outnumber them. */
  private void compactIfMostlyStale() {
    if (stale < MIN_STALE_TO_COMPACT || stale <= live) {
      return;
    }
    int n = 0;
    for (int i = 0; i < size; i++) {
      if (isLive(i)) {
        move(i, n++);
      }
    }
    Arrays.fill(items, n, size, null);
    if (order != null) {
      Arrays.fill(infos, n, size, null);
    }
    size = n;
    stale = 0;
    for (int i = (n >>> 1) - 1; i >= 0; i--) {
      siftDown(i, items[i], order == null ? null : infos[i], keys[3 * i], keys[3 * i + 1],
          keys[3 * i + 2], stamps[i]);
    }
  }

  private void siftUp(int i, QueuedPod x, @Nullable QueuedPodInfo xi, long xa, long xb, long xc, long xs) {
    while (i > 0) {
      int parent = (i - 1) >>> 1;
      if (compareTo(xi, xa, xb, xc, parent) >= 0) {
        break;
      }
      move(parent, i);
      i = parent;
    }
    set(i, x, xi, xa, xb, xc, xs);
  }

  private void siftDown(int i, QueuedPod x, @Nullable QueuedPodInfo xi, long xa, long xb, long xc, long xs) {
    int half = size >>> 1;
    while (i < half) {
      int child = 2 * i + 1;
      int right = child + 1;
      if (right < size && compareSlots(right, child) < 0) {
        child = right;
      }
      if (compareTo(xi, xa, xb, xc, child) <= 0) {
        break;
      }
      move(child, i);
      i = child;
    }
    set(i, x, xi, xa, xb, xc, xs);
  }

  /** Compares an entry (its record {@code xi}, used with a comparator only, and key {@code xa, xb, xc}) with slot j. */
  private int compareTo(@Nullable QueuedPodInfo xi, long xa, long xb, long xc, int j) {
    Comparator<QueuedPodInfo> o = order;
    if (o != null && xi != null) {
      int c = o.compare(xi, infos[j]);
      if (c != 0) {
        return c;
      }
    }
    int k = 3 * j;
    if (xa != keys[k]) {
      return xa < keys[k] ? -1 : 1;
    }
    if (xb != keys[k + 1]) {
      return xb < keys[k + 1] ? -1 : 1;
    }
    return Long.compare(xc, keys[k + 2]);
  }

  private int compareSlots(int i, int j) {
    int k = 3 * i;
    return compareTo(order == null ? null : infos[i], keys[k], keys[k + 1], keys[k + 2], j);
  }

  private void move(int from, int to) {
    items[to] = items[from];
    stamps[to] = stamps[from];
    keys[3 * to] = keys[3 * from];
    keys[3 * to + 1] = keys[3 * from + 1];
    keys[3 * to + 2] = keys[3 * from + 2];
    if (order != null) {
      infos[to] = infos[from];
    }
  }

  private void set(int i, QueuedPod x, @Nullable QueuedPodInfo xi, long xa, long xb, long xc, long xs) {
    items[i] = x;
    stamps[i] = xs;
    keys[3 * i] = xa;
    keys[3 * i + 1] = xb;
    keys[3 * i + 2] = xc;
    if (order != null) {
      infos[i] = xi;
    }
  }
}
