package io.fleetkit.api.simulation;

/** What a {@link ScenarioFault} breaks. */
public enum FaultType {
  /** One node (target: the node name) stops heartbeating and running pods. */
  NodeFailure,
  /** Every node whose {@code topology.kubernetes.io/zone} label is the target fails at once. */
  ZoneFailure
}
