package io.fleetkit.queueing.controller;

import io.fleetkit.api.batch.Job;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.reconcile.Controller;
import io.fleetkit.reconcile.ControllerBuilder;
import io.fleetkit.reconcile.ObjectKey;
import io.fleetkit.api.time.TimerClock;
import io.fleetkit.queueing.controller.internal.QueueAdmissionReconciler;
import io.fleetkit.queueing.AdmissionEngine;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import org.jspecify.annotations.Nullable;

/**
 * Kueue's job integration for batch/v1 Jobs: gates Jobs labelled {@value QueueLabels#QUEUE_NAME} on quota from an
 * {@link AdmissionEngine}.
 *
 * <ul>
 *   <li>A managed Job without an admission is kept suspended ({@code spec.suspend=true}); a Job created unsuspended
 *       is suspended by the controller (Kueue's webhook would have created it suspended; here the Job controller may
 *       have created pods before, which it then deletes).</li>
 *   <li>Its workload ({@code max(1, parallelism)} pods of the template's requests; priority from the engine's
 *       {@link io.fleetkit.queueing.WorkloadPriorityClass} named by the label {@value QueueLabels#PRIORITY_CLASS},
 *       else the template's {@code priority}, else its PriorityClass or the global default one) is submitted to the
 *       engine; after a submit or a release the controller runs admission cycles until the engine is idle (cutting a
 *       repeating preempt/re-admit oscillation), or, stepping with {@link Builder#cyclesPerRound()}, once per round
 *       over every Job of the round, as Kueue's scheduler runs apart from its job reconciler. A Job whose label names a class the engine does not have waits
 *       with reason {@value QueueLabels#REASON_WORKLOAD_PRIORITY_CLASS_NOT_FOUND}; a changed label changes the
 *       workload's priority where Kueue allows it ({@link AdmissionEngine#updatePriority}).</li>
 *   <li>Admitted: annotation {@value QueueLabels#ADMISSION} ({@code CLUSTERQUEUE/RESOURCE=FLAVOR,...}), the assigned
 *       flavors' node labels added to the pod template's nodeSelector, {@code suspend=false}, condition
 *       {@code QuotaReserved=True}.</li>
 *   <li>Preempted: suspended again (the Job controller deletes its pods), the annotation and the injected nodeSelector
 *       keys removed, {@code QuotaReserved=False} reason {@code Preempted}; the workload waits in its queue
 *       again.</li>
 *   <li>Admission checks (a ClusterQueue naming {@link io.fleetkit.queueing.AdmissionCheck}s): with quota reserved
 *       and the checks not all ready, the Job stays suspended with {@code QuotaReserved=True} reason {@value
 *       QueueLabels#REASON_WAITING_FOR_CHECKS}, and is reconciled every second (which asks the check controllers
 *       again); once admitted it starts with the checks' pod set updates added to its template (taken out again when
 *       it loses its admission). A Retry check suspends it again with reason {@value
 *       QueueLabels#REASON_ADMISSION_CHECK}, a Rejected one with {@value QueueLabels#REASON_DEACTIVATED}; conflicting
 *       pod set updates release its quota and keep it suspended with {@value QueueLabels#REASON_FAILED_TO_START}.</li>
 *   <li>{@code waitForPodsReady} (an engine built with it): a started Job's pods are reported ready when {@code
 *       status.ready + status.succeeded} reaches the admitted count; a Job not ready in time is suspended with reason
 *       {@value QueueLabels#REASON_PODS_READY_TIMEOUT} and started again after its backoff (or, past the requeuing
 *       limit, suspended with {@value QueueLabels#REASON_DEACTIVATED}); a Job held back by {@code blockAdmission}
 *       waits with reason {@value QueueLabels#REASON_WAITING_FOR_PODS_READY}.</li>
 *   <li>Evicted by the engine for a node failure (a failed node of its topology assignment without a replacement, or
 *       a second failed node; {@link io.fleetkit.queueing.NodeReplacement}): suspended with reason {@value
 *       QueueLabels#REASON_NODE_FAILURES} and Kueue's message; the workload waits in its queue again.</li>
 *   <li>Topology-aware scheduling (a flavor with a {@link io.fleetkit.queueing.Topology}): a Job admitted with a
 *       topology assignment starts with its pod template gated by {@value QueueLabels#TOPOLOGY_SCHEDULING_GATE},
 *       annotated {@value QueueLabels#WORKLOAD} and labelled {@value QueueLabels#POD_SET}; its reconcile (run again
 *       whenever one of its gated pods appears, or one of its pods is deleted or finishes) is Kueue's topology
 *       ungater: each gated pod is given a domain of the assignment (by its completion index when the pods' indexes
 *       allow it, keeping the domains of the pods already ungated) and ungated with the domain's node labels added to
 *       its nodeSelector, so that the scheduler places it within the domain.</li>
 *   <li>Finished (Complete/Failed), deleted or unlabelled: its quota is released, which may admit waiting Jobs.</li>
 *   <li>Unknown LocalQueue or an invalid workload: kept suspended with {@code QuotaReserved=False} reason
 *       {@code Inadmissible} and a message naming the queue.</li>
 *   <li>A stopped queue ({@link io.fleetkit.queueing.StopPolicy}, changed with {@link #updateQueues}): its waiting
 *       Jobs stay suspended with reason {@value QueueLabels#REASON_SUSPENDED} ({@code ClusterQueue cq is inactive},
 *       {@code LocalQueue lq is inactive}); with {@code HoldAndDrain} its running Jobs are suspended too, and all
 *       start again once the queue is set back to {@code None}. A Job whose ClusterQueue was removed waits with
 *       reason {@value QueueLabels#REASON_MISCONFIGURED}.</li>
 * </ul>
 *
 * <p>The engine is the controller's: the first reconcile restores into it, with {@link
 * AdmissionEngine#assumeAdmitted}, the admissions recorded on Jobs (so a restarted controller keeps running Jobs
 * running and charges their quota). Its queues change through {@link #updateQueues} (ClusterQueues, LocalQueues and
 * Cohorts, Kueue's {@code stopPolicy} included); its flavors are fixed when it is built. No admitted Job is
 * started while a preempted one is not yet suspended or still counts active pods, so the running Jobs never exceed
 * the quota.
 *
 * <p>Given a recorder ({@link Builder#events}), it records Kueue's job reconciler's events about the Jobs ({@code
 * CreatedWorkload}, {@code Started}, {@code Stopped}, ...), once per transition.
 *
 * <p>Thread-safe. In stepping mode drive it with {@link #runUntilIdle()} on one thread.
 */
