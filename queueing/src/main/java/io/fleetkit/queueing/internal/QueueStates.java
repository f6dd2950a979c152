package io.fleetkit.queueing.internal;

import io.fleetkit.queueing.ActiveCondition;
import io.fleetkit.queueing.LocalQueue;
import io.fleetkit.queueing.QueueBlocker;
import io.fleetkit.queueing.QueueStopEviction;
import io.fleetkit.queueing.StopPolicy;
import org.jspecify.annotations.Nullable;

/**
 * Kueue's rules about the state of a workload's queues, as pure functions: what a stopped, removed or terminating
 * queue does to a workload holding quota (the workload controller's {@code reconcileOnLocalQueueActiveState} then
 * {@code reconcileOnClusterQueueActiveState}), why a waiting workload's queues keep it from quota ({@code
 * getQueueBlocker}), and a LocalQueue's {@code Active} condition (the LocalQueue controller).
 */
final class QueueStates {
  private QueueStates() {}

  /**
   * What Kueue's workload controller does to a workload holding quota in {@code clusterQueue}: an admitted one is
   * evicted if its LocalQueue, else its ClusterQueue, is {@code HoldAndDrain}; one not admitted (checks not all Ready)
   * loses its reservation if its LocalQueue was removed or is stopped, or its ClusterQueue is terminating or stopped.
   *
   * @param lq the workload's LocalQueue, or {@code null} if the engine does not have it
   * @param lqRemoved whether that LocalQueue was removed (rather than never known)
   * @return the eviction or release, or {@code null} if the workload keeps its quota
   */
  static @Nullable QueueStopEviction stopVerdict(String workload, String clusterQueue, boolean admitted,
      String lqName, @Nullable LocalQueue lq, boolean lqRemoved, StopPolicy cqPolicy, boolean cqTerminating) {
    StopPolicy lqPolicy = lq == null ? StopPolicy.NONE : lq.stopPolicy();
    if (admitted) {
      if (lqPolicy == StopPolicy.HOLD_AND_DRAIN) {
        return new QueueStopEviction(workload, clusterQueue, QueueStopEviction.Kind.EVICTED,
            QueueStopEviction.LOCAL_QUEUE_STOPPED, "The LocalQueue is stopped");
      }
      return cqPolicy != StopPolicy.HOLD_AND_DRAIN ? null
          : new QueueStopEviction(workload, clusterQueue, QueueStopEviction.Kind.EVICTED,
              QueueStopEviction.CLUSTER_QUEUE_STOPPED, "The ClusterQueue is stopped");
    }
    String message = null;
    String reason = QueueBlocker.SUSPENDED;
    if (lq == null && lqRemoved) {
      reason = QueueBlocker.MISCONFIGURED;
      message = "LocalQueue " + lqName + " is terminating or missing";
    } else if (lqPolicy.stops()) {
      message = "LocalQueue " + lqName + " is stopped";
    } else if (cqTerminating) {
      reason = QueueBlocker.MISCONFIGURED;
      message = "ClusterQueue " + clusterQueue + " is terminating or missing";
    } else if (cqPolicy.stops()) {
      message = "ClusterQueue " + clusterQueue + " is stopped";
    }
    return message == null ? null
        : new QueueStopEviction(workload, clusterQueue, QueueStopEviction.Kind.RESERVATION_RELEASED, reason, message);
  }

  /**
   * Kueue's {@code getQueueBlocker} for a workload without quota.
   *
   * @param lq the workload's LocalQueue, or {@code null} if the engine does not have it
   * @param clusterQueue the ClusterQueue that queues the workload, or {@code null} if none does (then {@code lq}, if
   *     given, names one the engine does not have)
   * @param clusterQueueActive whether that ClusterQueue admits workloads
   * @return the blocker, or {@code null} if the queues would admit the workload
   */
  static @Nullable QueueBlocker blocker(String lqName, @Nullable LocalQueue lq, @Nullable String clusterQueue,
      boolean clusterQueueActive) {
    if (lq == null && clusterQueue == null) {
      return new QueueBlocker(QueueBlocker.MISCONFIGURED, "LocalQueue " + lqName + " doesn't exist");
    }
    if (lq != null && lq.stopPolicy().stops()) {
      return new QueueBlocker(QueueBlocker.SUSPENDED, "LocalQueue " + lqName + " is inactive");
    }
    if (clusterQueue == null) {
      return new QueueBlocker(QueueBlocker.MISCONFIGURED, "ClusterQueue " + lq.clusterQueue() + " doesn't exist");
    }
    return clusterQueueActive ? null
        : new QueueBlocker(QueueBlocker.SUSPENDED, "ClusterQueue " + clusterQueue + " is inactive");
  }

  /**
   * A LocalQueue's {@code Active} condition (Kueue's LocalQueue controller).
   *
   * @param clusterQueueActive whether its ClusterQueue admits workloads, or {@code null} if the engine does not have it
   */
  static ActiveCondition localQueueActive(LocalQueue lq, @Nullable Boolean clusterQueueActive) {
    if (lq.stopPolicy().stops()) {
      return new ActiveCondition(false, ActiveCondition.STOPPED, "LocalQueue is stopped");
    }
    if (clusterQueueActive == null) {
      return new ActiveCondition(false, ActiveCondition.CLUSTER_QUEUE_DOES_NOT_EXIST,
          "Can't submit new workloads to clusterQueue");
    }
    if (!clusterQueueActive) {
      return new ActiveCondition(false, ActiveCondition.CLUSTER_QUEUE_IS_INACTIVE,
          "Can't submit new workloads to clusterQueue");
    }
    return new ActiveCondition(true, ActiveCondition.READY, "Can submit new workloads to localQueue");
  }
}
