package io.fleetkit.scheduler;

import io.fleetkit.api.core.Pod;

/**
 * Carries out preemption where pods live (the embedded store, a cluster), as kube-scheduler's
 * {@code prepareCandidate}: evicts the victims ({@link #evict(Pod, Pod, String)}) and clears the nomination of the
 * lower-priority pods that were nominated to the node preemption took ({@link #clearNominatedNodeName}). The
 * scheduler has already updated its own cache, queue and nominator when these are called, on the scheduling thread
 * holding its lock, so they should be quick. Implementations must be thread-safe.
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

  /**
   * Clears {@code status.nominatedNodeName} of {@code pod}, a pending pod of lower priority than {@code preemptor}
   * that was nominated to {@code nodeName}, which preemption has just nominated {@code preemptor} to: kube's
   * {@code prepareCandidate} clears these at once ({@code util.ClearNominatedNodeName}, one status patch per pod), so
   * that they look for another place rather than wait for room they no longer hold. The scheduler has already dropped
   * the nomination in its nominator and queue. An implementation writes only when the pod still has a nomination,
   * and leaves alone a pod that is gone, recreated under the same name or bound meanwhile. Failures should be logged
   * rather than thrown (the scheduler logs and ignores what is thrown): the pod's next failed attempt writes its
   * nomination again ({@link io.fleetkit.api.framework.Binder#schedulingFailed}). The default does nothing
   * (simulations without a store).
   *
   * @param pod the scheduler's copy of the nominated pod, as it was before the nomination was dropped
   */
  default void clearNominatedNodeName(Pod pod, Pod preemptor, String nodeName) {
  }
}