public final class QueueAdmissionController implements AutoCloseable {
  private final Controller<Job> controller;
  private final QueueAdmissionReconciler reconciler;
  private final ObjectStore store;
  private final boolean followNodes;
  private final java.time.Duration nodeFailureDelay;
  /** What node replacement reads of each node seen: readiness, schedulability, labels and allocatable. */
  private final java.util.Map<String, java.util.List<Object>> nodes = new java.util.concurrent.ConcurrentHashMap<>();
  private volatile io.fleetkit.api.store.@Nullable Watch nodeWatch;
  private volatile io.fleetkit.api.store.@Nullable Watch podWatch;
  private final AdmissionEngine engine;
  /** The Job pods seen bound to a node: pod key to its workload, node and whether it is progressing. */
  private final java.util.Map<String, PodSeen> pods = new java.util.HashMap<>();
  /** Progressing pods per workload and node, as last reported to the engine. */
  private final java.util.Map<java.util.List<String>, Integer> progressing = new java.util.HashMap<>();

  /**
   * The pods annotated with a workload ({@value QueueLabels#WORKLOAD}), by {@code namespace/workload} and pod name,
   * from the pod watch: the topology ungater reads a workload's pods here (Kueue's field index on the annotation)
   * instead of listing its namespace's pods.
   */
  private final java.util.Map<String, java.util.NavigableMap<String, io.fleetkit.api.core.Pod>> workloadPods =
      new java.util.concurrent.ConcurrentHashMap<>();

