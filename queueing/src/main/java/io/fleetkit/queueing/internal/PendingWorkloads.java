package io.fleetkit.queueing.internal;

import io.fleetkit.queueing.Workload;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import org.jspecify.annotations.Nullable;

/**
 * Where each workload without quota waits (Kueue's queue manager, with the workloads it holds back). A workload is in
 * at most one {@link Place}:
 *
 * <ul>
 *   <li>{@link Place#QUEUED}: in a ClusterQueue's {@link PendingQueue}, active or parked;
 *   <li>{@link Place#HEAD}: popped from its queue by the running cycle, until the cycle puts it back, parks it or
 *       admits it (none between cycles);
 *   <li>{@link Place#BACKOFF}: pending in a ClusterQueue but out of its queue until a time (a check's Retry delay,
 *       {@code waitForPodsReady}'s requeue);
 *   <li>{@link Place#UNROUTED}: pending, but no ClusterQueue queues it (its LocalQueue is stopped or was removed, or
 *       its ClusterQueue does not exist); it returns to a queue when that changes;
 *   <li>{@link Place#DEACTIVATED}: deactivated (a Rejected check, the requeuing limit), with the eviction message;
 *       not pending.
 * </ul>
 *
 * <p>The queues are the ClusterQueues' own ({@link CqState#pending}; the {@link QueueRegistry} rebuilds one when its
 * strategy changes): within the scheduler only this class changes them. Where a workload is queued is the registry's
 * {@link QueueRegistry#route} answer. A workload with quota is in none of the places: moving one between its quota and
 * this class is the caller's, and {@link #enqueue}, {@link #backoff} and {@link #deactivate} refuse a workload that
 * is already somewhere here.
 *
 * <p>Not thread-safe; the {@link io.fleetkit.queueing.AdmissionEngine} serializes every call.
 */
final class PendingWorkloads {
  /** Where a workload without quota waits. */
  enum Place {
    QUEUED,
    HEAD,
    BACKOFF,
    UNROUTED,
    DEACTIVATED
  }

  /** A deactivated workload, the ClusterQueue it had quota in, and the eviction message. */
  record Deactivated(Workload workload, CqState cq, String message) {}

  private record Backoff(PendingWorkload workload, CqState cq, Instant notBefore) {}

  private final QueueRegistry registry;
  /** The ClusterQueue of every workload queued, popped as a head or waiting for a backoff. */
  private final Map<String, CqState> pendingIn = new HashMap<>();
  /** The heads the running cycle popped and has not put back, parked or admitted yet. */
  private final Map<String, PendingWorkload> heads = new HashMap<>();
  /** Workloads waiting for a backoff, in the order they started to. */
  private final Map<String, Backoff> backoff = new LinkedHashMap<>();
  private final Map<String, PendingWorkload> unrouted = new LinkedHashMap<>();
  private final Map<String, Deactivated> deactivated = new LinkedHashMap<>();

  /** Pending workloads routed by {@code registry}, queued in its ClusterQueues. */
  PendingWorkloads(QueueRegistry registry) {
    this.registry = registry;
  }

  /** Where {@code key} waits, or {@code null} if nowhere here (it holds quota, or the engine does not know it). */
  @Nullable Place placeOf(String key) {
    if (heads.containsKey(key)) {
      return Place.HEAD;
    }
    if (backoff.containsKey(key)) {
      return Place.BACKOFF;
    }
    if (pendingIn.containsKey(key)) {
      return Place.QUEUED;
    }
    if (unrouted.containsKey(key)) {
      return Place.UNROUTED;
    }
    return deactivated.containsKey(key) ? Place.DEACTIVATED : null;
  }

  /** Whether {@code key} is in some place here (pending or deactivated). */
  boolean contains(String key) {
    return pendingIn.containsKey(key) || unrouted.containsKey(key) || deactivated.containsKey(key);
  }

  /** Whether {@code key} is pending: queued, a head, waiting for a backoff or unrouted (not deactivated). */
  boolean isPending(String key) {
    return pendingIn.containsKey(key) || unrouted.containsKey(key);
  }

  /**
   * The ClusterQueue {@code key} is pending in (queued, a head or waiting for a backoff there), or {@code null} if it
   * is unrouted, deactivated or not here.
   */
  @Nullable CqState queueOf(String key) {
    return pendingIn.get(key);
  }

  /** The workload of {@code key} in whatever place it is, or {@code null} if it is nowhere here. */
  @Nullable Workload workload(String key) {
    PendingWorkload p = pendingWorkload(key);
    if (p != null) {
      return p.workload;
    }
    Deactivated d = deactivated.get(key);
    return d == null ? null : d.workload();
  }

