package io.fleetkit.scheduler.internal;

import io.fleetkit.api.framework.QueuedPodInfo;
import io.fleetkit.scheduler.PendingPod;

/** A pending pod's queue entry: the pod, its profile and its bookkeeping. Confined to the scheduler's lock. */
final class QueuedPod {
  /** Where the entry is. */
  enum Where { NONE, ACTIVE, BACKOFF, UNSCHEDULABLE, GATED, IN_FLIGHT, WAITING }

  EnginePodInfo info;
  final Framework framework;
  long timestampNanos;
  /**
   * When the pod first entered activeQ (kube's {@code InitialAttemptTimestamp}); until then, when it was queued.
   */
  long initialAttemptNanos;
  /** Whether the pod has entered activeQ at least once (then {@link #initialAttemptNanos} is fixed). */
  boolean everActive;
  int attempts;
  long backoffExpiryNanos;
  Where where = Where.NONE;
  /** The heap holding this entry's live slot, and that slot's stamp ({@link PodHeap}); null when in none. */
  @org.jspecify.annotations.Nullable PodHeap heap;
  long heapStamp;
  long seq;
  long cycle = -1;
  /**
   * While in flight (popped, until re-queued, bound or deleted): the sequence number of the last cluster event the
   * queue recorded before the pop, so later ones are the events during its attempt; -1 when not in flight.
   */
  long inFlightSince = -1;
  /**
   * The PreEnqueue plugin that last kept the pod out of activeQ (kube's {@code GatingPlugin}); while the pod is gated
   * its registered events are the only cluster events looked at for the pod (kube's {@code GatingPluginEvents}), and
   * it is one of the plugins whose hints answer for those and for an update of the pod. Empty when none did.
   */
  String gatedBy = "";
  String message = "";
  /** The plugins that rejected the pod in its last attempt (their registered events re-queue it). */
  java.util.Set<String> rejectors = java.util.Set.of();
  /**
   * Those of {@link #rejectors} that answered {@link io.fleetkit.api.framework.Status.Code#PENDING} (kube's
   * {@code PendingPlugins}): a Queue from one of their hints sends the pod to activeQ without backoff.
   */
  java.util.Set<String> pending = java.util.Set.of();
  /**
   * The plugins this pod counts under in {@code scheduler_unschedulable_pods}: kube's {@code UnschedulablePlugins}
   * (its last attempt's rejectors and the plugin gating it at PreEnqueue), cleared when it is popped or deleted.
   */
  java.util.Set<String> countedUnder = java.util.Set.of();
  QueuedPodInfo queued;
  /** {@code queued}'s priority and timestamp, read by the PrioritySort fast path of the active queue's heap. */
  int sortPriority;
  long sortTimestampNanos;

  QueuedPod(EnginePodInfo info, Framework framework, long nowNanos) {
    this.info = info;
    this.framework = framework;
    this.timestampNanos = nowNanos;
    this.initialAttemptNanos = nowNanos;
    this.queued = new QueuedPodInfo(info, nowNanos, nowNanos, 0);
    this.sortPriority = info.priority();
    this.sortTimestampNanos = nowNanos;
  }

  /** Refreshes the record QueueSort plugins see after the pod, its timestamp or attempts changed. */
  void refresh() {
    queued = new QueuedPodInfo(info, timestampNanos, initialAttemptNanos, attempts);
    sortPriority = info.priority();
    sortTimestampNanos = timestampNanos;
  }

  String key() {
    return info.key();
  }

  PendingPod toPending() {
    PendingPod.Queue q = switch (where) {
      case ACTIVE, IN_FLIGHT, NONE -> PendingPod.Queue.ACTIVE;
      case BACKOFF -> PendingPod.Queue.BACKOFF;
      case UNSCHEDULABLE -> PendingPod.Queue.UNSCHEDULABLE;
      case GATED -> PendingPod.Queue.GATED;
      case WAITING -> PendingPod.Queue.WAITING_ON_PERMIT;
    };
    return new PendingPod(key(), q, attempts, message);
  }
}
