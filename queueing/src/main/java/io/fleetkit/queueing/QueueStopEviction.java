package io.fleetkit.queueing;

import java.util.Objects;

/**
 * What stopping or removing a queue ({@link StopPolicy}) did to a workload holding its quota (reported in {@link
 * CycleResult#queueStops()}), after Kueue's workload controller: an admitted workload of a queue set to {@link
 * StopPolicy#HOLD_AND_DRAIN} is evicted; a workload whose quota is reserved but not yet admitted loses the
 * reservation under either stopping policy, and when its LocalQueue is removed or its ClusterQueue terminating.
 * Either way it waits for its queues again.
 *
 * @param workload the workload's key
 * @param clusterQueue the ClusterQueue whose quota it held
 * @param kind evicted (it was admitted) or its reservation released (it was not)
 * @param reason for an eviction Kueue's {@code Evicted} condition reason, {@value #CLUSTER_QUEUE_STOPPED} or {@value
 *     #LOCAL_QUEUE_STOPPED}; for a released reservation its {@code QuotaReserved=False} reason, {@value
 *     QueueBlocker#SUSPENDED} (a queue is stopped) or {@value QueueBlocker#MISCONFIGURED} (its LocalQueue was
 *     removed, or its ClusterQueue is terminating)
 * @param message Kueue's message: {@code The ClusterQueue is stopped}, {@code The LocalQueue is stopped}, or for a
 *     released reservation {@code ClusterQueue cq is stopped}, {@code LocalQueue lq is stopped}, {@code ClusterQueue
 *     cq is terminating or missing}, {@code LocalQueue lq is terminating or missing}
 */
public record QueueStopEviction(String workload, String clusterQueue, Kind kind, String reason, String message) {
  /** Kueue's eviction reason when the workload's ClusterQueue is stopped ({@code WorkloadEvictedByClusterQueueStopped}). */
  public static final String CLUSTER_QUEUE_STOPPED = "ClusterQueueStopped";
  /** Kueue's eviction reason when the workload's LocalQueue is stopped ({@code WorkloadEvictedByLocalQueueStopped}). */
  public static final String LOCAL_QUEUE_STOPPED = "LocalQueueStopped";

  public QueueStopEviction {
    Objects.requireNonNull(workload, "workload");
    Objects.requireNonNull(clusterQueue, "clusterQueue");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(reason, "reason");
    Objects.requireNonNull(message, "message");
  }

  /** What happened. */
  public enum Kind {
    /** An admitted workload was evicted ({@link StopPolicy#HOLD_AND_DRAIN}): its quota released. */
    EVICTED,
    /**
     * A reservation whose admission checks were not all Ready was released: a queue is stopped, its LocalQueue was
     * removed or its ClusterQueue is terminating.
     */
    RESERVATION_RELEASED
  }
}
