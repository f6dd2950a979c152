package io.fleetkit.autoscale.provisioner;

/**
 * What a disruption budget applies to (Karpenter's {@code DisruptionReason}, {@code pkg/apis/v1/nodepool.go}): the
 * provisioner's Emptiness removes nodes for {@link #Empty}, its multi- and single-node consolidation for
 * {@link #Underutilized}.
 */
public enum DisruptionReason {
  /** Consolidation of nodes whose pods fit elsewhere or on a cheaper replacement. */
  Underutilized,
  /** Removal of empty nodes. */
  Empty,
  /**
   * Replacement of nodes that no longer match their NodePool. The provisioner does not model drift, so a budget for
   * this reason alone limits nothing.
   */
  Drifted
}