  /**
   * How far the flavor search of pending {@code key} got ({@link PendingWorkload#lastAssignment}), or {@code null} if
   * it has none or is not pending.
   */
  @Nullable FlavorScanProgress lastAssignment(String key) {
    PendingWorkload p = pendingWorkload(key);
    return p == null ? null : p.lastAssignment;
  }

  /** The pending entry of {@code key} (queued, a head, waiting for a backoff or unrouted), or {@code null}. */
  private @Nullable PendingWorkload pendingWorkload(String key) {
    PendingWorkload head = heads.get(key);
    if (head != null) {
      return head;
    }
    Backoff b = backoff.get(key);
    if (b != null) {
      return b.workload();
    }
    PendingWorkload held = unrouted.get(key);
    if (held != null) {
      return held;
    }
    CqState cq = pendingIn.get(key);
    return cq == null ? null : find(cq, key);
  }

  private static @Nullable PendingWorkload find(CqState cq, String key) {
    return cq.pending.get(key);
  }

  /** The keys of every workload here, in every place (deactivated ones included). */
  List<String> keys() {
    List<String> out = new ArrayList<>(pendingIn.keySet());
    out.addAll(unrouted.keySet());
    out.addAll(deactivated.keySet());
    return out;
  }

  /** The number of pending workloads (every place but {@link Place#DEACTIVATED}). */
  int pendingCount() {
    return pendingIn.size() + unrouted.size();
  }

  /**
   * The workloads pending in {@code cq}: its queue's active ones in queue order, then its parked ones, then those
   * waiting for a backoff there in the order they started to.
   */
  List<String> pendingKeys(CqState cq) {
    List<String> out = new ArrayList<>();
    for (PendingWorkload p : cq.pending.snapshot()) {
      out.add(p.key());
    }
    for (Map.Entry<String, Backoff> e : backoff.entrySet()) {
      if (e.getValue().cq() == cq) {
        out.add(e.getKey());
      }
    }
    return out;
  }

  /** The workloads parked in {@code cq}'s queue (inadmissible until {@link #unpark}), in the order they were parked. */
  List<String> parkedKeys(CqState cq) {
    return cq.pending.parkedKeys();
  }

  /** Whether some ClusterQueue of the registry has an active (not parked) workload in its queue. */
  boolean hasActive() {
    for (CqState cq : registry.queues()) {
      if (cq.pending.hasActive()) {
        return true;
      }
    }
    return false;
  }

  /** Calls {@code action} with every workload queued in a ClusterQueue (or a head of it), and the queue. */
  void forEachQueued(BiConsumer<String, CqState> action) {
    for (Map.Entry<String, CqState> e : pendingIn.entrySet()) {
      if (!backoff.containsKey(e.getKey())) {
        action.accept(e.getKey(), e.getValue());
      }
    }
  }

  /** The eviction message of a deactivated workload, or {@code null} if {@code key} is not deactivated. */
  @Nullable String deactivatedMessage(String key) {
    Deactivated d = deactivated.get(key);
    return d == null ? null : d.message();
  }

  /**
   * Queues {@code p} in the ClusterQueue {@link QueueRegistry#route} gives for it from {@code current}, or holds it
   * unrouted if none.
   *
   * @return the ClusterQueue it is queued in now, or {@code null} if unrouted
   * @throws IllegalStateException if {@code p}'s workload is already somewhere here
   */
  @Nullable CqState enqueue(PendingWorkload p, @Nullable CqState current) {
    requireNowhere(p.key(), "queued");
    return place(p, current);
  }

  private @Nullable CqState place(PendingWorkload p, @Nullable CqState current) {
    CqState cq = registry.route(p.workload, current);
    if (cq != current) {
      // the progress of a flavor search belongs to the queue it ran in (Kueue builds a new Info for the workload in
      // its new queue)
      p.lastAssignment = null;
    }
    if (cq == null) {
      pendingIn.remove(p.key());
      unrouted.put(p.key(), p);
    } else {
      unrouted.remove(p.key());
      cq.pending.push(p);
      pendingIn.put(p.key(), cq);
    }
    return cq;
  }

  /**
   * Holds {@code p} pending in {@code cq}, out of its queue, until {@code notBefore} ({@link #releaseBackoff}).
   *
   * @throws IllegalStateException if {@code p}'s workload is already somewhere here
   */
  void backoff(PendingWorkload p, CqState cq, Instant notBefore) {
    requireNowhere(p.key(), "held for a backoff");
    pendingIn.put(p.key(), cq);
    backoff.put(p.key(), new Backoff(p, cq, notBefore));
  }

