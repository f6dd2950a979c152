package io.fleetkit.api.framework;

/** Runs when no node passed Filter; may make room (preemption). The first success stops the chain. */
public interface PostFilterPlugin extends Plugin {
  PostFilterResult postFilter(CycleState state, PodInfo pod, Snapshot snapshot, NodeToStatus filteredStatuses);
}
