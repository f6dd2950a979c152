package io.fleetkit.queueing.internal;

import io.fleetkit.queueing.QueueingStrategy;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import org.jspecify.annotations.Nullable;

/**
 * A ClusterQueue's pending workloads: a heap in queue order plus, for BestEffortFIFO, the parked inadmissible ones
 * (Kueue's {@code ClusterQueueBestEffortFIFO.inadmissibleWorkloads}) that return when quota is released. The order is
 * {@link PendingWorkload#ORDER}, or with admission fair sharing an {@link AfsOrder}, whose keys move as LocalQueues'
 * usage changes: the heap is rebuilt whenever its version moved since the last build (Kueue rebuilds its heap when
 * usage or weights change).
 */
final class PendingQueue {
  private final QueueingStrategy strategy;
  private final @Nullable AfsOrder afs;
  private PriorityQueue<PendingWorkload> heap;
  private long builtAt;
  private final Map<String, PendingWorkload> parked = new LinkedHashMap<>();
  /** Every workload here, active or parked, by key: a lookup without copying and sorting the heap. */
  private final Map<String, PendingWorkload> byKey = new HashMap<>();

  /** A queue in {@link PendingWorkload#ORDER}. */
  PendingQueue(QueueingStrategy strategy) {
    this(strategy, null);
  }

  /** A queue in {@code afs} order, or {@link PendingWorkload#ORDER} if {@code null}. */
  PendingQueue(QueueingStrategy strategy, @Nullable AfsOrder afs) {
    this.strategy = strategy;
    this.afs = afs;
    this.heap = new PriorityQueue<>(afs != null ? afs : PendingWorkload.ORDER);
    this.builtAt = afs != null ? afs.version() : 0;
  }

  /**
   * This queue if it has {@code next} as its strategy and {@code order} as its order, else a queue of them with every
   * workload of this one, parked ones included, active.
   */
  PendingQueue withStrategy(QueueingStrategy next, @Nullable AfsOrder order) {
    if (next == strategy && order == afs) {
      return this;
    }
    PendingQueue out = new PendingQueue(next, order);
    out.heap.addAll(heap);
    out.heap.addAll(parked.values());
    out.byKey.putAll(byKey);
    return out;
  }

  /** Whether the queue is ordered by admission fair sharing. */
  boolean fairSharingOrder() {
    return afs != null;
  }

  /** Rebuilds the heap if the fair sharing order moved since it was built. */
  private void reorderIfNeeded() {
    if (afs != null && afs.version() != builtAt) {
      PriorityQueue<PendingWorkload> next = new PriorityQueue<>(Math.max(1, heap.size()), afs);
      next.addAll(heap);
      heap = next;
      builtAt = afs.version();
    }
  }

  void push(PendingWorkload p) {
    reorderIfNeeded();
    heap.add(p);
    byKey.put(p.key(), p);
  }

  @Nullable PendingWorkload pop() {
    reorderIfNeeded();
    PendingWorkload p = heap.poll();
    if (p != null) {
      byKey.remove(p.key(), p);
    }
    return p;
  }

  /** An inadmissible head: parked under BestEffortFIFO, back at the head under StrictFIFO. */
  void requeueInadmissible(PendingWorkload p) {
    if (strategy == QueueingStrategy.BEST_EFFORT_FIFO) {
      parked.put(p.key(), p);
    } else {
      reorderIfNeeded();
      heap.add(p);
    }
    byKey.put(p.key(), p);
  }

  /**
   * Parks {@code p} whatever the queueing strategy (Kueue's requeue of a workload whose namespace the queue's selector
   * does not match: it waits for a change, not at the head of a StrictFIFO queue).
   */
  void park(PendingWorkload p) {
    parked.put(p.key(), p);
    byKey.put(p.key(), p);
  }

  /** Moves every parked workload back into the heap; returns whether there were any. */
  boolean unpark() {
    if (parked.isEmpty()) {
      return false;
    }
    reorderIfNeeded();
    heap.addAll(parked.values());
    parked.clear();
    return true;
  }

  boolean remove(String key) {
    byKey.remove(key);
    if (parked.remove(key) != null) {
      return true;
    }
    return heap.removeIf(p -> p.key().equals(key));
  }

  /** The workload of {@code key} here, active or parked, or {@code null}. */
  @Nullable PendingWorkload get(String key) {
    return byKey.get(key);
  }

  List<String> parkedKeys() {
    return new ArrayList<>(parked.keySet());
  }

  boolean hasActive() {
    return !heap.isEmpty();
  }

  int size() {
    return heap.size() + parked.size();
  }

  /** Active workloads in queue order, then parked ones. */
  List<PendingWorkload> snapshot() {
    reorderIfNeeded();
    List<PendingWorkload> active = new ArrayList<>(heap);
    active.sort(heap.comparator());
    active.addAll(parked.values());
    return active;
  }
}
