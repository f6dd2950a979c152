package io.fleetkit.queueing;

import java.util.Objects;

/**
 * What admission checks did to one workload with reserved quota in a cycle or a {@link
 * AdmissionEngine#setCheckState} call.
 *
 * @param workload the workload's key
 * @param clusterQueue the ClusterQueue whose quota it held
 * @param kind what happened
 * @param message Kueue's message: {@code The workload is admitted}, {@code Evicted due to AdmissionCheck in Retry
 *     state: "check-1"}, {@code The workload is deactivated due to AdmissionCheck in Rejected state: "check-1"}
 */
public record CheckOutcome(String workload, String clusterQueue, Kind kind, String message) {
  public CheckOutcome {
    Objects.requireNonNull(workload, "workload");
    Objects.requireNonNull(clusterQueue, "clusterQueue");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(message, "message");
  }

  /** What happened. */
  public enum Kind {
    /** Every check is ready: the workload is admitted (Kueue's {@code Admitted=True}). */
    ADMITTED,
    /**
     * A check is {@link CheckState#RETRY}: the quota was released, the checks reset to pending and the workload is
     * queued again (Kueue's {@code Evicted} reason {@code AdmissionCheck}).
     */
    EVICTED,
    /**
     * A check is {@link CheckState#REJECTED}: the quota was released and the workload deactivated (Kueue's {@code
     * Evicted} reason {@code DeactivatedDueToAdmissionCheck}); it waits for {@link AdmissionEngine#reactivate}.
     */
    DEACTIVATED
  }
}
