package io.fleetkit.scheduler.internal;

import io.fleetkit.api.framework.PodInfo;
import java.util.AbstractList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.RandomAccess;
import org.jspecify.annotations.Nullable;

/**
 * A node's pods in an array whose published prefixes never change: {@link #add} writes past the end of every
 * {@link #snapshot} taken so far (or into a grown copy); {@link #remove} closes the gap in place when the pod lies past
 * every published prefix (a pod added since the last snapshot, as an assumed pod confirmed by its binding is), and
 * otherwise builds a new array. A snapshot is therefore an O(1) immutable list, where copying the pods into each new
 * node view cost O(pods on the node) per bind. Written under the scheduler's lock; snapshots may be read from any
 * thread once published.
 */
final class PodVector {
  private static final PodInfo[] NONE = new PodInfo[0];

  private PodInfo[] items = NONE;
  /** {@code items[i].key().hashCode()}: a removal scans these ints rather than following each pod to its key. */
  private int[] hashes = new int[0];
  private int size;
  /** The longest prefix of {@code items} a snapshot holds: positions below it are never written again. */
  private int published;

  void add(PodInfo p) {
    if (size == items.length) {
      items = Arrays.copyOf(items, Math.max(4, size * 2));
      hashes = Arrays.copyOf(hashes, items.length);
      published = 0;
    }
    hashes[size] = p.key().hashCode();
    items[size++] = p;
  }

  /** Removes the pod with {@code key}; returns it, or null when it is not here. */
  @Nullable PodInfo remove(String key) {
    int h = key.hashCode();
    int[] hs = hashes;
    for (int i = 0; i < size; i++) {
      if (hs[i] == h && items[i].key().equals(key)) {
        PodInfo removed = items[i];
        System.arraycopy(hs, i + 1, hs, i, size - i - 1); // read by this vector alone: no snapshot holds it
        if (i >= published) { // no snapshot holds position i or any after it
          System.arraycopy(items, i + 1, items, i, size - i - 1);
          items[--size] = null;
          return removed;
        }
        PodInfo[] next = new PodInfo[items.length];
        System.arraycopy(items, 0, next, 0, i);
        System.arraycopy(items, i + 1, next, i, size - i - 1);
        items = next;
        size--;
        published = 0;
        return removed;
      }
    }
    return null;
  }

  boolean isEmpty() {
    return size == 0;
  }

  /** The pods now, as an immutable list that later adds and removes do not change. */
  List<PodInfo> snapshot() {
    if (size == 0) {
      return List.of();
    }
    published = size;
    return new Prefix(items, size);
  }

  private static final class Prefix extends AbstractList<PodInfo> implements RandomAccess {
    private final PodInfo[] items;
    private final int size;

    Prefix(PodInfo[] items, int size) {
      this.items = items;
      this.size = size;
    }

    @Override
    public PodInfo get(int index) {
      return items[Objects.checkIndex(index, size)];
    }

    @Override
    public int size() {
      return size;
    }
  }
}
