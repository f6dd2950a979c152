package io.fleetkit.queueing.internal;

import io.fleetkit.queueing.QueueingStrategy;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import org.jspecify.annotations.Nullable;

/**
 * A ClusterQueue's pending workloads: a heap in queue order plus, for BestEffortFIFO, the parked inadmissible ones
 * (Kueue's {@code ClusterQueueBestEffortFIFO.inadmissibleWorkloads}) that return when quota is released.
 */
final class PendingQueue {
  private final QueueingStrategy strategy;
  private final PriorityQueue<PendingWorkload> heap = new PriorityQueue<>(PendingWorkload.ORDER);
  private final Map<String, PendingWorkload> parked = new LinkedHashMap<>();

  PendingQueue(QueueingStrategy strategy) {
    this.strategy = strategy;
  }

  /**
   * This queue if it has {@code next} as its strategy, else a queue of {@code next} with every workload of this one,
   * parked ones included, active.
   */
  PendingQueue withStrategy(QueueingStrategy next) {
    if (next == strategy) {
      return this;
    }
    PendingQueue out = new PendingQueue(next);
    out.heap.addAll(heap);
    out.heap.addAll(parked.values());
    return out;
  }

  void push(PendingWorkload p) {
    heap.add(p);
  }

  @Nullable PendingWorkload pop() {
    return heap.poll();
  }

  /** An inadmissible head: parked under BestEffortFIFO, back at the head under StrictFIFO. */
  void requeueInadmissible(PendingWorkload p) {
    if (strategy == QueueingStrategy.BEST_EFFORT_FIFO) {
      parked.put(p.key(), p);
    } else {
      heap.add(p);
    }
  }

  /**
   * Parks {@code p} whatever the queueing strategy (Kueue's requeue of a workload whose namespace the queue's selector
   * does not match: it waits for a change, not at the head of a StrictFIFO queue).
   */
  void park(PendingWorkload p) {
    parked.put(p.key(), p);
  }

  /** Moves every parked workload back into the heap; returns whether there were any. */
  boolean unpark() {
    if (parked.isEmpty()) {
      return false;
    }
    heap.addAll(parked.values());
    parked.clear();
    return true;
  }

  boolean remove(String key) {
    if (parked.remove(key) != null) {
      return true;
    }
    return heap.removeIf(p -> p.key().equals(key));
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
    List<PendingWorkload> active = new ArrayList<>(heap);
    active.sort(PendingWorkload.ORDER);
    active.addAll(parked.values());
    return active;
  }
}
