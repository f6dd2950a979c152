package io.fleetkit.api.framework;

import java.time.Clock;
import java.util.Collection;
import java.util.Map;

/**
 * What the framework offers plugins at construction: the clock, the current snapshot (valid inside a cycle),
 * waiting pods, pod activation, and access to cluster objects other than nodes and pods (PDBs, priority classes,
 * claims...).
 */
public interface FrameworkHandle {
  Clock clock();

  /** The snapshot of the running cycle. */
  Snapshot snapshot();

  WaitingPods waitingPods();

  /** Cluster objects of a kind (e.g. {@code PodDisruptionBudget.class}), as last seen by the scheduler. */
  <T> java.util.List<T> list(Class<T> kind);

  /**
   * Runs every Filter plugin of the profile for {@code pod} on {@code node} (a possibly modified copy, as in
   * preemption's dry run); the first rejection wins.
   */
  Status runFilterPlugins(CycleState state, PodInfo pod, NodeInfo node);

  /**
   * kube's {@code RunFilterPluginsWithNominatedPods}, which preemption's victim search uses: the pods nominated to
   * {@code node} with a priority at least {@code pod}'s (other than {@code pod}) are added to it (with the PreFilter
   * extensions' addPod on a copy of {@code state}) and the Filter plugins must pass there; if any were added, they
   * must pass on {@code node} as it is too. A handle without nominations runs {@link #runFilterPlugins} once, as
   * this default does.
   */
  default Status runFilterPluginsWithNominatedPods(CycleState state, PodInfo pod, NodeInfo node) {
    return runFilterPlugins(state, pod, node);
  }

  /** Runs every PreFilter extension's addPod, for dry runs that add {@code other} to {@code node}. */
  Status runPreFilterExtensionAddPod(CycleState state, PodInfo podToSchedule, PodInfo other, NodeInfo node);

  /** Runs every PreFilter extension's removePod, for dry runs that remove {@code other} from {@code node}. */
  Status runPreFilterExtensionRemovePod(CycleState state, PodInfo podToSchedule, PodInfo other, NodeInfo node);

  /**
   * Asks the scheduling queue to try the given pending pods ({@code namespace/name} keys) again at once, kube's
   * {@code PodActivator.Activate}: a pod parked as unschedulable or backing off moves to the active queue (a gated
   * one if PreEnqueue now admits it); a pod being scheduled or waiting on Permit backs off rather than being parked
   * if its attempt fails; other keys are ignored. Callable from any thread; a call from another thread during a
   * scheduling cycle takes effect at its end. A handle without a scheduling queue (a simulation of scheduling
   * decisions, a plugin harness) ignores it, as this default does.
   */
  default void activate(Collection<String> podKeys) {}

  /**
   * Where bindings go: the scheduler's configured {@link Binder}, which the DefaultBinder plugin binds through (kube's
   * DefaultBinder binds through the handle's client). A handle that cannot bind (a simulation of scheduling
   * decisions, such as the cluster autoscaler's, or a plugin harness) returns, as this default does, a binder that
   * refuses every pod with an {@link Status.Code#ERROR} status saying so.
   */
  default Binder binder() {
    return (pod, nodeName) -> Status.error("cannot bind pod " + pod.metadata().key() + " to node " + nodeName
        + ": this framework handle has no binder (a simulation or a plugin harness)");
  }

  /** Plugin arguments from the profile, by plugin name. */
  Map<String, Object> pluginArgs(String pluginName);
}
