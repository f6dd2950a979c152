package io.fleetkit.autoscale.provisioner;

/** Which nodes consolidation may remove or replace (Karpenter's {@code disruption.consolidationPolicy}). */
public enum ConsolidationPolicy {
  /** Only empty nodes are removed. */
  WhenEmpty,
  /** Empty nodes, and underused nodes whose pods fit elsewhere or on a strictly cheaper replacement (default). */
  WhenEmptyOrUnderutilized
}