  /** The {@code namespace/workload} each indexed pod (by key) is filed under. */
  private final java.util.Map<String, String> workloadOfPod = new java.util.concurrent.ConcurrentHashMap<>();

  private record PodSeen(String workload, String node, boolean progressing) {}

  private QueueAdmissionController(Builder b) {
    this.store = b.store;
    this.engine = b.engine;
    this.followNodes = b.followNodes;
    this.nodeFailureDelay = b.engine.nodeFailureDelay();
    QueueAdmissionReconciler reconciler = new QueueAdmissionReconciler(b.engine, b.maxCycles, k -> enqueue(k),
        this::podsOfWorkload, b.cyclesPerRound);
    this.reconciler = reconciler;
    ControllerBuilder<Job> cb = Controller.builder(b.store, Job.class).name(b.name).reconciler(reconciler);
    if (b.clock != null) {
      cb.clock(b.clock);
    }
    if (b.events != null) {
      cb.events(io.fleetkit.api.events.EventRecorder.bestEffort(b.events));
    }
    if (b.stepping) {
      cb.stepping();
    } else {
      cb.workers(b.workers);
    }
    controller = cb.build();
  }

  private void enqueue(ObjectKey key) {
    controller.enqueue(key);
  }

  /** A builder for a controller that admits the Jobs of {@code store} through {@code engine}. */
  public static Builder builder(ObjectStore store, AdmissionEngine engine) {
    return new Builder(store, engine);
  }

  /**
   * Starts the informer (and workers); completes when synced. With {@link Builder#followNodes()}, the store's Nodes
   * are given to the engine first.
   */
  public CompletableFuture<Void> start() {
    if (followNodes && nodeWatch == null) {
      io.fleetkit.api.store.ListResult<io.fleetkit.api.core.Node> now = store.list(io.fleetkit.api.core.Node.class);
      for (io.fleetkit.api.core.Node n : now.items()) {
        node(n.name(), n);
      }
      nodeWatch = store.watch(io.fleetkit.api.core.Node.class, now.resourceVersion(), e ->
          node(e.object().name(), e.type() == io.fleetkit.api.store.WatchEventType.DELETED ? null : e.object()));
    }
    if (podWatch == null) {
      io.fleetkit.api.store.ListResult<io.fleetkit.api.core.Pod> podsNow = store.list(io.fleetkit.api.core.Pod.class);
      for (io.fleetkit.api.core.Pod p : podsNow.items()) {
        if (followNodes) {
          pod(p.metadata().key(), p);
        }
        indexWorkloadPod(p, false);
      }
      podWatch = store.watch(io.fleetkit.api.core.Pod.class, podsNow.resourceVersion(), e -> {
        boolean deleted = e.type() == io.fleetkit.api.store.WatchEventType.DELETED;
        if (followNodes) {
          pod(e.object().metadata().key(), deleted ? null : e.object());
        }
        indexWorkloadPod(e.object(), deleted);
        topologyPod(e.object(), deleted);
      });
    }
    return controller.start();
  }

  private void indexWorkloadPod(io.fleetkit.api.core.Pod pod, boolean deleted) {
    String podKey = pod.metadata().key();
    String workload = deleted ? null : pod.metadata().annotations().get(QueueLabels.WORKLOAD);
    String key = workload == null ? null : pod.metadata().namespace() + "/" + workload;
    String before = key == null ? workloadOfPod.remove(podKey) : workloadOfPod.put(podKey, key);
    if (before != null && !before.equals(key)) {
      workloadPods.computeIfPresent(before, (k, byName) -> {
        byName.remove(pod.metadata().name());
        return byName.isEmpty() ? null : byName;
      });
    }
    if (key != null) {
      workloadPods.computeIfAbsent(key, k -> new java.util.concurrent.ConcurrentSkipListMap<>())
          .put(pod.metadata().name(), pod);
    }
  }

  /** The indexed pods of {@code namespace}'s {@code workload}, by name. */
  private java.util.List<io.fleetkit.api.core.Pod> podsOfWorkload(String namespace, String workload) {
    java.util.NavigableMap<String, io.fleetkit.api.core.Pod> byName = workloadPods.get(namespace + "/" + workload);
    return byName == null ? java.util.List.of() : java.util.List.copyOf(byName.values());
  }

