package io.fleetkit.queueing;

/**
 * Whether a {@link ClusterQueue} or {@link LocalQueue} admits workloads (Kueue's {@code spec.stopPolicy}).
 *
 * <p>A queue with a policy other than {@link #NONE} reserves no new quota: its pending workloads wait, and a workload
 * whose quota is reserved but not yet admitted (admission checks not all Ready) loses its reservation. {@link
 * #HOLD_AND_DRAIN} also evicts the workloads it has admitted. Setting the policy back to {@link #NONE} resumes
 * admission.
 */
public enum StopPolicy {
  /** The queue admits workloads (Kueue's default). */
  NONE("None"),
  /** No new admissions; admitted workloads keep running. */
  HOLD("Hold"),
  /** No new admissions, and admitted workloads are evicted (and wait in the queue until it resumes). */
  HOLD_AND_DRAIN("HoldAndDrain");

  private final String apiName;

  StopPolicy(String apiName) {
    this.apiName = apiName;
  }

  /** The name in Kueue's API: {@code None}, {@code Hold} or {@code HoldAndDrain}. */
  public String apiName() {
    return apiName;
  }

  /** Whether the queue is stopped (a policy other than {@link #NONE}). */
  public boolean stops() {
    return this != NONE;
  }
}
