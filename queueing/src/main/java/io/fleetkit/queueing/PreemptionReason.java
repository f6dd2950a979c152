package io.fleetkit.queueing;

/** Why a workload was preempted (Kueue's {@code Preempted} condition reasons). */
public enum PreemptionReason {
  /** By a higher-priority (or older, equal-priority) workload of the same ClusterQueue. */
  IN_CLUSTER_QUEUE("InClusterQueue", "prioritization in the ClusterQueue"),
  /** Its ClusterQueue borrowed quota that the preemptor's ClusterQueue reclaimed. */
  IN_COHORT_RECLAMATION("InCohortReclamation", "reclamation within the cohort"),
  /** By fair sharing: its ClusterQueue's share was higher than the preemptor's. */
  IN_COHORT_FAIR_SHARING("InCohortFairSharing", "Fair Sharing within the cohort"),
  /** By a preemptor that borrows itself, under {@code borrowWithinCohort}. */
  IN_COHORT_RECLAIM_WHILE_BORROWING("InCohortReclaimWhileBorrowing", "reclamation within the cohort while borrowing");

  private final String kueueName;
  private final String humanReadable;

  PreemptionReason(String kueueName, String humanReadable) {
    this.kueueName = kueueName;
    this.humanReadable = humanReadable;
  }

  /** Kueue's {@code HumanReadablePreemptionReasons}, as its preemption messages say it. */
  public String humanReadable() {
    return humanReadable;
  }

  /** Kueue's spelling, e.g. {@code InCohortReclamation}. */
  public String kueueName() {
    return kueueName;
  }
}
