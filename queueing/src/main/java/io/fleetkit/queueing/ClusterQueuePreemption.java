package io.fleetkit.queueing;

import java.util.Objects;

/**
 * A ClusterQueue's preemption settings (Kueue {@code ClusterQueuePreemption}).
 *
 * @param withinClusterQueue whom a pending workload may preempt in its own ClusterQueue when it does not fit
 * @param reclaimWithinCohort whom it may preempt in borrowing ClusterQueues of the cohort to get its nominal quota back
 * @param borrowWithinCohort whether it may preempt in the cohort while it borrows itself
 */
public record ClusterQueuePreemption(
    QueuePreemptionPolicy withinClusterQueue,
    QueuePreemptionPolicy reclaimWithinCohort,
    BorrowWithinCohort borrowWithinCohort) {
  /** Kueue's default: never preempt. */
  public static final ClusterQueuePreemption NEVER =
      new ClusterQueuePreemption(QueuePreemptionPolicy.NEVER, QueuePreemptionPolicy.NEVER, BorrowWithinCohort.NEVER);

  public ClusterQueuePreemption {
    Objects.requireNonNull(withinClusterQueue, "withinClusterQueue");
    Objects.requireNonNull(reclaimWithinCohort, "reclaimWithinCohort");
    Objects.requireNonNull(borrowWithinCohort, "borrowWithinCohort");
  }

  public static ClusterQueuePreemption of(QueuePreemptionPolicy withinClusterQueue, QueuePreemptionPolicy reclaimWithinCohort) {
    return new ClusterQueuePreemption(withinClusterQueue, reclaimWithinCohort, BorrowWithinCohort.NEVER);
  }
}
