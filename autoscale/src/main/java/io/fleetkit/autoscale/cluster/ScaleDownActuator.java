package io.fleetkit.autoscale.cluster;

import io.fleetkit.api.NotFoundException;
import io.fleetkit.api.autoscaling.NodePool;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.events.Event;
import io.fleetkit.api.events.EventRecorder;
import io.fleetkit.api.events.ObjectReference;
import io.fleetkit.api.framework.NodeInfos;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.PodInfos;
import io.fleetkit.api.policy.PodDisruptionBudget;
import io.fleetkit.api.resource.dra.ResourceClaim;
import io.fleetkit.api.resource.dra.ResourceSlice;
import io.fleetkit.api.scheduling.TaintEffect;
import io.fleetkit.api.store.DeleteOptions;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.reconcile.controllers.EvictionDecision;
import io.fleetkit.reconcile.controllers.Evictions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Scale-down actuation (upstream's {@code core/scaledown/actuation/actuator.go}, with its {@code NodeDeletionTracker}):
 * deletes the nodes the planner chose, on the autoscaler's clock.
 *
 * <p>{@link #startDeletion} crops the nodes to the budgets (upstream's {@code cropNodesToBudgets}: at most
 * {@code maxEmptyBulkDelete} deletions in progress, upstream's {@code --max-scale-down-parallelism}, of which at most
 * {@code maxDrainParallelism} drains; empty nodes first), taints every empty node, then every node to drain,
 * {@value ClusterAutoscaler#TO_BE_DELETED_TAINT}{@code :NoSchedule}, and with {@code cordonNodeBeforeTerminating}
 * cordons it in the same write (a failed taint removes the taints this call put and ends it with
 * {@link ScaleDownStatus.Result#ERROR}), and records the deletions as in progress.
 *
 * <p>{@link #advance} carries every deletion in progress as far as the time allows, as upstream's goroutines:
 * <ol>
 *   <li>nothing happens to a node before {@code nodeDeleteDelayAfterTaint} has passed since it was tainted (upstream's
 *       {@code deleteNodesAsync} sleeps that long first, on the empty and the drain path alike); {@link #nextStep}
 *       says when the first such wait ends;
 *   <li>the node's pods are checked again ({@link Drainability} with the budgets as they are): a blocking pod, or any
 *       pod to move on a node deleted as empty, fails the deletion ({@link NodeDeleteResult.Type#INTERNAL});
 *   <li>a drained node's pods ({@link ScaleDownEvictor#podsToEvict}: not mirror pods; DaemonSet pods only by
 *       {@code daemonSetEvictionForOccupiedNodes}, best effort) are evicted through the eviction subresource
 *       ({@link Evictions}, which honours PodDisruptionBudgets), retried and waited for ({@link ScaleDownEvictor});
 *       an empty node's DaemonSet pods are evicted best effort when {@code daemonSetEvictionForEmptyNodes};
 *   <li>the prepared node goes to the {@link NodeDeletionBatcher}; the nodes of an atomic pool
 *       ({@code zeroOrMaxNodeScaling}) started together go together once all are prepared, and when one fails the
 *       others are aborted ({@link NodeDeleteResult.Type#FAILED_TO_DELETE}, upstream's group deletion scheduler);
 *   <li>a deleted node's remaining pods (DaemonSet, mirror) are deleted after it, as a pod garbage collector would;
 *       a failed deletion removes the node's taint (and its cordon, when the actuator cordons).
 * </ol>
 * Each ended deletion leaves a {@link NodeDeleteResult}, taken by {@link #takeResults}.
 *
 * <p>Not thread-safe: confined to the autoscaler's loop.
 */
final class ScaleDownActuator {
  private static final Logger LOG = LoggerFactory.getLogger(ScaleDownActuator.class);

  private final ObjectStore store;
  private final EventRecorder events;
  /** The scale-down events on the status ConfigMap. */
  private final StatusEvents statusEvents;
  static final String SCALE_DOWN = "ScaleDown";
  static final String SCALE_DOWN_FAILED = "ScaleDownFailed";
  static final String MARKED = "marked the node as toBeDeleted/unschedulable";
  static final String REMOVED = "nodes removed by cluster autoscaler";
  static final String DELETING_POD = "deleting pod for node scale down";
  /** The nodes being deleted, by name, as they were when their deletion started (the events' references). */
  private final Map<String, Node> deleting = new HashMap<>();
  private final AutoscalerOptions options;
  private final ScaleDownEvictor.Timing timing;
  private final Function<String, List<Pod>> podsOn;
  private final NodeDeletionBatcher batcher;
  /** The deletions in progress, by node name, in the order started (upstream's {@code NodeDeletionTracker}). */
  private final Map<String, Deletion> inProgress = new LinkedHashMap<>();
  private final Map<String, NodeDeleteResult> results = new LinkedHashMap<>();
  /** The failed deletions since last taken (kept apart: a node's next deletion may end before they are taken). */
  private final Map<String, NodeDeleteResult> failures = new LinkedHashMap<>();
  private final List<String> deleted = new ArrayList<>();
  private int evicted;
  private int starts;

  /** One node's deletion in progress. */
  private static final class Deletion {
    final String node;
    final String pool;
    final boolean drain;
    /** The atomic group (pool and start) the node is deleted with, or {@code null}. */
    final @Nullable String group;
    /** When the node's delay after its taint ends: nothing is done to it before. */
    final Instant startAt;
    ScaleDownEvictor.@Nullable NodeEviction eviction;
    boolean prepared;
    boolean batched;

    Deletion(String node, String pool, boolean drain, @Nullable String group, Instant startAt) {
      this.node = node;
      this.pool = pool;
      this.drain = drain;
      this.group = group;
      this.startAt = startAt;
    }
  }

  /**
   * An actuator over {@code store}.
   *
   * @param podsOn the pods bound to a node, as the autoscaler's last view has them
   */
  ScaleDownActuator(ObjectStore store, AutoscalerOptions options, ScaleDownEvictor.Timing timing,
      Function<String, List<Pod>> podsOn) {
    this(store, options, timing, podsOn, EventRecorder.NOOP);
  }

  /**
   * An actuator that records upstream's scale-down events with {@code events} ({@code actuation/actuator.go},
   * {@code drain.go}, {@code delete_in_batch.go}): on a node, {@code ScaleDown} when it is tainted
   * ({@value #MARKED}) and when it is deleted ({@value #REMOVED}), {@code ScaleDownFailed} when the taint or the
   * deletion failed; on a pod, {@code ScaleDown} before its first eviction ({@value #DELETING_POD}) and
   * {@code ScaleDownFailed} when a pod that must go could not be evicted in time; on the status ConfigMap (unless
   * {@code options} do not write it) {@code ScaleDownEmpty} and {@code ScaleDown} when a deletion starts and when its
   * node is gone ({@link StatusEvents}). The recorder is used as given: the autoscaler passes its best-effort one
   * ({@link EventRecorder#bestEffort}).
   */
  ScaleDownActuator(ObjectStore store, AutoscalerOptions options, ScaleDownEvictor.Timing timing,
      Function<String, List<Pod>> podsOn, EventRecorder events) {
    this.events = Objects.requireNonNull(events, "events");
    this.statusEvents = StatusEvents.of(events, options);
    this.store = Objects.requireNonNull(store, "store");
    this.options = Objects.requireNonNull(options, "options");
    this.timing = Objects.requireNonNull(timing, "timing");
    this.podsOn = Objects.requireNonNull(podsOn, "podsOn");
    this.batcher = new NodeDeletionBatcher(options.nodeDeletionBatcherInterval(), this::deleteNode,
        new NodeDeletionBatcher.Sink() {
          @Override
          public void deleted(String node, String pool, boolean drain) {
            nodeDeleted(node, pool, drain);
          }

          @Override
          public void failed(String node, String pool, boolean drain, NodeDeleteResult result) {
            end(node, result);
          }
        });
  }

  /** An actuator that reads the pods of a node from the store. */
  static ScaleDownActuator overStore(ObjectStore store, AutoscalerOptions options, ScaleDownEvictor.Timing timing) {
    return new ScaleDownActuator(store, options, timing,
        node -> store.list(Pod.class, "", (Pod p) -> p.spec().nodeName().equals(node)).items());
  }

  /**
   * Starts deleting {@code empty} and {@code drain} nodes within the budgets (upstream's {@code StartDeletion});
   * {@link #advance} carries the deletions on.
   */
  ScaleDownStatus startDeletion(List<Node> empty, List<Node> drain, Instant now) {
    Map<String, NodeDeleteResult> ended = Map.copyOf(results);
    Set<String> atomic = new HashSet<>();
    for (NodePool p : store.list(NodePool.class).items()) {
      if (p.spec().zeroOrMaxNodeScaling()) {
        atomic.add(p.metadata().name());
      }
    }
    int[] parallelism = {options.maxEmptyBulkDelete() - inProgress.size()};
    List<Node> emptyToDelete = crop(empty, parallelism, atomic);
    int[] drainBudget = {Math.min(parallelism[0], options.maxDrainParallelism() - drainsInProgress())};
    List<Node> drainToDelete = crop(drain, drainBudget, atomic);
    if (emptyToDelete.isEmpty() && drainToDelete.isEmpty()) {
      return new ScaleDownStatus(ScaleDownStatus.Result.NO_NODE_DELETED, List.of(), ended, null);
    }
    int start = ++starts;
    List<ScaleDownStatus.ScaleDownNode> started = new ArrayList<>();
    if (!emptyToDelete.isEmpty()) {
      AutoscalerError err = taintNodesSync(emptyToDelete, now);
      if (err != null) {
        return new ScaleDownStatus(ScaleDownStatus.Result.ERROR, started, ended, err);
      }
      for (Node n : emptyToDelete) {
        LOG.debug("scale-down: removing empty node {}", n.name());
        statusEvents.removingEmptyNode(n.name());
        begin(n, false, atomic, start, started, now);
      }
    }
    if (!drainToDelete.isEmpty()) {
      // every node to drain is tainted before any drain starts, so that pods evicted from one are not placed on another
      AutoscalerError err = taintNodesSync(drainToDelete, now);
      if (err != null) {
        return new ScaleDownStatus(ScaleDownStatus.Result.ERROR, started, ended, err);
      }
      for (Node n : drainToDelete) {
        begin(n, true, atomic, start, started, now);
      }
    }
    return new ScaleDownStatus(ScaleDownStatus.Result.NODE_DELETE_STARTED, started, ended, null);
  }

  /**
   * The first nodes of {@code nodes} within {@code budget[0]} (which is reduced by the nodes taken), as upstream's
   * {@code cropNodesToBudgets}; nodes of atomic pools are taken whole, as the planner chose them (its
   * {@code CropNodes} lets the first atomic pool exceed the budget), and count against the budget.
   */
  private static List<Node> crop(List<Node> nodes, int[] budget, Set<String> atomic) {
    List<Node> out = new ArrayList<>();
    for (Node n : nodes) {
      if (atomic.contains(n.metadata().labels().getOrDefault(NodePool.POOL_LABEL, "")) || out.size() < budget[0]) {
        out.add(n);
      }
    }
    budget[0] -= out.size();
    return out;
  }

  private void begin(Node n, boolean drain, Set<String> atomic, int start, List<ScaleDownStatus.ScaleDownNode> out,
      Instant now) {
    String pool = n.metadata().labels().getOrDefault(NodePool.POOL_LABEL, "");
    List<Pod> pods = podsOn.apply(n.name());
    List<String> evictedPods = new ArrayList<>();
    if (drain) {
      for (Pod p : ScaleDownEvictor.podsToEvict(pods, options.daemonSetEvictionForOccupiedNodes()).otherPods()) {
        evictedPods.add(p.metadata().key());
      }
      LOG.debug("scale-down: removing node {}, pods to reschedule: {}", n.name(), evictedPods);
    }
    List<PodInfo> infos = new ArrayList<>(pods.size());
    for (Pod p : pods) {
      infos.add(PodInfos.of(p));
    }
    NodeUtilization u = NodeUtilization.of(NodeInfos.of(n, infos), options.ignoreDaemonSetsUtilization(),
        options.ignoreMirrorPodsUtilization(), now);
    if (!u.gpuNode()) {
      u = u.withDevices(DeviceUtilization.ofNode(n.name(), store.list(ResourceSlice.class).items(), pods,
          (ns, name) -> store.get(ResourceClaim.class, ns, name).orElse(null)));
    }
    out.add(new ScaleDownStatus.ScaleDownNode(n.name(), pool, evictedPods, u));
    if (drain && statusEvents.enabled()) {
      List<String> names = new ArrayList<>(evictedPods.size());
      for (Pod p : ScaleDownEvictor.podsToEvict(pods, options.daemonSetEvictionForOccupiedNodes()).otherPods()) {
        names.add(p.metadata().name()); // upstream's joinPodNames: the names alone
      }
      statusEvents.removingNode(n.name(), u, names);
    }
    if (events != EventRecorder.NOOP) {
      deleting.put(n.name(), n);
    }
    inProgress.put(n.name(), new Deletion(n.name(), pool, drain, atomic.contains(pool) ? pool + "#" + start : null,
        now.plus(options.nodeDeleteDelayAfterTaint())));
  }

  /** Taints every node of {@code nodes}; on a failure removes the taints already put and returns the error. */
  private @Nullable AutoscalerError taintNodesSync(List<Node> nodes, Instant now) {
    List<String> tainted = new ArrayList<>();
    for (Node n : nodes) {
      String err = taint(n.name(), now);
      if (err != null) {
        record(ObjectReference.to(n), Event.WARNING, SCALE_DOWN_FAILED,
            "failed to mark the node as toBeDeleted/unschedulable: " + err);
        for (String t : tainted) {
          untaint(t);
        }
        return new AutoscalerError(AutoscalerError.Type.API_CALL_ERROR,
            "couldn't taint node " + n.name() + " with ToBeDeleted: " + err);
      }
      record(ObjectReference.to(n), Event.NORMAL, SCALE_DOWN, MARKED);
      tainted.add(n.name());
    }
    return null;
  }

  /**
   * Puts the taint on {@code node} (its value the time in seconds, as upstream), cordoning it with
   * {@code cordonNodeBeforeTerminating} (upstream's {@code MarkToBeDeleted}); {@code null}, or the error.
   */
  private @Nullable String taint(String node, Instant now) {
    return NodeTaintWrites.add(store, node, ClusterAutoscaler.TO_BE_DELETED_TAINT, TaintEffect.NoSchedule, now,
        options.cordonNodeBeforeTerminating());
  }

  /**
   * Removes the taint from {@code node}, uncordoning it with {@code cordonNodeBeforeTerminating} (upstream's
   * {@code CleanToBeDeleted}); a node gone or failing is logged.
   */
  private void untaint(String node) {
    String err = NodeTaintWrites.remove(store, node, ClusterAutoscaler.TO_BE_DELETED_TAINT,
        options.cordonNodeBeforeTerminating());
    if (err != null) {
      LOG.debug("scale-down: could not untaint node {}: {}", node, err);
    }
  }

  /** Carries every deletion in progress as far as {@code now} allows. */
  void advance(Instant now) {
    ScaleDownEvictor.Cluster cluster = new StoreCluster(now);
    List<PodDisruptionBudget> pdbs = null;
    for (Deletion d : List.copyOf(inProgress.values())) {
      if (inProgress.get(d.node) != d || d.prepared) {
        continue;
      }
      if (d.eviction == null) {
        if (now.isBefore(d.startAt)) {
          continue; // still within its delay after the taint
        }
        if (pdbs == null) {
          pdbs = store.list(PodDisruptionBudget.class).items();
        }
        if (!start(d, pdbs, now)) {
          continue;
        }
      }
      ScaleDownEvictor.NodeEviction e = Objects.requireNonNull(d.eviction);
      if (!e.advance(now, cluster)) {
        continue;
      }
      AutoscalerError bestEffort = e.bestEffortError();
      if (bestEffort != null) {
        LOG.debug("scale-down: node {}: {}", d.node, bestEffort.message());
      }
      AutoscalerError err = e.error();
      if (err != null) {
        fail(d, new NodeDeleteResult(NodeDeleteResult.Type.FAILED_TO_EVICT_PODS, err, e.results()));
      } else {
        d.prepared = true;
      }
    }
    for (Deletion d : List.copyOf(inProgress.values())) {
      if (inProgress.get(d.node) != d || !d.prepared || d.batched) {
        continue;
      }
      List<Deletion> members = d.group == null ? List.of(d) : group(d.group);
      boolean all = true;
      for (Deletion m : members) {
        all &= m.prepared;
      }
      if (!all) {
        continue; // an atomic pool's nodes go together
      }
      for (Deletion m : members) {
        m.batched = true;
        batcher.addNode(m.node, m.pool, m.drain, now);
      }
    }
    batcher.advance(now);
  }

  /** Checks {@code d}'s node's pods again and starts its evictions; whether it goes on. */
  private boolean start(Deletion d, List<PodDisruptionBudget> pdbs, Instant now) {
    List<Pod> pods = new ArrayList<>();
    for (Pod p : podsOn.apply(d.node)) {
      Optional<Pod> cur = store.get(Pod.class, p.metadata().namespace(), p.metadata().name());
      if (cur.isPresent() && cur.get().spec().nodeName().equals(d.node)) {
        pods.add(cur.get());
      }
    }
    Drainability.NodeDrain check = Drainability.withBudgets(pdbs, now).drain(pods);
    if (check.blocked()) {
      fail(d, NodeDeleteResult.failed(NodeDeleteResult.Type.INTERNAL, new AutoscalerError(
          AutoscalerError.Type.INTERNAL_ERROR, "GetPodsToMove for " + d.node + " returned error: pod "
              + check.blockingPod() + " " + check.reason())));
      return false;
    }
    if (!d.drain && !check.evict().isEmpty()) {
      fail(d, NodeDeleteResult.failed(NodeDeleteResult.Type.INTERNAL, new AutoscalerError(
          AutoscalerError.Type.INTERNAL_ERROR, "failed to delete empty node " + d.node + ", new pods scheduled")));
      return false;
    }
    if (d.drain) {
      ScaleDownEvictor.PodsToEvict p = ScaleDownEvictor.podsToEvict(pods, options.daemonSetEvictionForOccupiedNodes());
      d.eviction = new ScaleDownEvictor.NodeEviction(d.node, p.otherPods(), p.daemonSetPods(), timing, now);
    } else {
      List<Pod> ds = ScaleDownEvictor.podsToEvict(pods, options.daemonSetEvictionForEmptyNodes()).daemonSetPods();
      d.eviction = new ScaleDownEvictor.NodeEviction(d.node, List.of(), ds, timing, now);
    }
    return true;
  }

  private List<Deletion> group(String group) {
    List<Deletion> out = new ArrayList<>();
    for (Deletion d : inProgress.values()) {
      if (group.equals(d.group)) {
        out.add(d);
      }
    }
    return out;
  }

  /** Ends {@code d} with {@code result}, and aborts the rest of its atomic group not yet handed for deletion. */
  private void fail(Deletion d, NodeDeleteResult result) {
    end(d.node, result);
    if (d.group == null) {
      return;
    }
    for (Deletion m : group(d.group)) {
      if (!m.batched) {
        end(m.node, NodeDeleteResult.failed(NodeDeleteResult.Type.FAILED_TO_DELETE, new AutoscalerError(
            AutoscalerError.Type.INTERNAL_ERROR, "Failed to delete node group " + m.pool + ": node " + d.node
                + " failed with error: " + result.error())));
      }
    }
  }

  /** Records {@code result} for {@code node}, which is no longer in progress; a failure removes its taint. */
  private void end(String node, NodeDeleteResult result) {
    Deletion d = inProgress.remove(node);
    results.put(node, result);
    Node object = deleting.remove(node);
    if (result.type() != NodeDeleteResult.Type.OK) {
      failures.put(node, result);
      LOG.debug("scale-down: could not delete node {}: {}", node, result.error());
      if (object != null) { // upstream's CleanUpAndRecordFailedScaleDownEvent
        String error = result.error() == null ? "" : result.error().message();
        record(ObjectReference.to(object), Event.WARNING, SCALE_DOWN_FAILED, d != null && d.drain
            ? "failed to drain and delete node: " + error : "failed to delete empty node: " + error);
      }
      untaint(node);
    } else if (object != null) { // upstream's RegisterAndRecordSuccessfulScaleDownEvent
      record(ObjectReference.to(object), Event.NORMAL, SCALE_DOWN, REMOVED);
      statusEvents.removed(node, d != null && d.drain);
    }
  }

  /** Records an event, unless no recorder was given. */
  private void record(ObjectReference regarding, String type, String reason, String note) {
    if (events != EventRecorder.NOOP) {
      events.event(regarding, null, type, reason, SCALE_DOWN, note);
    }
  }

  private @Nullable String deleteNode(String node) {
    try {
      store.delete(Node.class, "", node);
      return null;
    } catch (NotFoundException gone) {
      return null;
    } catch (RuntimeException e) {
      return e.getMessage() == null ? e.toString() : e.getMessage();
    }
  }

  private void nodeDeleted(String node, String pool, boolean drain) {
    end(node, NodeDeleteResult.OK_RESULT);
    deleted.add(node);
    // the autoscaler's view of the node's bound, running pods (a scan of every pod in the store per deleted node cost
    // the 1,000-node day about 0.6 s); terminal pods stay, as without a pod garbage collector. The node and its
    // kubelet are gone, so they are force-deleted (grace period 0), as the pod garbage collector would
    for (Pod p : podsOn.apply(node)) {
      try {
        store.delete(Pod.class, p.metadata().namespace(), p.metadata().name(), DeleteOptions.gracePeriod(0));
      } catch (RuntimeException e) {
        LOG.debug("scale-down: pod {} of deleted node {} not deleted: {}", p.metadata().key(), node, e.toString());
      }
    }
    LOG.debug("scale-down: removed {} node {} of pool {}", drain ? "drained" : "empty", node, pool);
  }

  /** The eviction subresource and pod look-ups over the store, at {@code now}. */
  private final class StoreCluster implements ScaleDownEvictor.Cluster {
    private final Instant now;

    StoreCluster(Instant now) {
      this.now = now;
    }

    @Override
    public void evicting(Pod pod) {
      if (events != EventRecorder.NOOP) {
        record(ObjectReference.to(pod), Event.NORMAL, SCALE_DOWN, DELETING_POD);
      }
    }

    @Override
    public void evictionFailed(Pod pod) {
      if (events != EventRecorder.NOOP) {
        record(ObjectReference.to(pod), Event.WARNING, SCALE_DOWN_FAILED, "failed to delete pod for ScaleDown");
      }
    }

    @Override
    public @Nullable String evict(Pod pod, long graceSeconds) {
      Optional<Pod> cur = store.get(Pod.class, pod.metadata().namespace(), pod.metadata().name());
      if (cur.isEmpty() || !cur.get().metadata().uid().equals(pod.metadata().uid())) {
        return null; // gone: upstream treats NotFound as evicted
      }
      try {
        EvictionDecision d = Evictions.evict(store, cur.get(), now, graceSeconds);
        if (!d.allowed()) {
          return d.reason();
        }
        evicted++;
        return null;
      } catch (RuntimeException e) {
        return e.getMessage() == null ? e.toString() : e.getMessage();
      }
    }

    @Override
    public ScaleDownEvictor.Presence presence(Pod pod, String node) {
      Optional<Pod> cur = store.get(Pod.class, pod.metadata().namespace(), pod.metadata().name());
      return cur.isPresent() && cur.get().spec().nodeName().equals(node) ? ScaleDownEvictor.Presence.ON_NODE
          : ScaleDownEvictor.Presence.GONE;
    }
  }

  /** What actuation is doing, for the planner: the nodes being deleted (recent evictions are kept 0 s, as upstream). */
  ActuationStatus status() {
    return inProgress.isEmpty() ? ActuationStatus.NONE : new ActuationStatus(inProgress.keySet(), List.of());
  }

  /**
   * When the first deletion still waiting out {@code nodeDeleteDelayAfterTaint} may go on, or {@code null} when none
   * waits: the instant at which {@link #advance} has work that no earlier call would find.
   */
  @Nullable Instant nextStep() {
    Instant next = null;
    for (Deletion d : inProgress.values()) {
      if (d.eviction == null && (next == null || d.startAt.isBefore(next))) {
        next = d.startAt;
      }
    }
    return next;
  }

  /** Whether any deletion is in progress. */
  boolean busy() {
    return !inProgress.isEmpty();
  }

  /** The deletions in progress. */
  int deletionsInProgress() {
    return inProgress.size();
  }

  /** The drains in progress. */
  int drainsInProgress() {
    int n = 0;
    for (Deletion d : inProgress.values()) {
      if (d.drain) {
        n++;
      }
    }
    return n;
  }

  /** Whether the deletion of node {@code node} is in progress. */
  boolean deleting(String node) {
    return inProgress.containsKey(node);
  }

  /** The deletions in progress of nodes of {@code pool}. */
  int inProgress(String pool) {
    int n = 0;
    for (Deletion d : inProgress.values()) {
      if (d.pool.equals(pool)) {
        n++;
      }
    }
    return n;
  }

  /** The deletions ended since the last call, by node name (upstream's {@code DeletionResults} then clearing them). */
  Map<String, NodeDeleteResult> takeResults() {
    Map<String, NodeDeleteResult> out = Map.copyOf(results);
    results.clear();
    return out;
  }

  /** The deletions that failed since the last call, by node name. */
  Map<String, NodeDeleteResult> takeFailures() {
    Map<String, NodeDeleteResult> out = Map.copyOf(failures);
    failures.clear();
    return out;
  }

  /** The nodes deleted since the last call, in the order deleted. */
  List<String> takeDeleted() {
    List<String> out = List.copyOf(deleted);
    deleted.clear();
    return out;
  }

  /** The pods evicted since the last call. */
  int takeEvicted() {
    int n = evicted;
    evicted = 0;
    return n;
  }

  /** The nodes waiting in the batcher. */
  int batched() {
    return batcher.waitingNodes();
  }
}
