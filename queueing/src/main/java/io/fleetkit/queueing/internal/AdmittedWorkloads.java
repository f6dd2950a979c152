package io.fleetkit.queueing.internal;

import io.fleetkit.queueing.PodSetAssignment;
import io.fleetkit.queueing.QuotaReservation;
import io.fleetkit.queueing.Workload;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The workloads holding quota, by key: Kueue's scheduler cache of workloads with a reservation ({@code
 * pkg/cache/scheduler/cache.go}, {@code AddOrUpdateWorkload}, {@code DeleteWorkload}), each one counted in its
 * ClusterQueue's usage ({@link CqState#add}) for as long as it is here. It also hands out the engine's arrival numbers
 * ({@link #nextSequence}), which pending and admitted entries share, so that their order is the order they arrived in.
 * Not thread-safe; the engine serializes calls.
 */
final class AdmittedWorkloads {
  private final Map<String, AdmittedWorkload> byKey = new HashMap<>();
  private long sequence;

  /** The next arrival number, for a pending or an admitted entry. */
  long nextSequence() {
    return sequence++;
  }

  @Nullable AdmittedWorkload get(String key) {
    return byKey.get(key);
  }

  boolean contains(String key) {
    return byKey.containsKey(key);
  }

  /** The workloads with quota, a live view. */
  Collection<AdmittedWorkload> values() {
    return byKey.values();
  }

  /** Their keys, a live view. */
  Set<String> keys() {
    return byKey.keySet();
  }

  int size() {
    return byKey.size();
  }

  /** Adds {@code w}, its usage counted in its ClusterQueue. */
  void add(AdmittedWorkload w) {
    w.cq.add(w);
    byKey.put(w.key(), w);
  }

  /** Removes the workload of {@code key}, its usage released from its ClusterQueue; returns it, or {@code null}. */
  @Nullable AdmittedWorkload remove(String key) {
    AdmittedWorkload w = byKey.remove(key);
    if (w != null) {
      w.cq.remove(w);
    }
    return w;
  }

  /**
   * Puts {@code updated} in the place of {@code old}, of the same key and ClusterQueue (Kueue's cache replaces the
   * workload: the queue's generation advances).
   */
  void replace(AdmittedWorkload old, AdmittedWorkload updated) {
    old.cq.remove(old);
    updated.cq.add(updated);
    byKey.put(updated.key(), updated);
  }

  /** Records a reservation of {@code total} milli-units per flavor-resource. */
  QuotaReservation reserve(Workload wl, CqState cq, long[] total, List<PodSetAssignment> podSets, Instant at) {
    int[] frs = FlavorResources.nonZero(total);
    long[] vals = FlavorResources.valuesAt(total, frs);
    boolean borrows = false;
    for (int fr : frs) {
      borrows |= cq.borrowingWith(fr, total[fr]);
    }
    QuotaReservation admission = new QuotaReservation(wl.key(), cq.name, podSets, at, borrows);
    add(new AdmittedWorkload(wl, cq, frs, vals, admission, nextSequence()));
    return admission;
  }

  /** Every workload with quota, oldest reservation first. */
  List<AdmittedWorkload> oldestFirst() {
    return oldestFirst(new ArrayList<>(byKey.values()));
  }

  /** Sorts {@code ws} oldest reservation first and returns it. */
  static List<AdmittedWorkload> oldestFirst(List<AdmittedWorkload> ws) {
    ws.sort(Comparator.comparingLong(w -> w.sequence));
    return ws;
  }

  /** The keys of the workloads whose topology assignments name {@code node}, oldest reservation first. */
  List<String> on(String node) {
    List<AdmittedWorkload> on = new ArrayList<>();
    for (AdmittedWorkload w : byKey.values()) {
      if (NodeFailures.names(w, node)) {
        on.add(w);
      }
    }
    oldestFirst(on);
    List<String> keys = new ArrayList<>(on.size());
    for (AdmittedWorkload w : on) {
      keys.add(w.key());
    }
    return keys;
  }
}
