package io.fleetkit.reconcile.node;

import io.fleetkit.api.core.Pod;

/**
 * What a simulated container uses of memory now: the working set the kubelet's stats provider would report (cAdvisor's
 * {@code memory.workingSet}). A {@link NodeAgent} built with one OOM-kills a container whose usage exceeds its memory
 * limit and runs the eviction manager's memory pressure rules over its pods; an agent without one models no memory
 * use and does neither. Called on the thread that syncs the agent, at most once per running container per
 * {@linkplain NodeAgent#HOUSEKEEPING_PERIOD housekeeping interval}.
 */
@FunctionalInterface
public interface MemoryUsage {
  /**
   * The working set in bytes of the running container named {@code container} of {@code pod} (the agent's copy of the
   * pod) at the clock's now; 0 when nothing is known of it.
   */
  long workingSetBytes(Pod pod, String container);
}