  /**
   * Kueue's topology ungater's pod handler: a topology-aware pod annotated with its workload ({@value
   * QueueLabels#WORKLOAD}) that is gated, deleted or finished reconciles its Job, whose reconcile ungates the
   * workload's gated pods.
   */
  private void topologyPod(io.fleetkit.api.core.Pod pod, boolean deleted) {
    String workload = pod.metadata().annotations().get(QueueLabels.WORKLOAD);
    if (workload == null || workload.isEmpty() || workload.indexOf('/') >= 0
        || !io.fleetkit.queueing.controller.internal.TopologyUngater.isTas(pod.metadata().annotations())) {
      return; // not a Job's name: no Job to reconcile
    }
    if (deleted || pod.isTerminal() || io.fleetkit.queueing.controller.internal.TopologyUngater.gated(pod)) {
      controller.enqueue(ObjectKey.parse(pod.metadata().namespace() + "/" + workload));
    }
  }

  /**
   * A pod added, changed or deleted ({@code null}): a pod of a Job (its controller owner) bound to a node counts for
   * the Job's workload on that node while it is progressing ({@link io.fleetkit.queueing.NodeReplacement#isProgressing});
   * the engine learns each changed count ({@link AdmissionEngine#setProgressingPods}, Kueue's node controller on pod
   * events), and a Job whose workload it then records an unhealthy node for is reconciled.
   */
  private synchronized void pod(String key, io.fleetkit.api.core.@Nullable Pod pod) {
    PodSeen now = null;
    io.fleetkit.api.meta.OwnerReference owner = pod == null ? null : pod.metadata().controllerRef();
    if (pod != null && owner != null && owner.kind().equals("Job") && pod.isBound()) {
      String node = pod.spec().nodeName();
      now = new PodSeen(pod.metadata().namespace() + "/" + owner.name(), node,
          io.fleetkit.queueing.NodeReplacement.isProgressing(pod, node));
    }
    PodSeen before = now == null ? pods.remove(key) : pods.put(key, now);
    if (java.util.Objects.equals(before, now)) {
      return;
    }
    if (before != null && before.progressing()) {
      progressing.merge(java.util.List.of(before.workload(), before.node()), -1, Integer::sum);
    }
    if (now != null && now.progressing()) {
      progressing.merge(java.util.List.of(now.workload(), now.node()), 1, Integer::sum);
    }
    java.util.Set<PodSeen> changed = new java.util.LinkedHashSet<>();
    if (before != null) {
      changed.add(before);
    }
    if (now != null) {
      changed.add(now);
    }
    for (PodSeen p : changed) {
      int count = progressing.getOrDefault(java.util.List.of(p.workload(), p.node()), 0);
      if (engine.setProgressingPods(p.workload(), p.node(), count)
          && (engine.unhealthyNodes(p.workload()).contains(p.node()) || engine.admission(p.workload()).isEmpty())) {
        controller.enqueue(ObjectKey.parse(p.workload()));
      }
    }
  }

  /**
   * A node added, changed or deleted ({@code null}): unless nothing node replacement reads changed (a heartbeat), the
   * engine learns it and the Jobs placed on it are reconciled, at once and, for a node not Ready, again once the
   * node failure delay has passed (when the engine records it as unhealthy and looks for a replacement).
   */
  private void node(String name, io.fleetkit.api.core.@Nullable Node node) {
    io.fleetkit.api.core.NodeCondition ready = node == null ? null
        : node.status().condition(io.fleetkit.api.core.NodeCondition.READY);
    java.util.List<Object> seen = node == null ? null : java.util.Arrays.asList(ready == null ? "none" : ready.status(),
        node.spec().unschedulable(), node.spec().taints(), node.metadata().labels(), node.status().allocatable());
    java.util.List<Object> before = seen == null ? nodes.remove(name) : nodes.put(name, seen);
    if (java.util.Objects.equals(before, seen)) {
      return;
    }
    java.util.List<String> on = reconciler.node(name, node);
    for (String key : on) {
      ObjectKey k = ObjectKey.parse(key);
      controller.enqueue(k);
      if (node != null && !node.isReady()) {
        controller.queue().addAfter(k, nodeFailureDelay);
      }
    }
  }