  /**
   * Takes a workload queued in a ClusterQueue out of its queue until {@code notBefore}; it stays pending in that
   * queue ({@link #releaseBackoff}).
   *
   * @return whether {@code key} was queued (not a head, not waiting for a backoff already)
   */
  boolean delayQueued(String key, Instant notBefore) {
    CqState cq = pendingIn.get(key);
    if (cq == null || backoff.containsKey(key) || heads.containsKey(key)) {
      return false;
    }
    PendingWorkload p = find(cq, key);
    if (p == null) {
      return false;
    }
    cq.pending.remove(key);
    backoff.put(key, new Backoff(p, cq, notBefore));
    return true;
  }

  /**
   * Queues every workload whose backoff ends at or before {@code now} where {@link QueueRegistry#route} gives for it
   * from its ClusterQueue (or holds it unrouted).
   *
   * @return the workloads released, in the order they started to wait
   */
  List<PendingWorkload> releaseBackoff(Instant now) {
    List<PendingWorkload> out = new ArrayList<>();
    for (Iterator<Backoff> it = backoff.values().iterator(); it.hasNext(); ) {
      Backoff b = it.next();
      if (!b.notBefore().isAfter(now)) {
        it.remove();
        place(b.workload(), b.cq());
        out.add(b.workload());
      }
    }
    return out;
  }

  /**
   * Records {@code wl} as deactivated, evicted from {@code cq} with {@code message}; it stays so until {@link
   * #reactivate} or {@link #remove}.
   *
   * @throws IllegalStateException if {@code wl} is already somewhere here
   */
  void deactivate(Workload wl, CqState cq, String message) {
    requireNowhere(wl.key(), "deactivated");
    deactivated.put(wl.key(), new Deactivated(wl, cq, message));
  }

  /**
   * Takes {@code key} out of the deactivated workloads, for the caller to {@link #enqueue} it again.
   *
   * @return what it was deactivated with, or {@code null} (nothing changes) if it is not deactivated
   */
  @Nullable Deactivated reactivate(String key) {
    return deactivated.remove(key);
  }

  /**
   * Pops the head of {@code cq}'s queue for the running cycle; the cycle must then {@link #requeue}, {@link
   * #requeueInadmissible}, {@link #park} or {@link #admit} it.
   *
   * @return the head, or {@code null} if the queue has no active workload
   */
  @Nullable PendingWorkload popHead(CqState cq) {
    PendingWorkload head = cq.pending.pop();
    if (head != null) {
      heads.put(head.key(), head);
    }
    return head;
  }

  /**
   * Puts a head back into its queue, active (a head skipped in this cycle).
   *
   * @throws IllegalStateException if {@code head} is not a head popped by {@link #popHead}
   */
  void requeue(PendingWorkload head) {
    requireHead(head).pending.push(head);
  }

  /**
   * Puts an inadmissible head back: parked under BestEffortFIFO, back at the head under StrictFIFO.
   *
   * @throws IllegalStateException if {@code head} is not a head popped by {@link #popHead}
   */
  void requeueInadmissible(PendingWorkload head) {
    requireHead(head).pending.requeueInadmissible(head);
  }

  /**
   * Parks a head whatever its queue's strategy, until {@link #unpark}.
   *
   * @throws IllegalStateException if {@code head} is not a head popped by {@link #popHead}
   */
  void park(PendingWorkload head) {
    requireHead(head).pending.park(head);
  }

  /**
   * Takes an admitted head out: it holds quota now, and is nowhere here.
   *
   * @throws IllegalStateException if {@code head} is not a head popped by {@link #popHead}
   */
  void admit(PendingWorkload head) {
    requireHead(head);
    pendingIn.remove(head.key());
  }

  private CqState requireHead(PendingWorkload head) {
    if (heads.remove(head.key()) != head) {
      throw new IllegalStateException("Workload " + head.key() + ": not a head of the running cycle (it is "
          + placeOf(head.key()) + ")");
    }
    return pendingIn.get(head.key());
  }

  /** Makes the workloads parked in {@code cq}'s queue active again. */
  void unpark(CqState cq) {
    cq.pending.unpark();
  }

