package io.fleetkit.queueing.internal;

import io.fleetkit.queueing.Workload;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Changes to the spec and status of submitted workloads that keep them where they are: their reclaimable pods
 * ({@code status.reclaimablePods}) and priority, and the WorkloadPriorityClasses that priorities come from. Kueue's
 * workload controller on such a Workload update ({@code pkg/controller/core/workload_controller.go}: the cache replaces
 * the workload and {@code QueueAssociatedInadmissibleWorkloadsAfter} requeues its cohort tree's parked workloads) and
 * its WorkloadPriorityClass reconciler ({@code pkg/controller/core/workloadpriorityclass_controller.go}). Keeps the
 * workloads as submitted of those with reclaimable pods, whose pending or admitted entries carry the counts after
 * reclaim. Not thread-safe; the engine serializes calls.
 */
final class WorkloadUpdates {
  private final AdmittedWorkloads admitted;
  private final PendingWorkloads pending;
  private final FlavorResources index;
  /** Kueue's {@code status.reclaimablePods} of the workloads that have some: pod set name to count. */
  private final Map<String, Map<String, Integer>> reclaimable = new HashMap<>();
  /**
   * The workloads as submitted, of those with reclaimable pods: their pending or admitted entries carry the counts
   * after reclaim ({@link Reclaim#effective}).
   */
  private final Map<String, Workload> submitted = new HashMap<>();
  /** The WorkloadPriorityClasses, by name. */
  private final Map<String, io.fleetkit.queueing.WorkloadPriorityClass> priorityClasses = new java.util.TreeMap<>();

  WorkloadUpdates(AdmittedWorkloads admitted, PendingWorkloads pending, FlavorResources index) {
    this.admitted = admitted;
    this.pending = pending;
    this.index = index;
  }

  /** Forgets what it keeps of a workload that left the engine. */
  void forget(String key) {
    reclaimable.remove(key);
    submitted.remove(key);
  }

  /**
   * Sets the reclaimable pods of a workload (Kueue's {@code status.reclaimablePods}, which its job integration
   * writes): quota counts each pod set's pods after reclaim. A pending workload asks for fewer pods from then on (one
   * parked is queued again, active); an admitted one keeps its admission and holds its usage scaled down to the pods
   * left, which advances its ClusterQueue's generation and requeues the parked workloads of its cohort tree, as when
   * quota is released. An empty map clears them.
   *
   * @return whether they changed
   * @throws IllegalArgumentException if the engine does not know the workload
   * @throws io.fleetkit.api.ValidationException if a count names no pod set of the workload, is negative or above
   *     its pod set's count, or, while the workload holds quota, goes down or is removed
   */
  boolean setReclaimablePods(String key, Map<String, Integer> counts) {
    Map<String, Integer> next = Map.copyOf(counts);
    AdmittedWorkload with = admitted.get(key);
    Workload current = with != null ? with.workload : pending.workload(key);
    if (current == null) {
      throw new IllegalArgumentException("Workload " + key + ": not found; reclaimable pods are set on a submitted "
          + "workload");
    }
    Workload spec = submitted.getOrDefault(key, current);
    Map<String, Integer> previous = reclaimable.getOrDefault(key, Map.of());
    Reclaim.validate(spec, next, previous, with != null);
    if (next.equals(previous)) {
      return false;
    }
    if (next.isEmpty()) {
      reclaimable.remove(key);
      submitted.remove(key);
    } else {
      reclaimable.put(key, next);
      submitted.put(key, spec);
    }
    Workload effective = Reclaim.effective(spec, next);
    if (with == null) {
      pending.replace(key, effective);
      return true;
    }
    long[] values = Reclaim.usage(spec, with.admission, next, index, with.frs);
    AdmittedWorkload updated = new AdmittedWorkload(effective, with.cq, with.frs, values, with.admission,
        with.sequence);
    admitted.replace(with, updated); // Kueue's cache replaces the workload: the generation advances
    pending.unparkTree(with.cq); // Kueue's QueueAssociatedInadmissibleWorkloadsAfter
    return true;
  }

  /**
   * The workload of {@code key} as submitted (pending, deactivated or holding quota), with its current priority, or
   * {@code null} if the engine does not know it.
   */
  @Nullable Workload workload(String key) {
    Workload spec = submitted.get(key);
    if (spec != null) {
      return spec;
    }
    AdmittedWorkload with = admitted.get(key);
    return with != null ? with.workload : pending.workload(key);
  }

  /**
   * Changes the priority of a workload (Kueue's Workload update of {@code spec.priority} and its class, with the
   * rules of {@link PriorityUpdate}). A pending workload takes its new place in its queue at once, active again if it
   * was parked, and its flavor search starts over (Kueue's scheduling hash includes the priority); one waiting for a
   * backoff, unrouted or deactivated keeps waiting with the new priority. A workload holding quota keeps it, and
   * preemption sees its new priority: Kueue's cache replaces the workload (its ClusterQueue's generation advances)
   * and the parked workloads of its cohort tree are queued again ({@code QueueAssociatedInadmissibleWorkloadsAfter}),
   * so a parked higher-priority head may now preempt it.
   *
   * @return whether the priority or its class changed
   * @throws IllegalArgumentException if the engine does not know the workload
   * @throws io.fleetkit.api.ValidationException if the change breaks {@link PriorityUpdate}'s rules
   */
  boolean updatePriority(String key, io.fleetkit.queueing.WorkloadPriority next) {
    AdmittedWorkload with = admitted.get(key);
    Workload current = with != null ? with.workload : pending.workload(key);
    if (current == null) {
      throw new IllegalArgumentException("Workload " + key + ": not found; the priority is changed on a submitted "
          + "workload");
    }
    PriorityUpdate.validate(current, next, with != null);
    if (current.priorityInfo().equals(next)) {
      return false;
    }
    Workload spec = submitted.get(key);
    if (spec != null) {
      submitted.put(key, spec.withPriority(next));
    }
    Workload effective = current.withPriority(next);
    if (with == null) {
      pending.replace(key, effective);
      return true;
    }
    AdmittedWorkload updated = new AdmittedWorkload(effective, with.cq, with.frs, with.values, with.admission,
        with.sequence);
    admitted.replace(with, updated); // Kueue's cache replaces the workload: the generation advances
    pending.unparkTree(with.cq); // Kueue's QueueAssociatedInadmissibleWorkloadsAfter
    return true;
  }

  /**
   * Adds or replaces a WorkloadPriorityClass. When it is new or its value changed, every workload whose priority
   * came from a class of that name and differs from its value takes the value, as {@link #updatePriority} does
   * (Kueue's WorkloadPriorityClass reconciler and its event predicates); a class put again with the same value
   * changes no workload.
   *
   * @return the keys of the workloads whose priority changed, in key order
   */
  List<String> putWorkloadPriorityClass(io.fleetkit.queueing.WorkloadPriorityClass wpc) {
    io.fleetkit.queueing.WorkloadPriorityClass old = priorityClasses.put(wpc.name(), wpc);
    if (old != null && old.value() == wpc.value()) {
      return List.of(); // Kueue's update predicate: only a changed value is reconciled
    }
    io.fleetkit.queueing.WorkloadPriority p = io.fleetkit.queueing.WorkloadPriority.of(wpc);
    java.util.TreeSet<String> keys = new java.util.TreeSet<>(admitted.keys());
    keys.addAll(pending.keys());
    List<String> changed = new ArrayList<>();
    for (String key : keys) {
      Workload wl = workload(key);
      if (wl != null && wl.priorityClassSource() == io.fleetkit.queueing.PriorityClassSource.WORKLOAD_PRIORITY_CLASS
          && wl.priorityClassName().equals(wpc.name()) && updatePriority(key, p)) {
        changed.add(key);
      }
    }
    return changed;
  }

  /** Removes a WorkloadPriorityClass; the workloads that took its value keep it (Kueue ignores the deletion). */
  boolean removeWorkloadPriorityClass(String name) {
    return priorityClasses.remove(name) != null;
  }

  io.fleetkit.queueing.@Nullable WorkloadPriorityClass workloadPriorityClass(String name) {
    return priorityClasses.get(name);
  }

  /** The reclaimable pods of a workload, by pod set ({@link #setReclaimablePods}); empty when none. */
  Map<String, Integer> reclaimablePods(String key) {
    return reclaimable.getOrDefault(key, Map.of());
  }
}
