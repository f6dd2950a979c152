package io.fleetkit.scheduler.internal;

import java.util.Arrays;
import java.util.Comparator;
import org.jspecify.annotations.Nullable;

/** A binary min-heap of queue entries that tracks each entry's index, for O(log n) removal and re-ordering. */
final class PodHeap {
  private final Comparator<QueuedPod> order;
  private QueuedPod[] items = new QueuedPod[64];
  private int size;

  PodHeap(Comparator<QueuedPod> order) {
    this.order = order;
  }

  int size() {
    return size;
  }

  @Nullable QueuedPod peek() {
    return size == 0 ? null : items[0];
  }

  void add(QueuedPod p) {
    if (size == items.length) {
      items = Arrays.copyOf(items, size * 2);
    }
    items[size] = p;
    p.heapIndex = size;
    size++;
    up(p.heapIndex);
  }

  @Nullable QueuedPod poll() {
    if (size == 0) {
      return null;
    }
    QueuedPod top = items[0];
    removeAt(0);
    return top;
  }

  void remove(QueuedPod p) {
    int i = p.heapIndex;
    if (i < 0 || i >= size || items[i] != p) {
      throw new IllegalStateException("pod heap: " + p.key() + " is not in this heap");
    }
    removeAt(i);
  }

  /** Restores order after {@code p}'s sort keys changed. */
  void fix(QueuedPod p) {
    if (!up(p.heapIndex)) {
      down(p.heapIndex);
    }
  }

  QueuedPod get(int i) {
    return items[i];
  }

  private void removeAt(int i) {
    QueuedPod removed = items[i];
    size--;
    if (i != size) {
      items[i] = items[size];
      items[i].heapIndex = i;
      items[size] = null;
      if (!up(i)) {
        down(i);
      }
    } else {
      items[size] = null;
    }
    removed.heapIndex = -1;
  }

  private boolean up(int i) {
    int start = i;
    QueuedPod x = items[i];
    while (i > 0) {
      int parent = (i - 1) >>> 1;
      QueuedPod p = items[parent];
      if (order.compare(x, p) >= 0) {
        break;
      }
      items[i] = p;
      p.heapIndex = i;
      i = parent;
    }
    items[i] = x;
    x.heapIndex = i;
    return i != start;
  }

  private void down(int i) {
    QueuedPod x = items[i];
    int half = size >>> 1;
    while (i < half) {
      int child = 2 * i + 1;
      int right = child + 1;
      if (right < size && order.compare(items[right], items[child]) < 0) {
        child = right;
      }
      if (order.compare(x, items[child]) <= 0) {
        break;
      }
      items[i] = items[child];
      items[i].heapIndex = i;
      i = child;
    }
    items[i] = x;
    x.heapIndex = i;
  }
}