  /**
   * Changes the engine's queues, e.g. {@code ctl.updateQueues(e -> e.putClusterQueue(cq))}: {@code change} runs
   * atomically with the controller's decisions, then every managed Job is reconciled, so that Jobs a stopped queue
   * drained are suspended, those a resumed or enlarged queue admits are started, and waiting Jobs show why their
   * queues hold them ({@value QueueLabels#REASON_SUSPENDED}, {@value QueueLabels#REASON_MISCONFIGURED}).
   *
   * @throws RuntimeException whatever {@code change} throws (the engine refuses bad queues unchanged); no Job is
   *     reconciled then
   */
  public void updateQueues(java.util.function.Consumer<AdmissionEngine> change) {
    Objects.requireNonNull(change, "change");
    reconciler.queues(change);
    for (Job j : controller.lister().list()) {
      if (j.metadata().labels().containsKey(QueueLabels.QUEUE_NAME)) {
        controller.enqueue(ObjectKey.of(j.metadata().namespace(), j.metadata().name()));
      }
    }
  }

  /**
   * Stepping mode: reconciles until no key is ready; returns how many keys were processed. With {@link
   * Builder#cyclesPerRound()}, each round reconciles the ready Jobs (submitting new workloads, releasing finished
   * ones), then runs the admission cycles over all of them at once, then reconciles the Jobs that waited for the
   * cycles or whose state they changed, and so on until nothing is left.
   */
  public int runUntilIdle() {
    int n = controller.runUntilIdle();
    while (reconciler.endRound()) {
      n += controller.runUntilIdle();
    }
    return n;
  }

  /**
   * Stepping mode: reconciles one ready key, or, when none is ready, ends the round (with {@link
   * Builder#cyclesPerRound()}: runs the admission cycles due and requeues the Jobs they concern).
   *
   * @return whether a key was reconciled or a round ended with Jobs requeued
   */
  public boolean runOnce() {
    return controller.runOnce() || reconciler.endRound();
  }

  /** The underlying controller (queue, lister, enqueue). */
  public Controller<Job> controller() {
    return controller;
  }

  @Override
  public void close() {
    io.fleetkit.api.store.Watch w = nodeWatch;
    if (w != null) {
      w.close();
    }
    io.fleetkit.api.store.Watch pw = podWatch;
    if (pw != null) {
      pw.close();
    }
    controller.close();
  }

  /** Configures a {@link QueueAdmissionController}. Not thread-safe. */
  public static final class Builder {
    private final ObjectStore store;
    private final AdmissionEngine engine;
    private String name = "queue-admission";
    private @Nullable TimerClock clock;
    private boolean stepping;
    private int workers = 1;
    private int maxCycles = 1_000;
    private boolean followNodes;
    private boolean cyclesPerRound;
    private io.fleetkit.api.events.@Nullable EventRecorder events;

    private Builder(ObjectStore store, AdmissionEngine engine) {
      this.store = Objects.requireNonNull(store, "store");
      this.engine = Objects.requireNonNull(engine, "engine");
    }

    /** The controller name (logs, thread names); default {@code queue-admission}. */
    public Builder name(String v) {
      name = Objects.requireNonNull(v, "name");
      return this;
    }

    /** The clock of the controller's queue and condition timestamps; default the system clock. */
    public Builder clock(TimerClock v) {
      if (clock != null) {
        throw new IllegalStateException("QueueAdmissionController: clock was already set to " + clock);
      }
      clock = Objects.requireNonNull(v, "clock");
      return this;
    }

