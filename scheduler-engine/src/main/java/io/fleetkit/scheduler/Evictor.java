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
}
