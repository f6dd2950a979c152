package io.fleetkit.api.store.internal;

import java.util.AbstractList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.RandomAccess;
import org.jspecify.annotations.Nullable;

/**
 * A map from keys to values that lists its values in key order ({@link String#compareTo}): a hash map for writes and
 * gets, plus the keys and values of the last listing in order and the keys that joined and left since. A write costs
 * a few hash operations whatever the size; the first listing after writes sorts only the keys that joined and merges
 * them into the last order (the keys that left are found by binary search and skipped), so it costs the size of the
 * map plus the changes, never a sort of every key. When more than half of the keys changed since the last listing, the
 * next one sorts every key afresh.
 *
 * <p>Not thread-safe for writes: {@link #put} and {@link #remove} run under the owner's write lock; listings
 * ({@link #range}, {@link #all}) run under its read lock, several at once (they serialize on this object while one of
 * them merges), and return views of arrays that are never changed once made.
 *
 * @param <V> the values
 */
final class SortedKeys<V> {
  private static final String[] NO_KEYS = new String[0];
  private static final Object[] NO_VALUES = new Object[0];
  /** Below this many changes since the last listing they are always kept for a merge. */
  private static final int FEW = 16;

  private final HashMap<String, V> members = new HashMap<>();
  /** The keys of the last listing in order; with {@link #values}, never changed once made. */
  private String[] keys = NO_KEYS;
  private Object[] values = NO_VALUES;
  /** Members not in {@link #keys} (a key that left and joined again is here and in {@link #left}). */
  private final HashSet<String> joined = new HashSet<>();
  /** Keys of {@link #keys} that left since (their value there is gone). */
  private final HashSet<String> left = new HashSet<>();
  /** Set when so many keys changed that the next listing sorts every member; nothing is tracked meanwhile. */
  private boolean afresh;

  int size() {
    return members.size();
  }

  boolean isEmpty() {
    return members.isEmpty();
  }

  @Nullable V get(String key) {
    return members.get(key);
  }

  /**
   * Adds {@code key} with {@code value}.
   *
   * @throws IllegalStateException if {@code key} is present (replace a value by {@link #remove} then put)
   */
  void put(String key, V value) {
    if (members.putIfAbsent(key, value) != null) {
      throw new IllegalStateException("sorted keys: " + key + " is present already");
    }
    if (!afresh) {
      joined.add(key);
      tooMany();
    }
  }

  /** Removes {@code key}; returns its value, or null when it was absent. */
  @Nullable V remove(String key) {
    V old = members.remove(key);
    if (old != null && !afresh && !joined.remove(key)) {
      left.add(key);
      tooMany();
    }
    return old;
  }

  private void tooMany() {
    int changed = joined.size() + left.size();
    if (changed > FEW && changed > members.size() / 2) {
      afresh = true;
      joined.clear();
      left.clear();
      keys = NO_KEYS;
      values = NO_VALUES;
    }
  }

  /** Every value, in key order. */
  List<V> all() {
    return range(null, null);
  }

  /**
   * The values whose keys are at least {@code from} and below {@code to} (null: unbounded), in key order: a view
   * that later writes do not change.
   */
  synchronized List<V> range(@Nullable String from, @Nullable String to) {
    settle();
    String[] k = keys;
    int lo = from == null ? 0 : insertionPoint(k, from);
    int hi = to == null ? k.length : insertionPoint(k, to);
    return lo >= hi ? List.of() : new Slice<>(values, lo, hi);
  }

  private static int insertionPoint(String[] keys, String key) {
    int at = Arrays.binarySearch(keys, key);
    return at >= 0 ? at : -(at + 1);
  }

  /** Brings {@link #keys} and {@link #values} up to the members. Caller holds this object's monitor. */
  private void settle() {
    if (afresh) {
      String[] k = members.keySet().toArray(NO_KEYS);
      Arrays.sort(k);
      Object[] v = new Object[k.length];
      for (int i = 0; i < k.length; i++) {
        v[i] = members.get(k[i]);
      }
      keys = k;
      values = v;
      afresh = false;
      return;
    }
    if (joined.isEmpty() && left.isEmpty()) {
      return;
    }
    String[] old = keys;
    Object[] oldValues = values;
    boolean[] gone = null;
    if (!left.isEmpty()) {
      gone = new boolean[old.length];
      for (String key : left) {
        int at = Arrays.binarySearch(old, key);
        if (at < 0) {
          throw new IllegalStateException("sorted keys: " + key + " left but was not listed");
        }
        gone[at] = true;
      }
    }
    String[] in = joined.toArray(NO_KEYS);
    Arrays.sort(in);
    String[] k = new String[members.size()];
    Object[] v = new Object[k.length];
    int w = 0;
    int i = 0;
    for (int j = 0; j <= in.length; j++) {
      // a joined key found among the old ones left and joined again: it takes the old place, whose entry is gone
      int to = j < in.length ? insertionPoint(old, in[j]) : old.length;
      if (to < i) {
        throw new IllegalStateException("sorted keys: " + in[j] + " joined twice");
      }
      for (; i < to; i++) {
        if (gone == null || !gone[i]) {
          k[w] = old[i];
          v[w++] = oldValues[i];
        }
      }
      if (j < in.length) {
        k[w] = in[j];
        v[w++] = members.get(in[j]);
      }
    }
    if (w != k.length) {
      throw new IllegalStateException("sorted keys: merged " + w + " keys but " + k.length + " are present");
    }
    keys = k;
    values = v;
    joined.clear();
    left.clear();
  }

  /** Values {@code [from, to)} of an array never changed once made. */
  private static final class Slice<V> extends AbstractList<V> implements RandomAccess {
    private final Object[] values;
    private final int from;
    private final int size;

    Slice(Object[] values, int from, int to) {
      this.values = values;
      this.from = from;
      this.size = to - from;
    }

    @Override
    @SuppressWarnings("unchecked")
    public V get(int index) {
      if (index < 0 || index >= size) {
        throw new IndexOutOfBoundsException("index " + index + " of " + size);
      }
      return (V) values[from + index];
    }

    @Override
    public int size() {
      return size;
    }
  }
}