    /**
     * Where the controller records Kueue's job reconciler's events about the Jobs (default {@link
     * io.fleetkit.api.events.EventRecorder#NOOP}, with which no event and no note is built), each once per transition
     * and regarding the Job, with Kueue's reason, type and note ({@code pkg/controller/jobframework/reconciler.go};
     * docs/observability.md lists them): {@code CreatedWorkload}, {@code UpdatedWorkload}, {@code Started}, {@code
     * Stopped}, {@code FinishedWorkload}, {@code UpdatedAdmissionCheck} and the warning {@code
     * WorkloadPriorityClassNotFound}; and the controller's {@code BackOff} warning when a reconcile fails. The
     * recorder is wrapped with {@link io.fleetkit.api.events.EventRecorder#bestEffort}: one that throws is logged at
     * DEBUG and never fails a reconcile. The Workloads' own events are the engine's ({@link
     * AdmissionEngine.Builder#events}).
     *
     * @throws IllegalStateException if a recorder was already given
     */
    public Builder events(io.fleetkit.api.events.EventRecorder recorder) {
      Objects.requireNonNull(recorder, "recorder");
      if (events != null) {
        throw new IllegalStateException("QueueAdmissionController: events was already set to " + events);
      }
      events = recorder;
      return this;
    }

    /**
     * Gives the engine the store's Nodes and their changes (for topology-aware scheduling and Kueue's node
     * replacement): a node that is deleted, or not Ready for the engine's node failure delay, gets its workloads' pods
     * replaced, or the workloads evicted (suspended with reason {@value QueueLabels#REASON_NODE_FAILURES}). The Jobs'
     * pods are followed too: how many of a Job's pods on a node are progressing is reported to the engine, so that a
     * NotReady or tainted node fails for a workload as soon as its pods there have stopped (Kueue's {@code
     * TASReplaceNodeOnPodTermination}). Off by default: the engine keeps the nodes it was built with.
     */
    public Builder followNodes() {
      followNodes = true;
      return this;
    }

    /** Stepping mode: no threads, drive with {@link QueueAdmissionController#runUntilIdle()}. */
    public Builder stepping() {
      stepping = true;
      return this;
    }

    /**
     * Stepping mode with Kueue's scheduler apart from its job reconciler: a reconcile submits or releases its Job's
     * workload but runs no admission cycle; the cycles run once the round's ready Jobs are reconciled ({@link
     * QueueAdmissionController#runUntilIdle()}, or {@link QueueAdmissionController#runOnce()} when no key is ready),
     * and the Jobs that waited for them, or whose state they changed, are reconciled next. Jobs created together (a
     * simulation's arrivals at one instant) are then heads of the same cycles, admitted in Kueue's order (not
     * borrowing first, then with fair sharing the lowest dominant resource share after the admission, then priority,
     * then age) rather than in the order the controller saw them. Without it, each reconcile runs the cycles after
     * its own submit or release. Needs {@link #stepping()}.
     */
    public Builder cyclesPerRound() {
      cyclesPerRound = true;
      return this;
    }

    /**
     * Threaded mode with {@code n} workers (default 1).
     *
     * @throws IllegalArgumentException if {@code n < 1}
     */
    public Builder workers(int n) {
      if (n < 1) {
        throw new IllegalArgumentException("QueueAdmissionController: workers must be at least 1 but was " + n);
      }
      workers = n;
      return this;
    }

    /**
     * Cap on the admission cycles one reconcile runs (default 1,000; the engine usually goes idle far sooner).
     *
     * @throws IllegalArgumentException if {@code n < 1}
     */
    public Builder maxCyclesPerReconcile(int n) {
      if (n < 1) {
        throw new IllegalArgumentException(
            "QueueAdmissionController: maxCyclesPerReconcile must be at least 1 but was " + n);
      }
      maxCycles = n;
      return this;
    }

    /**
     * @throws IllegalStateException if {@link #cyclesPerRound()} is set without {@link #stepping()}
     */
    public QueueAdmissionController build() {
      if (cyclesPerRound && !stepping) {
        throw new IllegalStateException("QueueAdmissionController: cyclesPerRound needs stepping mode (a threaded "
            + "controller has no end of round to run the cycles at)");
      }
      return new QueueAdmissionController(this);
    }
  }
}
