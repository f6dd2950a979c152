package io.fleetkit.queueing;

import java.util.Objects;

/**
 * Why a workload's queues keep it from quota, as Kueue's {@code QuotaReserved=False} condition of a workload without
 * a reservation ({@code getQueueBlocker}; {@link AdmissionEngine#queueBlocker}), or of one whose reservation its queue
 * released ({@link QueueStopEviction}).
 *
 * @param reason {@value #MISCONFIGURED} (a queue does not exist, or is terminating) or {@value #SUSPENDED} (a queue is
 *     stopped or inactive)
 * @param message Kueue's message, e.g. {@code LocalQueue lq doesn't exist}, {@code ClusterQueue cq is inactive}
 */
public record QueueBlocker(String reason, String message) {
  /** Kueue's reason when the workload's LocalQueue or ClusterQueue does not exist or is terminating. */
  public static final String MISCONFIGURED = "Misconfigured";
  /** Kueue's reason when the workload's LocalQueue or ClusterQueue is stopped or inactive. */
  public static final String SUSPENDED = "Suspended";

  public QueueBlocker {
    Objects.requireNonNull(reason, "reason");
    Objects.requireNonNull(message, "message");
  }
}
