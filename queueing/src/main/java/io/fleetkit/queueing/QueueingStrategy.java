package io.fleetkit.queueing;

/** How a {@link ClusterQueue} orders and retries its pending workloads. Both order by priority, then creation time. */
public enum QueueingStrategy {
  /** The head blocks the queue: no other workload is tried while the head does not fit. */
  STRICT_FIFO,
  /**
   * An inadmissible head is parked and the next workload is tried; parked workloads return when quota is released in
   * the cohort. Kueue's default.
   */
  BEST_EFFORT_FIFO
}
