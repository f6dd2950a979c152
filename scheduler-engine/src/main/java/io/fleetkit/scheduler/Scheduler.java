package io.fleetkit.scheduler;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.WaitingPods;
import io.fleetkit.api.store.ObjectStore;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * A scheduler with kube-scheduler's semantics: a scheduling queue (activeQ ordered by the profile's QueueSort, backoffQ,
 * unschedulable pods re-queued on cluster events and flushed after 5 minutes), a cache of nodes and assumed pods, and
 * one scheduling cycle at a time (PreFilter, Filter over a sample of nodes in parallel, PostFilter when nothing fits,
 * PreScore, Score, NormalizeScore, Reserve, Permit, PreBind, Bind, PostBind).
 *
 * <p>Feed it the cluster with {@link #addNode}, {@link #addPod} (bound pods enter the cache, pending pods of this
 * scheduler's profiles enter the queue; pods for other schedulers are ignored) and {@link #addObject} (priority
 * classes, PodDisruptionBudgets...), or {@link #attach} it to an {@link ObjectStore}. Then drive it with
 * {@link #scheduleOne()} or {@link #runUntilIdle()}.
 *
 * <p>Thread-safe. Driving ({@link #scheduleOne}, {@link #runUntilIdle}), the queries and {@link #close} take the
 * scheduler's lock, which a cycle holds throughout; a cycle runs Filter and Score on the scheduler's worker threads.
 * Cluster events ({@link #addNode} ... {@link #removeObject}) and {@link WaitingPods} decisions never wait for a
 * running cycle: made from another thread while one runs, they are queued, return at once and take effect, in the
 * order they were made, when that cycle ends; otherwise they take effect before the call returns. Nothing is lost:
 * every pending pod is, at any time, in exactly one sub-queue, held by Permit, or bound.
 */
public interface Scheduler extends AutoCloseable {

  /** A builder with kube's defaults: the default profile, the default plugins, an in-memory binder. */
  static SchedulerBuilder builder() {
    return new SchedulerBuilder();
  }

  /**
   * Adds a node; pods waiting for a cluster event are re-queued.
   *
   * @throws IllegalArgumentException if a node of that name exists
   */
  void addNode(Node node);

  /** Replaces a node (adds it if unknown); pods waiting for a cluster event are re-queued. */
  void updateNode(Node node);

  /** Removes a node; the pods bound to it stay in the cache until they are removed. Unknown names are ignored. */
  void removeNode(String nodeName);

  /**
   * Adds a pod. A bound pod ({@code spec.nodeName} set) enters the cache (confirming it if the scheduler assumed it);
   * a terminal pod is ignored; a pending pod whose {@code schedulerName} names one of the profiles enters the queue.
   * A pod with no {@code spec.priority} gets the value of its {@code priorityClassName}'s PriorityClass, or of the
   * global-default class.
   */
  void addPod(Pod pod);

  /** Replaces a pod (adds it if unknown), with {@link #addPod}'s rules. */
  void updatePod(Pod pod);

  /** Removes a pod ({@code namespace/name}) from the queue, the cache and Permit; unknown keys are ignored. */
  void removePod(String podKey);

  /**
   * Adds or replaces a cluster object plugins read through {@code FrameworkHandle.list(kind)} (PriorityClass,
   * PodDisruptionBudget, PersistentVolumeClaim...). Objects are keyed by kind and {@code namespace/name}.
   */
  void addObject(Object object);

  /** Removes a cluster object added with {@link #addObject}; unknown objects are ignored. */
  void removeObject(Object object);

  /**
   * Runs one scheduling cycle for the pod at the head of activeQ.
   *
   * @return what happened, or {@code null} when activeQ was empty
   */
  @Nullable ScheduleResult scheduleOne();

  /**
   * Runs cycles until activeQ is empty. Pods in backoff whose time has come (by the scheduler's clock) re-enter
   * activeQ on the way.
   *
   * <p>With asynchronous binding ({@link SchedulerBuilder#bindParallelism}) the next pod is scheduled while the
   * previous ones bind; this returns once every binding it started has finished, a failed one re-queued (and tried
   * again in this run if its backoff is over).
   *
   * @return every result, in order, including pods released by Permit meanwhile
   */
  List<ScheduleResult> runUntilIdle();

  /** Every pod waiting to be bound, with the sub-queue it is in and why; in no particular order. */
  List<PendingPod> pending();

  /** The node a pod is bound (or assumed) to. */
  Optional<String> nodeOf(String podKey);

  /** An immutable view of a node as the scheduler's cache has it now, including assumed pods. */
  Optional<NodeInfo> nodeInfo(String nodeName);

  /** The pods held by Permit plugins; allow or reject them here. */
  WaitingPods waitingPods();

  /**
   * Feeds this scheduler from {@code store}: lists and watches nodes, pods, priority classes and disruption budgets.
   * Bindings go wherever this scheduler's binder sends them: build with {@link SchedulerBuilder#store} (or pass a
   * {@link StoreBinder}) to bind into the store and to record failed attempts there ({@code PodScheduled=False}).
   */
  default StoreScheduler attach(ObjectStore store) {
    return StoreScheduler.attach(this, store);
  }

  /** Stops the worker threads and rejects the pods waiting on Permit. Idempotent. */
  @Override
  void close();
}
