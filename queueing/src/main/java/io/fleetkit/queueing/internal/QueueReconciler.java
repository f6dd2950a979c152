package io.fleetkit.queueing.internal;

import io.fleetkit.queueing.ClusterQueue;
import io.fleetkit.queueing.Cohort;
import io.fleetkit.queueing.LocalQueue;
import java.util.List;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * What a change of the queue configuration does to the workloads: Kueue's ClusterQueue, Cohort and LocalQueue
 * controllers ({@code pkg/controller/core/clusterqueue_controller.go}, {@code cohort_controller.go}, {@code
 * localqueue_controller.go}) with the queue manager's requeueing on their events ({@code pkg/cache/queue/manager.go}).
 * The configuration itself is the {@link QueueRegistry}'s; after each change the pending workloads move to the queues
 * they are routed to now, their checks follow their queues' specs, the stop policies are enforced on workloads with
 * quota ({@link WorkloadReconciler#enforceStops}), terminating queues no workload holds quota of are dropped, and the
 * parked workloads of the queues the change touched are tried again. Not thread-safe; the engine serializes calls.
 */
final class QueueReconciler {
  private final QueueRegistry registry;
  private final PendingWorkloads pending;
  private final AdmissionCheckStates checks;
  private final WorkloadReconciler workloads;
  /** Admission fair sharing's accounting, or {@code null} if the engine does not have it. */
  private final Supplier<@Nullable AfsAccounting> afs;

  QueueReconciler(QueueRegistry registry, PendingWorkloads pending, AdmissionCheckStates checks,
      WorkloadReconciler workloads, Supplier<@Nullable AfsAccounting> afs) {
    this.registry = registry;
    this.pending = pending;
    this.checks = checks;
    this.workloads = workloads;
    this.afs = afs;
  }

  /** Kueue's ClusterQueue create or update event ({@link QueueScheduler#putClusterQueue}). */
  void putClusterQueue(ClusterQueue spec) {
    dropTerminated();
    queuesChanged(registry.putClusterQueue(spec));
  }

  /** Kueue's ClusterQueue deletion ({@link QueueScheduler#removeClusterQueue}). */
  boolean removeClusterQueue(String name) {
    CqState cq = registry.queue(name);
    if (cq == null) {
      return false;
    }
    if (registry.terminateIfInUse(cq)) {
      workloads.enforceStops();
    }
    dropTerminated();
    if (!cq.terminating) {
      registry.removeClusterQueue(name);
      queuesChanged(List.of());
    }
    return true;
  }

  /** Kueue's Cohort create or update event ({@link QueueScheduler#putCohort}). */
  void putCohort(Cohort cohort) {
    dropTerminated();
    queuesChanged(registry.putCohort(cohort));
  }

  /** Kueue's Cohort deletion ({@link QueueScheduler#removeCohort}). */
  boolean removeCohort(String name) {
    if (!registry.hasCohort(name)) {
      return false;
    }
    dropTerminated();
    queuesChanged(registry.removeCohort(name));
    return true;
  }

  /** Kueue's LocalQueue create or update event ({@link QueueScheduler#putLocalQueue}). */
  void putLocalQueue(LocalQueue lq) {
    AfsAccounting afs = this.afs.get();
    dropTerminated();
    registry.putLocalQueue(lq);
    if (afs != null) {
      afs.weightsChanged();
    }
    queuesChanged(List.of());
  }

  /** Kueue's LocalQueue deletion ({@link QueueScheduler#removeLocalQueue}). */
  boolean removeLocalQueue(String namespace, String name) {
    AfsAccounting afs = this.afs.get();
    if (!registry.removeLocalQueue(namespace, name)) {
      return false;
    }
    if (afs != null) {
      afs.forget(namespace + "/" + name);
    }
    dropTerminated();
    queuesChanged(List.of());
    return true;
  }

  /** Drops every terminating queue no workload holds quota of any more. */
  void dropTerminated() {
    if (registry.dropTerminated()) {
      queuesChanged(List.of());
    }
  }

  /**
   * After a queue or cohort change: pending workloads move to the queues their LocalQueues now name (or wait
   * unrouted), the admission checks of pending workloads follow their queues' specs, the stop policies are enforced on
   * workloads with quota, and the parked workloads of {@code touched} are tried again.
   */
  private void queuesChanged(List<CqState> touched) {
    reroute();
    pending.forEachQueued((key, cq) -> checks.sync(key, cq, null));
    workloads.enforceStops();
    for (CqState cq : touched) {
      if (!cq.removed) {
        pending.unpark(cq);
      }
    }
  }

  /**
   * Moves every pending workload that {@link QueueRegistry#route} places elsewhere now (Kueue's LocalQueue add and
   * delete); one queued in another ClusterQueue gets that queue's checks.
   */
  private void reroute() {
    pending.reroute().forEach((key, to) -> checks.sync(key, to, null));
  }
}