  /**
   * Kueue's {@code QueueInadmissibleWorkloads} ({@code pkg/cache/queue/manager.go}) after quota of {@code cq} was
   * released: makes the workloads parked in every ClusterQueue of its cohort tree (or in {@code cq} alone, without a
   * cohort) active again.
   */
  void unparkTree(CqState cq) {
    CohortState c = cq.cohort;
    if (c == null) {
      unpark(cq);
    } else {
      List<CqState> tree = new ArrayList<>();
      c.root().collectQueues(tree);
      for (CqState m : tree) {
        unpark(m);
      }
    }
  }

  /** Makes the workloads parked in every ClusterQueue of the registry active again. */
  void unparkAll() {
    for (CqState cq : registry.queues()) {
      cq.pending.unpark();
    }
  }

  /**
   * Moves every unrouted or queued workload that {@link QueueRegistry#route} places elsewhere now (Kueue's LocalQueue
   * add and delete): into its new queue, or unrouted. Workloads waiting for a backoff keep their ClusterQueue.
   *
   * @return the workloads now queued in another ClusterQueue than before (or queued after being unrouted), with it
   */
  Map<String, CqState> reroute() {
    List<PendingWorkload> moving = new ArrayList<>(unrouted.values());
    unrouted.clear();
    for (CqState cq : registry.queues()) {
      for (PendingWorkload p : cq.pending.snapshot()) {
        if (registry.route(p.workload, cq) != cq) {
          cq.pending.remove(p.key());
          moving.add(p);
        }
      }
    }
    Map<String, CqState> moved = new LinkedHashMap<>();
    for (PendingWorkload p : moving) {
      CqState from = pendingIn.get(p.key());
      CqState to = place(p, from);
      if (to != null && to != from) {
        moved.put(p.key(), to);
      }
    }
    return moved;
  }

  /**
   * For a ClusterQueue that left the configuration: its queued workloads, then those waiting for a backoff in it
   * (whose backoff no longer counts), wait unrouted; its queue is emptied.
   */
  void drop(CqState gone) {
    for (PendingWorkload p : gone.pending.snapshot()) {
      pendingIn.remove(p.key());
      unrouted.put(p.key(), p);
    }
    gone.pending = new PendingQueue(gone.spec.queueingStrategy(), registry.orderOf(gone.spec));
    for (Iterator<Backoff> it = backoff.values().iterator(); it.hasNext(); ) {
      Backoff b = it.next();
      if (b.cq() == gone) {
        it.remove();
        pendingIn.remove(b.workload().key());
        unrouted.put(b.workload().key(), b.workload());
      }
    }
  }

  /**
   * Replaces the workload of pending or deactivated {@code key} with {@code wl}, the same workload with other pod
   * counts (its reclaimable pods changed), dropping its flavor search's progress. One queued in a ClusterQueue, parked
   * or not, is queued there again, active (Kueue's {@code PushOrUpdate} moves an inadmissible workload whose
   * reclaimable pods changed back to the heap); one waiting for a backoff, unrouted or deactivated stays so.
   *
   * @return whether {@code key} was here
   * @throws IllegalStateException if {@code key} is a head of the running cycle
   */
  boolean replace(String key, Workload wl) {
    if (heads.containsKey(key)) {
      throw new IllegalStateException("Workload " + key + ": a head of the running cycle cannot be replaced");
    }
    Deactivated d = deactivated.get(key);
    if (d != null) {
      deactivated.put(key, new Deactivated(wl, d.cq(), d.message()));
      return true;
    }
    PendingWorkload held = unrouted.get(key);
    if (held != null) {
      unrouted.put(key, held.withWorkload(wl));
      return true;
    }
    Backoff b = backoff.get(key);
    if (b != null) {
      backoff.put(key, new Backoff(b.workload().withWorkload(wl), b.cq(), b.notBefore()));
      return true;
    }
    CqState cq = pendingIn.get(key);
    PendingWorkload p = cq == null ? null : find(cq, key);
    if (p == null) {
      return false;
    }
    cq.pending.remove(key);
    cq.pending.push(p.withWorkload(wl));
    return true;
  }

  /**
   * Removes {@code key} from wherever it is here.
   *
   * @return whether it was here
   */
  boolean remove(String key) {
    if (deactivated.remove(key) != null || unrouted.remove(key) != null) {
      return true;
    }
    CqState cq = pendingIn.remove(key);
    if (cq == null) {
      return false;
    }
    if (backoff.remove(key) == null && heads.remove(key) == null) {
      cq.pending.remove(key);
    }
    return true;
  }

  private void requireNowhere(String key, String next) {
    Place at = placeOf(key);
    if (at != null) {
      throw new IllegalStateException("Workload " + key + ": cannot be " + next + ", it is " + at
          + " already");
    }
  }
}
