package io.fleetkit.queueing;

/** Why a workload was preempted (Kueue's {@code Preempted} condition reasons). */
public enum PreemptionReason {
  /** By a higher-priority (or older, equal-priority) workload of the same ClusterQueue. */
  IN_CLUSTER_QUEUE("InClusterQueue"),
  /** Its ClusterQueue borrowed quota that the preemptor's ClusterQueue reclaimed. */
  IN_COHORT_RECLAMATION("InCohortReclamation"),
  /** By fair sharing: its ClusterQueue's share was higher than the preemptor's. */
  IN_COHORT_FAIR_SHARING("InCohortFairSharing"),
  /** By a preemptor that borrows itself, under {@code borrowWithinCohort}. */
  IN_COHORT_RECLAIM_WHILE_BORROWING("InCohortReclaimWhileBorrowing");

  private final String kueueName;

  PreemptionReason(String kueueName) {
    this.kueueName = kueueName;
  }

  /** Kueue's spelling, e.g. {@code InCohortReclamation}. */
  public String kueueName() {
    return kueueName;
  }
}
