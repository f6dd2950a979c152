package io.fleetkit.api.framework;

/**
 * Whether the pod can run on a node. Called in parallel for many nodes; must be thread-safe and read-only.
 * Reject with {@link Status#unschedulable} when preemption could help, else {@link Status#unresolvable}.
 */
public interface FilterPlugin extends Plugin {
  Status filter(CycleState state, PodInfo pod, NodeInfo node);
}
