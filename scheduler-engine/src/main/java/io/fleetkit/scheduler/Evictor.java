package io.fleetkit.scheduler;

import io.fleetkit.api.core.Pod;

/**
 * Carries out preemption: evicts a victim from wherever pods live (the embedded store, a cluster). The scheduler has
 * already removed the victim from its own cache when this is called. Implementations must be thread-safe.
 */
@FunctionalInterface
public interface Evictor {
  /** An evictor that does nothing beyond the scheduler's own bookkeeping (simulations). */
  Evictor NONE = victim -> {};

  /** Evicts {@code victim}; failures are logged by the caller and do not stop scheduling. */
  void evict(Pod victim);

  /**
   * Evicts {@code victim} to make room for {@code preemptor} on {@code nodeName}; this is what the scheduler calls.
   * The default ignores the preemptor and calls {@link #evict(Pod)}; an evictor that reports who preempted the
   * victim (kube's {@code Preempted} event, the {@code DisruptionTarget} condition's message) overrides it.
   *
   * @param preemptor the pod preemption nominated to {@code nodeName}, as the scheduler's queue has it
   */
  default void evict(Pod victim, Pod preemptor, String nodeName) {
    evict(victim);
  }
}
