package io.fleetkit.reconcile.internal;

import java.util.Arrays;
import org.jspecify.annotations.Nullable;

/**
 * Keys in {@link IndexedCache#KEY_ORDER}, with their characters packed one after the other into one array: a binary
 * search for a key reads that array (a few cache lines for a hundred keys) instead of a string object and its
 * characters per probe, which for keys spread across a large heap is a pair of cache misses each. Keys with a
 * character beyond Latin-1 are not packed; their searches compare the strings. Immutable.
 */
final class PackedKeys {
  static final PackedKeys EMPTY = new PackedKeys(new String[0], new byte[0], new int[0]);

  private final String[] keys;
  /** The keys' characters, one byte each, key {@code i} in {@code [ends[i - 1], ends[i])}; null: not packed. */
  private final byte @Nullable [] chars;
  private final int[] ends;

  private PackedKeys(String[] keys, byte @Nullable [] chars, int[] ends) {
    this.keys = keys;
    this.chars = chars;
    this.ends = ends;
  }

  /** The keys {@code sorted} (in key order already, not copied). */
  static PackedKeys of(String[] sorted) {
    Builder b = new Builder(sorted.length, null);
    for (String k : sorted) {
      b.add(k);
    }
    return b.build(sorted);
  }

  int size() {
    return keys.length;
  }

  String key(int i) {
    return keys[i];
  }

  /** How many bytes the keys' packed characters take (0 when not packed). */
  int packedLength() {
    return chars == null || ends.length == 0 ? 0 : ends[ends.length - 1];
  }

  /** The length of the array that holds the packed characters, room to spare included (for tests). */
  int packedCapacity() {
    return chars == null ? 0 : chars.length;
  }

  /** The keys, in order (the array itself: do not change it). */
  String[] keys() {
    return keys;
  }

  /**
   * The index of {@code key} among the keys from {@code from} on, or {@code -(insertion point) - 1}: what
   * {@code Arrays.binarySearch(keys, from, size(), key, KEY_ORDER)} answers.
   */
  int search(int from, String key) {
    if (chars == null) {
      return Arrays.binarySearch(keys, from, keys.length, key, IndexedCache.KEY_ORDER);
    }
    int lo = from;
    int hi = keys.length - 1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      int c = compareAt(mid, key);
      if (c < 0) {
        lo = mid + 1;
      } else if (c > 0) {
        hi = mid - 1;
      } else {
        return mid;
      }
    }
    return -(lo + 1);
  }

  /**
   * {@code compareKeys(key(i), key)} from the packed characters: while the two agree and their common start holds the
   * '/', the text order decides, as there; any other case (keys of two namespaces) asks the strings.
   */
  private int compareAt(int i, String key) {
    byte[] c = chars;
    int from = i == 0 ? 0 : ends[i - 1];
    int length = ends[i] - from;
    int n = Math.min(length, key.length());
    boolean sameNamespace = false;
    for (int j = 0; j < n; j++) {
      char x = (char) (c[from + j] & 0xff);
      char y = key.charAt(j);
      if (x != y) {
        return sameNamespace ? x - y : IndexedCache.compareKeys(keys[i], key);
      }
      if (x == '/') {
        sameNamespace = true;
      }
    }
    return sameNamespace ? length - key.length() : IndexedCache.compareKeys(keys[i], key);
  }

  /** Builds the keys of a new order from kept keys of an old one (their packed characters copied) and new keys. */
  static final class Builder {
    private final String[] keys;
    private byte @Nullable [] chars;
    private final int[] ends;
    private int count;
    private int used;

    /**
     * @param from the order most keys come from, or null: the packed array starts at the length of its packed
     *     characters plus room for a few new keys (not at its array's length, which would grow by that room with every
     *     order built from the last one)
     */
    Builder(int size, @Nullable PackedKeys from) {
      keys = new String[size];
      ends = new int[size];
      chars = new byte[from != null && from.chars != null ? from.packedLength() + 32 * 4 : size * 32];
    }

    /** Adds key {@code i} of {@code old}, its packed characters copied. */
    void addFrom(PackedKeys old, int i) {
      addRange(old, i, i + 1);
    }

    /** Adds keys {@code [from, to)} of {@code old}, their packed characters copied in one piece. */
    void addRange(PackedKeys old, int from, int to) {
      int n = to - from;
      System.arraycopy(old.keys, from, keys, count, n);
      byte[] src = old.chars;
      if (chars != null && src != null) {
        int start = from == 0 ? 0 : old.ends[from - 1];
        int length = old.ends[to - 1] - start;
        room(length);
        System.arraycopy(src, start, chars, used, length);
        int shift = used - start;
        int[] e = ends;
        int[] oe = old.ends;
        for (int k = 0; k < n; k++) {
          e[count + k] = oe[from + k] + shift;
        }
        used += length;
      } else {
        chars = null;
        Arrays.fill(ends, count, count + n, used);
      }
      count += n;
    }

    /** Adds {@code key}. */
    void add(String key) {
      keys[count] = key;
      if (chars != null) {
        int length = key.length();
        room(length);
        byte[] c = chars;
        for (int j = 0; j < length; j++) {
          char ch = key.charAt(j);
          if (ch > 0xff) {
            chars = null;
            break;
          }
          c[used + j] = (byte) ch;
        }
        if (chars != null) {
          used += length;
        }
      }
      ends[count++] = used;
    }

    private void room(int length) {
      if (used + length > chars.length) {
        chars = Arrays.copyOf(chars, Math.max(chars.length * 2, used + length));
      }
    }

    PackedKeys build() {
      return build(keys);
    }

    private PackedKeys build(String[] sorted) {
      if (count != keys.length) {
        throw new IllegalStateException("packed keys: " + count + " of " + keys.length + " added");
      }
      return new PackedKeys(sorted, chars, ends);
    }
  }
}
