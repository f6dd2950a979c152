package io.fleetkit.api.framework;

import org.jspecify.annotations.Nullable;

/**
 * Per-pod precomputation before Filter; writes {@link CycleState}. May reject the pod outright or narrow the
 * candidate nodes. Returning {@link PreFilterResult#skip()} skips this plugin's Filter for the pod.
 */
public interface PreFilterPlugin extends Plugin {
  PreFilterResult preFilter(CycleState state, PodInfo pod, Snapshot snapshot);

  /**
   * Incremental updates of this plugin's cycle state when preemption removes victims or nominated pods are added;
   * {@code null} when the plugin's state does not depend on other pods.
   */
  default @Nullable PreFilterExtensions preFilterExtensions() {
    return null;
  }

  /** Updates a cloned cycle state as if {@code other} were added to or removed from {@code node}. */
  interface PreFilterExtensions {
    Status addPod(CycleState state, PodInfo podToSchedule, PodInfo other, NodeInfo node);

    Status removePod(CycleState state, PodInfo podToSchedule, PodInfo other, NodeInfo node);
  }
}
