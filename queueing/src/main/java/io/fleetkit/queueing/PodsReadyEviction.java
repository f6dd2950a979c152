package io.fleetkit.queueing;

import java.util.Objects;

/**
 * What {@code waitForPodsReady} did to an admitted workload whose pods were not ready in time (reported in {@link
 * CycleResult#podsReadyEvictions()}).
 *
 * @param workload the workload's key
 * @param clusterQueue the ClusterQueue whose quota it held
 * @param kind evicted and queued again after a backoff, or deactivated
 * @param reason Kueue's {@code Evicted} condition reason: {@value WaitForPodsReady#REASON_PODS_READY_TIMEOUT} or
 *     {@value WaitForPodsReady#REASON_DEACTIVATED_REQUEUING_LIMIT}
 * @param cause the underlying cause, {@value WaitForPodsReady#CAUSE_WAIT_FOR_START} or {@value
 *     WaitForPodsReady#CAUSE_WAIT_FOR_RECOVERY}
 * @param message Kueue's message: {@code Exceeded the PodsReady timeout ns/wl}, or {@code The workload is deactivated
 *     due to exceeding the maximum number of re-queuing retries}
 */
public record PodsReadyEviction(String workload, String clusterQueue, Kind kind, String reason, String cause,
    String message) {
  public PodsReadyEviction {
    Objects.requireNonNull(workload, "workload");
    Objects.requireNonNull(clusterQueue, "clusterQueue");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(reason, "reason");
    Objects.requireNonNull(cause, "cause");
    Objects.requireNonNull(message, "message");
  }

  /** What happened. */
  public enum Kind {
    /** The quota was released and the workload waits for its backoff ({@link RequeueState#requeueAt()}). */
    EVICTED,
    /** The requeuing limit was reached: the quota was released and the workload waits for {@link
     * AdmissionEngine#reactivate}. */
    DEACTIVATED
  }
}
