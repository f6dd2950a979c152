package io.fleetkit.autoscale.provisioner;

/** Which nodes consolidation may remove or replace (Karpenter's {@code disruption.consolidationPolicy}). */
public enum ConsolidationPolicy {
  /** Only empty nodes are removed. */
  WhenEmpty,
  /** Empty nodes, and underused nodes whose pods fit elsewhere or on a strictly cheaper replacement (default). */
  WhenEmptyOrUnderutilized,
  /**
   * As {@link #WhenEmptyOrUnderutilized}, but a move of underused nodes is made only when the share of the NodePool's
   * cost it saves is at least half the share of the NodePool's disruption cost it causes ({@link BalancedScoring}).
   */
  Balanced
}
