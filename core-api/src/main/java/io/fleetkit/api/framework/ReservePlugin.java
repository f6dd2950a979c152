package io.fleetkit.api.framework;

/**
 * Claims plugin-held resources for the chosen node before the pod is bound. {@link #unreserve} is called in
 * reverse order on any later failure and must be idempotent.
 */
public interface ReservePlugin extends Plugin {
  Status reserve(CycleState state, PodInfo pod, String nodeName);

  void unreserve(CycleState state, PodInfo pod, String nodeName);
}
