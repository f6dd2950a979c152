package io.fleetkit.api.framework;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodCondition;
import io.fleetkit.api.store.ObjectStore;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Where bindings go: the embedded object store by default, a Kubernetes API server or Slurm through adapters; and,
 * for a binder that can write pods, where the outcome of a failed scheduling attempt is recorded on the pod
 * ({@link #schedulingFailed}). Implementations are called from binding threads and the scheduling thread and must be
 * thread-safe.
 */
public interface Binder {
  /**
   * Binds {@code pod} to {@code nodeName}.
   *
   * @return success, or a rejected/error status with the reason (the pod is then unreserved and requeued)
   */
  Status bind(Pod pod, String nodeName);

  /**
   * Records a failed scheduling attempt on the pod, as kube-scheduler's {@code handleSchedulingFailure} does through
   * {@code updatePod} ({@code pkg/scheduler/schedule_one.go}): sets {@code condition} (the scheduler passes
   * {@code PodScheduled=False} with reason {@value PodCondition#REASON_UNSCHEDULABLE}, or
   * {@value PodCondition#REASON_SCHEDULER_ERROR} after an internal error, and the diagnosis as its message) and, when
   * {@code nominatedNodeName} is not null, {@code status.nominatedNodeName} ({@code ""} clears it; {@code null} leaves
   * it as it is, kube's {@code nil} NominatingInfo). An implementation that writes should write only when the
   * condition (compared by status, reason, message and probe time, as kube's {@code podutil.UpdatePodCondition}) or
   * the nomination changes, keep the condition's {@code lastTransitionTime} unless its status changes, and leave a pod
   * alone that is gone, recreated under the same name or bound meanwhile.
   *
   * <p>Called by the scheduler, holding its lock, after the pod was re-queued, for every attempt that ends
   * unschedulable or in error (not while a Permit plugin holds the pod), so it should be quick. Failures should be
   * logged rather than thrown: the condition is informative, and the next failed attempt writes it again (the
   * scheduler logs and ignores what is thrown). The default records nothing.
   *
   * @param pod the scheduler's copy of the pod (its namespace, name and uid identify the pod to write)
   * @param condition the condition to set; its {@code lastTransitionTime} is the writer's to choose
   * @param nominatedNodeName the nomination to set, {@code ""} to clear it, {@code null} to leave it
   */
  default void schedulingFailed(Pod pod, PodCondition condition, @Nullable String nominatedNodeName) {
  }

  /**
   * The object store this binder writes bindings to, when it has one: plugins that write other objects of the same
   * cluster use it (DynamicResources writes the ResourceClaims it allocates). Empty by default.
   */
  default Optional<ObjectStore> objectStore() {
    return Optional.empty();
  }
}
