package io.fleetkit.queueing;

/**
 * A rule deciding whether fair-sharing preemption may take a workload from another ClusterQueue (Kueue {@code
 * preemptionStrategies}; the default list is both, in this order, the second used only when the first cannot make the
 * preemptor fit).
 */
public enum FairSharingStrategy {
  /** Preempt only if the preemptor queue's share with the new workload ≤ the target queue's share without the victim. */
  LESS_THAN_OR_EQUAL_TO_FINAL_SHARE,
  /** Preempt only if the preemptor queue's share with the new workload &lt; the target queue's share before. */
  LESS_THAN_INITIAL_SHARE
}
