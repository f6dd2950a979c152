package io.fleetkit.autoscale.cluster;

import static io.fleetkit.autoscale.cluster.ClusterAutoscaler.MINIMAL_RESOURCE_LIMIT_EXCEEDED;
import static io.fleetkit.autoscale.cluster.ClusterAutoscaler.NODE_GROUP_MIN_SIZE_REACHED;
import static io.fleetkit.autoscale.cluster.ClusterAutoscaler.NOT_UNDERUTILIZED;
import static io.fleetkit.autoscale.cluster.ClusterAutoscaler.NO_PLACE_TO_MOVE_PODS;
import static io.fleetkit.autoscale.cluster.ClusterAutoscaler.RECENTLY_UNREMOVABLE;
import static io.fleetkit.autoscale.cluster.ClusterAutoscaler.SCALE_DOWN_DISABLED;
import static io.fleetkit.autoscale.cluster.ClusterAutoscaler.SCALE_DOWN_DISABLED_ANNOTATION;
import static io.fleetkit.autoscale.cluster.ClusterAutoscaler.SCALE_DOWN_UNREADY_DISABLED;
import static io.fleetkit.autoscale.cluster.ClusterAutoscaler.TO_BE_DELETED_TAINT;
import static io.fleetkit.autoscale.cluster.ClusterAutoscaler.UNEXPECTED_ERROR;

import io.fleetkit.api.autoscaling.NodePool;
import io.fleetkit.api.autoscaling.NodePoolAutoscalingOptions;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.PodInfos;
import io.fleetkit.api.framework.SchedulerProfile;
import io.fleetkit.api.policy.PodDisruptionBudget;
import io.fleetkit.api.resource.dra.DeviceClass;
import io.fleetkit.api.resource.dra.ResourceClaim;
import io.fleetkit.api.resource.dra.ResourceSlice;
import io.fleetkit.api.scheduling.Taint;
import io.fleetkit.api.scheduling.TaintEffect;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.autoscale.cluster.simulator.SchedulingHints;
import io.fleetkit.autoscale.cluster.simulator.SimulatedCluster;
import io.fleetkit.reconcile.Lister;
import io.fleetkit.scheduler.PluginRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.function.ToIntFunction;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The cluster autoscaler's scale-down planner (upstream's {@code core/scaledown/planner/planner.go}): in every loop
 * {@link #update} evaluates which nodes are unneeded ({@code UpdateClusterState}, {@code categorizeNodes}) and keeps
 * how long each has been, and {@link #nodesToDelete} picks those due for removal within the deletion budgets
 * ({@code NodesToDelete}). {@link ClusterAutoscaler} describes the rules; this type holds the planner's state across
 * loops (the unneeded nodes and their times, the recently unremovable ones, the last evaluation, the simulation kept
 * from one evaluation to the next and the removal hints). Not thread-safe: the autoscaler's loop calls it.
 */
final class ScaleDownPlanner {
  private static final Logger LOG = LoggerFactory.getLogger(ScaleDownPlanner.class);

  /**
   * What tests replace in the planner (the seams of upstream's planner tests).
   *
   * @param recompute every evaluation starts from the store alone, reusing nothing of an earlier loop
   * @param eligibility decides eligibility instead of the annotation and the utilization threshold, or null
   * @param actuationStatus read in every loop instead of the actuator's, or null
   * @param sortCandidates simulate the candidates in upstream's default order rather than by name
   * @param afterNodeSimulation called with each node's name after its removal was simulated, or null
   */
  record Seams(boolean recompute, @Nullable Predicate<Node> eligibility, @Nullable ActuationStatus actuationStatus,
      boolean sortCandidates, @Nullable Consumer<String> afterNodeSimulation) {}

  /** The nodes picked for removal in one loop: the empty ones and those to drain. */
  record NodesToDelete(List<Node> empty, List<Node> drain) {
    boolean isEmpty() {
      return empty.isEmpty() && drain.isEmpty();
    }
  }

  private final ObjectStore store;
  private final Clock clock;
  private final SchedulerProfile profile;
  private final PluginRegistry registry;
  private final AutoscalerOptions options;
  private final ScaleDownActuator actuator;
  /** The round-robin position the autoscaler's searches share (scale-up's filter too). */
  private final SearchPosition searchPosition;
  private final boolean recompute;
  private final @Nullable Predicate<Node> eligibility;
  private final @Nullable ActuationStatus actuationStatus;
  private final boolean sortCandidates;
  private final @Nullable Consumer<String> afterNodeSimulation;

  /** The loop's pods, pool settings and scale-up snapshot, set by each {@link #update}. */
  private ClusterPods clusterPods = new ClusterPods();
  private NodeGroupConfig poolConfig;
  private LoopSnapshot snapshot = LoopSnapshot.EMPTY;

  private Map<String, Instant> unneededSince = new HashMap<>();
  /** The nodes a simulation found unremovable, not simulated again until their recheck time. */
  private final UnremovableNodes unremovableNodes = new UnremovableNodes();
  /** When scale-down last evaluated, and the shortest interval between two evaluations seen (upstream's planner). */
  private @Nullable Instant lastPlannerUpdate;
  private Duration minUpdateInterval;
  /** The unneeded nodes of the last evaluation: simulated first in the next one, and counted by its limit. */
  private List<String> lastUnneeded = List.of();
  /** The scale-down snapshot's node views, reused for nodes unchanged since the last loop. */
  private SimulatedCluster.ViewCache scaleDownViews = new SimulatedCluster.ViewCache();
  /**
   * The scale-down simulation kept from one evaluation to the next: rolled back to its loaded state and
   * {@linkplain SimulatedCluster#reload reloaded} with what changed, instead of loading every node again; or
   * {@code null}. It was loaded from {@link #scaleDownSimPods} with the budgets and priority classes
   * {@link #scaleDownSimObjects}.
   */
  private @Nullable SimulatedCluster scaleDownSim;
  private @Nullable ClusterPods scaleDownSimPods;
  private List<List<?>> scaleDownSimObjects = List.of();
  /** The {@link LoopSnapshot#pods} {@link #scaleDownSim} was loaded or reloaded with. */
  private Map<String, List<PodInfo>> scaleDownSimExtra = Map.of();
  /** The utilization and drain of the node views of {@link #scaleDownSim}, by slot. */
  private SlotFacts slotFacts = new SlotFacts(0);
  /**
   * Whether the nodes of {@link #scaleDownSim} were loaded in name order: then its slots stay in name order through
   * reloads (which keep the loaded order and add no node), and so do the candidates.
   */
  private boolean scaleDownSimByName;
  /** The last scale-down evaluation, reused while its inputs stay the same. */
  private @Nullable ScaleDownEvaluation lastEvaluation;
  /** Scratch list of {@link #moveAway}: the pods it moves, without their node. */
  private final List<PodInfo> movedPods = new ArrayList<>();
  /** Scratch list of {@link #evaluate}: the pods the simulation moved onto a candidate. */
  private final List<PodInfo> addedPods = new ArrayList<>();
  /**
   * Where the last evaluations' drain simulations moved each pod, tried first by the next (upstream's
   * {@code RemovalSimulator} hinting simulator); a generation ends after each evaluation ({@code DropOldHints}).
   */
  private final SchedulingHints removalHints = new SchedulingHints();
  /** The same for the pods placed again before the drains (upstream's actuation injector has hints of its own). */
  private final SchedulingHints injectionHints = new SchedulingHints();

  ScaleDownPlanner(ObjectStore store, Clock clock, SchedulerProfile profile, PluginRegistry registry,
      AutoscalerOptions options, ScaleDownActuator actuator, SearchPosition searchPosition, Seams seams) {
    this.store = store;
    this.clock = clock;
    this.profile = profile;
    this.registry = registry;
    this.options = options;
    this.actuator = actuator;
    this.searchPosition = searchPosition;
    this.recompute = seams.recompute();
    this.eligibility = seams.eligibility();
    this.actuationStatus = seams.actuationStatus();
    this.sortCandidates = seams.sortCandidates();
    this.afterNodeSimulation = seams.afterNodeSimulation();
    this.poolConfig = NodeGroupConfig.of(options, List.of());
    Duration u = options.scaleDownUnneededTime();
    this.minUpdateInterval = u.isZero() ? Duration.ofNanos(1) : u;
  }

  /**
   * Upstream's {@code UpdateClusterState} for the loop at {@code now}: evaluates the candidates (or reuses the last
   * evaluation when its inputs are the same, {@link #evaluate}), gives the nodes a simulation found unremovable their
   * recheck time, and keeps for each unneeded node the time it became so (a node keeps its time while it stays
   * unneeded, and only then).
   *
   * @param ready the ready nodes, in the store's order (the same list object while the node list is the same)
   * @param pods the loop's pods by node
   * @param poolConfig the settings of each pool's nodes in the loop
   * @param snapshot what the loop's scale-up left in its snapshot
   * @param unremovable receives the unremovable nodes and why
   * @return the unneeded nodes in the order found
   */
  List<String> update(Instant now, Map<String, NodePool> pools, List<Node> ready, ClusterPods pods,
      NodeGroupConfig poolConfig, LoopSnapshot snapshot, Map<String, String> unremovable) {
    this.clusterPods = pods;
    this.poolConfig = poolConfig;
    this.snapshot = snapshot;
    // upstream Planner.UpdateClusterState: the shortest interval between two updates (zero ones ignored)
    Instant lastUpdate = lastPlannerUpdate;
    if (lastUpdate != null && now.isAfter(lastUpdate)) {
      Duration interval = Duration.between(lastUpdate, now);
      if (interval.compareTo(minUpdateInterval) < 0) {
        minUpdateInterval = interval;
      }
    }
    lastPlannerUpdate = now;
    if (unremovableNodes.size() > 0) {
      unremovableNodes.update(n -> ClusterAutoscaler.named(ready, n) != null, now);
    }
    int limit = unneededNodesLimit(lastUnneeded.size(), options.maxEmptyBulkDelete(),
        options.scaleDownUnneededTime(), minUpdateInterval);
    Set<String> atomicPools = new HashSet<>();
    for (NodePool p : pools.values()) {
      if (p.spec().zeroOrMaxNodeScaling()) {
        atomicPools.add(p.metadata().name());
      }
    }
    ActuationStatus status = actuationStatus != null ? actuationStatus : actuator.status();
    List<Pod> injected = status.isEmpty() ? List.of() : podsToInject(status);
    // which pods being deleted are long-terminating now (the node's pods and those injected): the evaluation depends
    // on the time through them only
    boolean terminating = clusterPods.anyTerminating();
    int longTerminating = terminating ? clusterPods.longTerminating(now) : 0;
    for (Pod p : injected) {
      if (p.metadata().deletionTimestamp() != null) {
        terminating = true;
        if (TerminatingPods.isLongTerminating(p, now)) {
          longTerminating++;
        }
      }
    }
    ScaleDownInputs inputs = new ScaleDownInputs(ready, clusterPods.boundVersion(), snapshot.pods(),
        snapshot.placedClaims(),
        store.list(PodDisruptionBudget.class).items(),
        store.list(io.fleetkit.api.scheduling.PriorityClass.class).items(), Set.copyOf(pools.keySet()),
        Set.copyOf(lastUnneeded), unremovableNodes.recent(), limit, atomicPools, status.deletionsInProgress(),
        injected, now, terminating, longTerminating, poolConfig.overrides());
    ScaleDownEvaluation eval = lastEvaluation;
    if (eval == null || !eval.reusable() || !eval.inputs().sameAs(inputs)) {
      eval = evaluate(inputs);
      lastEvaluation = eval;
    }
    Instant recheck = now.plus(options.unremovableNodeRecheckTimeout());
    for (String n : eval.simulatedUnremovable()) {
      unremovableNodes.addTimeout(n, recheck);
    }
    lastUnneeded = eval.unneeded();
    // upstream unneeded.Nodes.Update: a node keeps its time while it stays unneeded, and only then
    Map<String, Instant> kept = new HashMap<>(Math.max(4, lastUnneeded.size() * 4 / 3 + 1));
    for (String n : lastUnneeded) {
      Instant t = unneededSince.get(n);
      kept.put(n, t == null ? now : t);
    }
    unneededSince = kept;
    unremovable.putAll(eval.unremovable());
    return lastUnneeded;
  }

  /**
   * Upstream's {@code NodesToDelete}: the unneeded nodes of the last {@link #update} that are due (unneeded for their
   * pool's unneeded time, an unready one for its unready time), within the deletion budgets left by the deletions in
   * progress ({@code maxEmptyBulkDelete} deletions, {@code maxDrainParallelism} drains), never taking a pool under its
   * min nor the cluster under a minimum of cores, memory or GPUs; atomic pools ({@code zeroOrMaxNodeScaling}) whole or
   * not at all.
   *
   * @param nodes the store's nodes
   * @param poolSize the nodes of a pool not being deleted
   * @param unremovable receives the due nodes kept and why
   */
  NodesToDelete nodesToDelete(Instant now, Map<String, NodePool> pools, List<Node> nodes,
      ToIntFunction<String> poolSize, Map<String, String> unremovable) {
    ScaleDownEvaluation eval = Objects.requireNonNull(lastEvaluation, "nodesToDelete before update");
    List<String> unneeded = lastUnneeded;
    Set<String> emptyNodes = eval.empty();
    Set<String> atomicPools = atomicPools(pools);
    Map<String, Integer> room = new HashMap<>();
    boolean roomInEveryPool = true;
    for (NodePool p : pools.values()) {
      // nodes being deleted still count in the pool's size until they are gone (upstream: target size minus
      // deletions in progress)
      int r = poolSize.applyAsInt(p.metadata().name()) - p.spec().minSize() - actuator.inProgress(p.metadata().name());
      room.put(p.metadata().name(), r);
      roomInEveryPool &= r > 0;
    }
    int empties = 0;
    int drains = 0;
    // the budgets left by the deletions in progress (upstream's cropNodesToBudgets): maxEmptyBulkDelete deletions in
    // progress (--max-scale-down-parallelism), of which maxDrainParallelism drains
    int emptyLimit = Math.max(0, options.maxEmptyBulkDelete() - actuator.deletionsInProgress());
    int drainLimit = Math.max(0, options.maxDrainParallelism() - actuator.drainsInProgress());
    List<Node> emptyChosen = new ArrayList<>();
    List<Node> drainChosen = new ArrayList<>();
    // upstream's LimitsLeft: what the cluster may lose before a minimum of --cores-total, --memory-total or
    // --gpu-total; each node removed is charged (TryDecrementBy), and a node that would exceed it is unremovable
    ClusterResourceLimits limits = ClusterResourceLimits.scaleDownLeft(nodes, pools, now, options);
    // a node is due when unneeded for scaleDownUnneededTime, an unready one for scaleDownUnreadyTime (upstream's
    // unneeded.Nodes.RemovableAt); the node is read only when its unneeded time lies between the two
    Instant due = now.minus(options.scaleDownUnneededTime());
    Instant dueUnready = now.minus(options.scaleDownUnreadyTime());
    // with pools' own unneeded times: a node unneeded since after this instant is due in no pool
    Instant dueLatest = poolConfig.allDefaults() ? null : now.minus(poolConfig.shortestUnneededTime());
    // atomic pools (zeroOrMaxNodeScaling) first, as upstream's ScaleDownBudgetProcessor.CropNodes: all of a pool's
    // nodes together, when every one is unneeded and due and the pool may go to zero, otherwise none of them; a pool
    // larger than the parallelism budget left waits, except that the first one taken may exceed it (upstream: so
    // that a large pool is not starved)
    int budget = emptyLimit;
    int atomicTaken = 0;
    for (String pool : new java.util.TreeSet<>(atomicPools)) {
      List<String> members = new ArrayList<>();
      for (String name : unneeded) {
        Instant since = unneededSince.get(name);
        Node n = ClusterAutoscaler.named(nodes, name);
        if (n != null && pool.equals(n.metadata().labels().get(NodePool.POOL_LABEL)) && since != null
            && isDue(n, since, due, dueUnready, now)) {
          members.add(name);
        }
      }
      int size = poolSize.applyAsInt(pool);
      if (members.isEmpty() || members.size() < size) {
        continue;
      }
      if (room.getOrDefault(pool, 0) < size) {
        for (String name : members) {
          unremovable.put(name, NODE_GROUP_MIN_SIZE_REACHED);
        }
        continue;
      }
      Map<String, Long> poolDelta = new HashMap<>();
      if (limits != null) {
        boolean known = true;
        for (String name : members) {
          Map<String, Long> d = ClusterResourceLimits.deltaForNode(
              Objects.requireNonNull(ClusterAutoscaler.named(nodes, name), name),
              pools.get(pool), options);
          if (d == null) {
            known = false;
            break;
          }
          d.forEach((k, v) -> poolDelta.merge(k, v, Long::sum));
        }
        if (!known) { // upstream: an error reading a node's resources
          for (String name : members) {
            unremovable.put(name, UNEXPECTED_ERROR);
          }
          continue;
        }
        if (!limits.exceeded(poolDelta).isEmpty()) {
          for (String name : members) {
            unremovable.put(name, MINIMAL_RESOURCE_LIMIT_EXCEEDED);
          }
          continue;
        }
      }
      if (budget < size && (budget <= 0 || atomicTaken > 0)) {
        break;
      }
      if (limits != null) {
        limits.tryDecrementBy(poolDelta);
      }
      budget -= size;
      atomicTaken++;
      for (String name : members) {
        Node member = Objects.requireNonNull(ClusterAutoscaler.named(nodes, name), name);
        if (emptyNodes.contains(name)) {
          empties++;
          emptyChosen.add(member);
        } else {
          drains++;
          drainChosen.add(member);
        }
      }
      room.put(pool, room.get(pool) - size);
      roomInEveryPool = false;
    }
    for (String name : unneeded) {
      // an unneeded node is in one of the pools (a candidate's pool is, and an evaluation is reused only for the same
      // pools): while every pool has room, a node of a kind whose deletions are used up is passed over below without
      // reading it, and once both kinds' are, so is every node left
      boolean emptiesDone = empties >= emptyLimit;
      boolean drainsDone = drains >= drainLimit;
      // with a minimum of cores, memory or GPUs every due node is read, so each one over it says so
      if (roomInEveryPool && limits == null && emptiesDone && drainsDone) {
        break;
      }
      Instant since = unneededSince.get(name);
      if (since == null || (dueLatest == null ? since.isAfter(due) && since.isAfter(dueUnready)
          : since.isAfter(dueLatest))) { // not due, ready or not, in whichever pool
        continue;
      }
      if (roomInEveryPool && limits == null && (emptyNodes.contains(name) ? emptiesDone : drainsDone)) {
        continue;
      }
      Node n = Objects.requireNonNull(ClusterAutoscaler.named(nodes, name), name);
      if (!isDue(n, since, due, dueUnready, now)) { // unneeded for less than its unneeded (or unready) time
        continue;
      }
      String pool = n.metadata().labels().get(NodePool.POOL_LABEL);
      if (pool != null && atomicPools.contains(pool)) {
        continue; // removed with its whole pool above, or not at all
      }
      if (room.getOrDefault(pool, 0) <= 0) {
        unremovable.put(name, NODE_GROUP_MIN_SIZE_REACHED);
        continue;
      }
      Map<String, Long> delta = limits == null ? Map.of()
          : ClusterResourceLimits.deltaForNode(n, ClusterResourceLimits.poolOf(n, pools), options);
      if (delta == null) { // upstream: an error reading the node's resources ("Error getting node resources")
        unremovable.put(name, UNEXPECTED_ERROR);
        continue;
      }
      if (limits != null && !limits.exceeded(delta).isEmpty()) {
        unremovable.put(name, MINIMAL_RESOURCE_LIMIT_EXCEEDED);
        continue;
      }
      boolean empty = emptyNodes.contains(name);
      if (empty ? empties >= emptyLimit : drains >= drainLimit) {
        continue;
      }
      if (limits != null) {
        limits.tryDecrementBy(delta);
      }
      if (empty) {
        empties++;
        emptyChosen.add(n);
      } else {
        drains++;
        drainChosen.add(n);
      }
      if (room.merge(pool, -1, Integer::sum) <= 0) {
        roomInEveryPool = false;
      }
    }
    return new NodesToDelete(List.copyOf(emptyChosen), List.copyOf(drainChosen));
  }

  /** Scale-down started deleting {@code node}: it is no longer counted unneeded. */
  void deletionStarted(String node) {
    unneededSince.remove(node);
  }

  /**
   * Forgets the unneeded nodes and the last evaluation (upstream's {@code CleanUpUnneededNodes}, when the cluster is
   * unhealthy): their unneeded time starts anew.
   */
  void forgetUnneeded() {
    unneededSince = new HashMap<>();
    lastUnneeded = List.of();
    lastEvaluation = null;
  }

  /** Drops the last evaluation, so the next {@link #update} evaluates (the pods were regrouped from scratch). */
  void forgetEvaluation() {
    lastEvaluation = null;
  }

  /** Drops every view, simulation and evaluation kept from earlier loops (every loop from scratch: tests). */
  void reset() {
    scaleDownViews = new SimulatedCluster.ViewCache();
    scaleDownSim = null;
    lastEvaluation = null;
  }

  /**
   * Sets what the planner remembers from earlier loops (the seam of upstream's planner tests, which set
   * {@code unneededNodes} and {@code minUpdateInterval}): the nodes unneeded in the last loop, unneeded since
   * {@code now}, and the shortest interval between two loops.
   */
  void state(List<String> previouslyUnneeded, Duration updateInterval, Instant now) {
    lastUnneeded = List.copyOf(previouslyUnneeded);
    unneededSince = new HashMap<>();
    for (String n : previouslyUnneeded) {
      unneededSince.put(n, now);
    }
    minUpdateInterval = updateInterval;
    lastEvaluation = null;
  }

  /** The pools whose nodes go all together or none ({@code zeroOrMaxNodeScaling}). */
  private static Set<String> atomicPools(Map<String, NodePool> pools) {
    Set<String> atomic = new HashSet<>();
    for (NodePool p : pools.values()) {
      if (p.spec().zeroOrMaxNodeScaling()) {
        atomic.add(p.metadata().name());
      }
    }
    return atomic;
  }

  /**
   * What a scale-down evaluation reads: the ready nodes, the bound pods ({@link ClusterPods#boundVersion}: the pods
   * on every node are the same objects while it is the same), the pending pods the loop left on nodes
   * ({@link LoopSnapshot#pods}) and the claims of those the filter placed ({@link LoopSnapshot#placedClaims}), the
   * budgets, priority classes and pool names.
   */
  private record ScaleDownInputs(List<Node> nodes, long boundPods, Map<String, List<PodInfo>> snapshotPods,
      List<ResourceClaim> placedClaims, List<PodDisruptionBudget> pdbs,
      List<io.fleetkit.api.scheduling.PriorityClass> priorityClasses, Set<String> pools,
      Set<String> previouslyUnneeded, Set<String> recentlyUnremovable, int limit, Set<String> atomicPools,
      Set<String> deletionsInProgress, List<Pod> injected, Instant at, boolean terminating, int longTerminating,
      Map<String, NodePoolAutoscalingOptions> poolOptions) {
    /**
     * Whether an evaluation of {@code o} must come out as one of this: the same bound pods, budgets and priority
     * classes (the same objects: the store's objects are immutable, so an unchanged one is the same instance), the
     * same pools, and nodes that differ at most in what the evaluation does not read (a heartbeat's condition
     * times). Unbound and terminal pods are not read by an evaluation. The time {@code at} is read only through
     * which pods being deleted are long-terminating: with the same pods, the same number of them
     * ({@code longTerminating}) means the same ones.
     */
    boolean sameAs(ScaleDownInputs o) {
      if (limit != o.limit || longTerminating != o.longTerminating || !previouslyUnneeded.equals(o.previouslyUnneeded)
          || !recentlyUnremovable.equals(o.recentlyUnremovable) || !atomicPools.equals(o.atomicPools)
          || !deletionsInProgress.equals(o.deletionsInProgress) || !injected.equals(o.injected)
          || !poolOptions.equals(o.poolOptions) || !snapshotPods.equals(o.snapshotPods)
          || !Lister.sameObjects(placedClaims, o.placedClaims)) {
        return false; // snapshotPods: the same pod objects (their views kept per object) on the same nodes
      }
      if (nodes == o.nodes && pools.equals(o.pools) && boundPods == o.boundPods && pdbs == o.pdbs
          && priorityClasses == o.priorityClasses) {
        return true;
      }
      if (!pools.equals(o.pools) || boundPods != o.boundPods || !Lister.sameObjects(pdbs, o.pdbs)
          || !Lister.sameObjects(priorityClasses, o.priorityClasses) || nodes.size() != o.nodes.size()) {
        return false;
      }
      for (int i = 0; i < nodes.size(); i++) {
        Node a = nodes.get(i);
        Node b = o.nodes.get(i);
        if (a != b && !(a.name().equals(b.name()) && SimulatedCluster.ViewCache.sameNode(a, b)
            && a.metadata().annotations().equals(b.metadata().annotations())
            && Objects.equals(a.metadata().deletionTimestamp(), b.metadata().deletionTimestamp()))) {
          return false;
        }
      }
      return true;
    }
  }

  /**
   * One evaluation: the unneeded nodes in the order found (and those of them with no pod to evict), the unremovable
   * ones and the reasons, those of them a simulation found unremovable (they get a recheck time), whether the
   * simulation timeout cut it short (then it is not reused: another loop may get further), and whether a search
   * placed a pod (then it is not reused either: run again, that pod goes straight to the node the search found, its
   * hint, earlier or in another order than the search put it there, and the run may decide otherwise).
   */
  private record ScaleDownEvaluation(ScaleDownInputs inputs, List<String> unneeded, Map<String, String> unremovable,
      List<String> simulatedUnremovable, Set<String> empty, boolean timedOut, boolean searched) {

    /** Whether a loop with the same inputs decides as this evaluation: it ran to the end, each pod on its hint. */
    boolean reusable() {
      return !timedOut && !searched;
    }
  }

  /**
   * Upstream's {@code Planner.unneededNodesLimit}: the number of unneeded nodes after which scale-down stops
   * simulating more candidates. With {@code n} = max scale-down parallelism, it is the nodes unneeded so far plus
   * {@code 2n} (the next loop's deletions and a buffer), but at most {@code n × (unneeded time / loop interval) + n}
   * (no more than the deletions possible before the first of them is due), the unneeded time taken as at least one
   * loop interval.
   *
   * @param previouslyUnneeded the nodes found unneeded by the last evaluation (still unneeded)
   * @param maxScaleDownParallelism {@code n}
   * @param unneededTime {@code --scale-down-unneeded-time}
   * @param loopInterval the shortest interval seen between two evaluations (upstream's {@code minUpdateInterval}),
   *     positive
   */
  static int unneededNodesLimit(int previouslyUnneeded, int maxScaleDownParallelism, Duration unneededTime,
      Duration loopInterval) {
    long n = maxScaleDownParallelism;
    long extraBuffer = n;
    long limit = previouslyUnneeded + n + extraBuffer;
    long interval = Math.max(1, loopInterval.toNanos());
    long u = Math.max(unneededTime.toNanos(), interval);
    long upperBound = n * (u / interval) + extraBuffer;
    return (int) Math.min(Integer.MAX_VALUE, Math.min(limit, upperBound));
  }

  /**
   * What scale-down makes of a cluster: the unneeded nodes (with the pods each must evict), the unremovable ones and
   * the reasons. A function of its inputs, the hints and the search position (it reads the clock only for the
   * simulation timeout). A loop whose inputs are {@linkplain ScaleDownInputs#sameAs the same} as the last one's
   * reuses its evaluation, when that evaluation placed every pod on its hint ({@link ScaleDownEvaluation#reusable}),
   * and leaves the position alone: run again, each pod would be placed on its hint (the same node) in the same order
   * on the same cluster, and a search that finds no node, the only other kind it would make, neither depends on where
   * it starts nor moves the position. An evaluation in which a search placed a pod is not reused: its pods' hints now
   * name the nodes it found, so a run again places such a pod there at once, where a pod moved twice (onto a
   * candidate, then off it) lands earlier than it did, and a pod of a priority searched after the hinted ones is
   * placed in its turn among them; either may leave other pods other room.
   */
  private ScaleDownEvaluation evaluate(ScaleDownInputs in) {
    SimulatedCluster sim = scaleDownSimulation(in);
    long searchedBefore = sim.searchPlacements();
    List<Node> readyNodes = in.nodes();
    boolean noBudgets = in.pdbs().isEmpty();
    Map<String, String> unremovable = new TreeMap<>();
    Drainability drain = Drainability.withBudgets(in.pdbs(), in.at());
    // utilization and drains are taken at the evaluation's time (which pods being deleted count as gone); the facts
    // kept from earlier evaluations whose pods passed their long-terminating instant since are forgotten
    slotFacts.at(in.at(), in.terminating());
    // the simulation's nodes, in slot order, are the ready nodes not being deleted, in list order; a node object
    // whose candidacy facts a slot holds is that slot's node (a slot holds one node name for its lifetime, and the
    // object is immutable), so an unchanged node is matched to its slot without reading it
    slotFacts.pools(in.pools());
    int slots = sim.slots();
    int[] candidates = new int[slots];
    int count = 0;
    int slot = 0;
    for (Node n : readyNodes) {
      int at = slot;
      while (at < slots && sim.nodeInfoAt(at) == null) {
        at++;
      }
      if (at >= slots || !slotFacts.holdsNode(at, n)) {
        if (n.metadata().deletionTimestamp() != null) {
          continue;
        }
        NodeInfo info = sim.nodeInfoAt(at);
        if (info == null) {
          throw new IllegalStateException("scale-down simulation: node " + n.name() + " has no slot");
        }
        if (!info.name().equals(n.name())) {
          throw new IllegalStateException("scale-down simulation: slot " + at + " holds node " + info.name()
              + ", not " + n.name());
        }
        slotFacts.node(at, n, SCALE_DOWN_DISABLED);
      }
      slot = at + 1;
      if (slotFacts.pooled(at)) {
        candidates[count++] = at;
      }
    }
    if (!scaleDownSimByName) {
      Integer[] byName = new Integer[count];
      for (int k = 0; k < count; k++) {
        byName[k] = candidates[k];
      }
      Arrays.sort(byName, Comparator.comparing(at -> slotFacts.node(at).name()));
      for (int k = 0; k < count; k++) {
        candidates[k] = byName[k];
      }
    }
    // upstream UpdateClusterState: the nodes being deleted are neither candidates nor destinations, and the pods that
    // actuation will need placed again are placed first (injectOngoingActuation: by priority, each priority's hints
    // first, then round-robin from the autoscaler's position, which the removals' searches share; the first that fits
    // nowhere ends the injection, the pods placed before it stay)
    int[] cursor = searchPosition.cursorIn(sim);
    // upstream's ghost of a node whose removal is simulated, tainted as a drain taints the node
    // (replaceWithTaintedGhostNode)
    Taint ghostTaint = new Taint(TO_BE_DELETED_TAINT, String.valueOf(in.at().getEpochSecond()), TaintEffect.NoSchedule,
        null);
    if (!in.deletionsInProgress().isEmpty()) {
      for (String name : in.deletionsInProgress()) {
        int at = sim.slot(name);
        if (at >= 0 && sim.nodeInfoAt(at) != null) {
          sim.removeNodeAt(at);
        }
      }
      int kept = 0;
      for (int k = 0; k < count; k++) {
        if (!in.deletionsInProgress().contains(slotFacts.node(candidates[k]).name())) {
          candidates[kept++] = candidates[k];
        }
      }
      count = kept;
    }
    if (!in.injected().isEmpty()) {
      List<PodInfo> injected = new ArrayList<>(in.injected().size());
      for (Pod p : in.injected()) {
        injected.add(PodInfos.of(p.withNodeName("")));
      }
      if (!sim.placeUntilFailure(injected, cursor, injectionHints)) {
        LOG.debug("scale-down: not all recently evicted pods could be injected");
      }
    }
    // eligibility on the cluster as it is, before any simulated removal (upstream eligibility.FilterOutUnremovable),
    // sorted as upstream's scale-down candidates sorting: empty nodes first, then those unneeded last loop
    int[] order = new int[count];
    int empties = 0;
    int[] previous = new int[count];
    int previousCount = 0;
    int[] rest = new int[count];
    int restCount = 0;
    // the slots of the nodes unneeded last loop and of those recently found unremovable (a slot holds one node for its
    // lifetime): a candidate's slot says whether its name is among them without hashing each candidate's name
    boolean[] wasUnneeded = slotsOf(sim, in.previouslyUnneeded());
    boolean[] recentlyUnremovable = slotsOf(sim, in.recentlyUnremovable());
    for (int k = 0; k < count; k++) {
      int at = candidates[k];
      if (recentlyUnremovable[at]) {
        unremovable.put(slotFacts.node(at).name(), RECENTLY_UNREMOVABLE);
        continue;
      }
      if (eligibility == null && slotFacts.scaleDownDisabled(at)) {
        unremovable.put(slotFacts.node(at).name(), SCALE_DOWN_DISABLED_ANNOTATION);
        continue;
      }
      // upstream's eligibility: with --scale-down-unready-enabled=false an unready node is no candidate
      if (eligibility == null && !options.scaleDownUnreadyEnabled() && !slotFacts.node(at).isReady()) {
        unremovable.put(slotFacts.node(at).name(), SCALE_DOWN_UNREADY_DISABLED);
        continue;
      }
      NodeInfo info = Objects.requireNonNull(sim.nodeInfoAt(at));
      slotFacts.refresh(at, info);
      double threshold = poolConfig.allDefaults() ? slotFacts.gpuNode(at) ? options.scaleDownGpuUtilizationThreshold()
          : options.scaleDownUtilizationThreshold() : poolConfig.scaleDownUtilizationThreshold(
          slotFacts.node(at).metadata().labels().get(NodePool.POOL_LABEL), slotFacts.gpuNode(at));
      // above the threshold (upstream's isNodeAtOrBelowUtilizationThreshold: a node at it is a candidate), or not
      // known (NaN: a node without CPU or memory allocatable, upstream's error)
      if (eligibility != null ? !eligibility.test(slotFacts.node(at)) : !(slotFacts.utilization(at) <= threshold)) {
        unremovable.put(slotFacts.node(at).name(), eligibility == null && Double.isNaN(slotFacts.utilization(at))
            ? UNEXPECTED_ERROR : NOT_UNDERUTILIZED);
        continue;
      }
      byte kind = noBudgets ? slotFacts.drainKind(at) : SlotFacts.UNKNOWN;
      if (kind == SlotFacts.UNKNOWN) {
        kind = SlotFacts.kind(drainOf(info, at, drain, noBudgets));
      }
      if (!sortCandidates) {
        rest[restCount++] = at; // in name order, as given
      } else if (kind == SlotFacts.EMPTY) {
        order[empties++] = at;
      } else if (wasUnneeded[at]) {
        previous[previousCount++] = at;
      } else {
        rest[restCount++] = at;
      }
    }
    System.arraycopy(previous, 0, order, empties, previousCount);
    System.arraycopy(rest, 0, order, empties + previousCount, restCount);
    int eligible = empties + previousCount + restCount;
    // the drain simulations, until the timeout or the limit (upstream categorizeNodes); the round-robin search runs
    // over the nodes as loaded, by slot (a removed node's slot is passed over). Nodes of atomic pools
    // (zeroOrMaxNodeScaling) do not count toward the limit, as upstream's atomicScaleDownNodesCount
    List<String> unneeded = new ArrayList<>();
    List<String> simulatedUnremovable = new ArrayList<>();
    Set<String> unneededEmpty = new HashSet<>();
    int atomic = 0;
    boolean timedOut = false;
    Instant deadline = clock.instant().plus(options.scaleDownSimulationTimeout());
    for (int k = 0; k < eligible; k++) {
      if (!clock.instant().isBefore(deadline)) {
        timedOut = true;
        LOG.debug("scale-down: {} of {} nodes skipped in simulation: timeout {}", eligible - k, eligible,
            options.scaleDownSimulationTimeout());
        break;
      }
      if (unneeded.size() - atomic >= in.limit()) {
        break; // upstream: "there are already N unneeded nodes so no point in looking for more"
      }
      int at = order[k];
      String name = slotFacts.node(at).name();
      // the pods on the node in the simulation: its own, plus those moved here from nodes found unneeded before
      NodeInfo loaded = slotFacts.view(at);
      Drainability.Drain<PodInfo> before = slotFacts.drain(at);
      List<PodInfo> moved = addedPods;
      moved.clear();
      String reason; // why the node is unremovable, or null
      boolean empty;
      if (noBudgets && !recompute && loaded != null && before != null && sim.podsAddedSince(at, loaded, moved)) {
        // the loaded view plus the pods moved here, without making the view. Each moved pod was on the evict list of
        // a node drained before in this simulation, made by the same rules without budgets, under which a pod's
        // decision is its own (its copy without a node shares its rules): it is evicted here too, so the drain is
        // the recorded one followed by the moved pods (Drainability.drainPlus's), known without reading them
        reason = before.blocked() ? before.reason()
            : moveAway(sim, cursor, at, before.evict().size(), moved, ghostTaint) ? null : NO_PLACE_TO_MOVE_PODS;
        empty = before.evict().isEmpty() && moved.isEmpty();
        moved.clear();
      } else {
        moved.clear();
        Drainability.Drain<PodInfo> d;
        NodeInfo info = Objects.requireNonNull(sim.nodeInfoAt(at));
        if (recompute) {
          d = drainOf(info, drain); // the reference: every drain from the node's view as it is now
        } else if (slotFacts.holds(at, info)) {
          d = drainOf(info, at, drain, noBudgets);
        } else if (loaded != null && before != null) {
          // the loaded view plus pods moved here: their decisions are added to the loaded view's drain
          d = drain.drainAfter(before, loaded.pods(), info.pods(), PodInfo::pod, ScaleDownPlanner::rules);
        } else {
          d = drainOf(info, drain);
        }
        reason = d.blocked() ? d.reason()
            : moveAway(sim, cursor, at, d.evict(), ghostTaint) ? null : NO_PLACE_TO_MOVE_PODS;
        if (reason == null) {
          drain.charge(d.evict(), PodInfo::pod);
        }
        empty = d.evict().isEmpty();
      }
      if (afterNodeSimulation != null) {
        afterNodeSimulation.accept(name);
      }
      if (reason != null) {
        unremovable.put(name, reason);
        simulatedUnremovable.add(name);
        continue;
      }
      sim.removeDrainedNodeAt(at);
      unneeded.add(name);
      if (!in.atomicPools().isEmpty()) { // the node's pool is read only when some pool is atomic
        String pool = slotFacts.node(at).metadata().labels().get(NodePool.POOL_LABEL);
        if (pool != null && in.atomicPools().contains(pool)) {
          atomic++;
        }
      }
      if (empty) {
        unneededEmpty.add(name);
      }
    }
    // upstream's UpdateClusterState ends a generation of both simulators' hints after each categorizeNodes. An
    // evaluation reused for the same inputs (one without a search that placed a pod) ends none: run again, it would
    // set the same hints (each pod placed where its hint says, in the same order), so the generation it would end
    // holds what the reused one left
    removalHints.dropOld();
    injectionHints.dropOld();
    searchPosition.keep(sim);
    return new ScaleDownEvaluation(in, List.copyOf(unneeded), unremovable, List.copyOf(simulatedUnremovable),
        unneededEmpty, timedOut, sim.searchPlacements() != searchedBefore);
  }

  /**
   * The scheduler's view of {@code pi}'s pod without its node (as a new pod of its controller): the same view for
   * the same pod object (pods are immutable), and {@code pi} itself for a pod already without a node.
   */
  private static PodInfo unbound(PodInfo pi) {
    if (pi instanceof AutoscalerPodInfo a) {
      return a.unbound();
    }
    return pi.pod().spec().nodeName().isEmpty() ? pi : PodInfos.of(pi.pod().withNodeName(""));
  }

  /** The drain of {@code info}'s pods, each with its pod-only rules made once per pod object. */
  private static Drainability.Drain<PodInfo> drainOf(NodeInfo info, Drainability drain) {
    return drain.drain(info.pods(), PodInfo::pod, ScaleDownPlanner::rules);
  }

  static Drainability.PodRules rules(PodInfo pi) {
    return pi instanceof AutoscalerPodInfo a ? a.rules() : Drainability.PodRules.of(pi.pod());
  }

  /**
   * The drain of {@code info}'s pods, the view in {@code slot} whose facts {@link #slotFacts} holds: the recorded one
   * when no budget exists and it is known, else computed (and recorded when no budget exists).
   */
  private Drainability.Drain<PodInfo> drainOf(NodeInfo info, int slot, Drainability drain, boolean noBudgets) {
    Drainability.Drain<PodInfo> d = noBudgets ? slotFacts.drain(slot) : null;
    if (d == null) {
      d = drainOf(info, drain);
      if (noBudgets) {
        slotFacts.drain(slot, d);
      }
    }
    return d;
  }

  /**
   * The simulation of an evaluation of {@code in}, with a checkpoint open at the loaded state: {@link #scaleDownSim}
   * rolled back and reloaded with the nodes and pods changed since, when it was loaded from the same pod grouping,
   * budgets and priority classes and {@code in}'s nodes add none and keep their order (and most of its slots still
   * hold a node); otherwise a new simulation loaded with every node.
   */
  private SimulatedCluster scaleDownSimulation(ScaleDownInputs in) {
    Set<String> changed = clusterPods.takeChangedNodes();
    Map<String, List<PodInfo>> extra = in.snapshotPods();
    if (extra != scaleDownSimExtra) {
      changed = new HashSet<>(changed);
      for (Map.Entry<String, List<PodInfo>> e : extra.entrySet()) {
        if (!e.getValue().equals(scaleDownSimExtra.get(e.getKey()))) {
          changed.add(e.getKey());
        }
      }
      for (String node : scaleDownSimExtra.keySet()) {
        if (!extra.containsKey(node)) {
          changed.add(node);
        }
      }
    }
    java.util.function.Function<String, List<PodInfo>> podsOn = extra.isEmpty() ? clusterPods::infosOn
        : node -> withSnapshotPods(clusterPods.infosOn(node), extra.get(node));
    Map<Class<?>, List<?>> dra = SimulationObjects.dra(store);
    List<LoopSnapshot.PlacedPod> claimPods = snapshot.placedClaimPods();
    if (!in.placedClaims().isEmpty()) {
      @SuppressWarnings("unchecked")
      List<ResourceClaim> stored = (List<ResourceClaim>) dra.getOrDefault(ResourceClaim.class, List.of());
      dra = new HashMap<>(dra);
      dra.put(ResourceClaim.class, withPlacedClaims(stored, in.placedClaims()));
    }
    // the claims as the filter left them, and the pods holding them where it placed them (the same objects while
    // they are the same)
    List<List<?>> objects = List.of(in.pdbs(), in.priorityClasses(), dra.getOrDefault(DeviceClass.class, List.of()),
        dra.getOrDefault(ResourceSlice.class, List.of()), dra.getOrDefault(ResourceClaim.class, List.of()), claimPods);
    SimulatedCluster sim = scaleDownSim;
    if (sim != null && scaleDownSimPods == clusterPods && sameObjects(scaleDownSimObjects, objects)) {
      sim.rollback();
      boolean reloaded = sim.reload(in.nodes(), podsOn, changed);
      if (reloaded) {
        scaleDownSimExtra = extra; // reloaded, the pods of the changed nodes are podsOn's
      }
      if (reloaded && sim.size() * 2 >= sim.slots()) {
        sim.checkpoint();
        return sim;
      }
    }
    Map<Class<?>, List<?>> simObjects = new HashMap<>(dra);
    simObjects.put(PodDisruptionBudget.class, in.pdbs());
    simObjects.put(io.fleetkit.api.scheduling.PriorityClass.class, in.priorityClasses());
    sim = SimulatedCluster.create(profile, registry, clock, simObjects);
    sim.load(in.nodes(), podsOn, scaleDownViews);
    for (LoopSnapshot.PlacedPod p : claimPods) {
      if (sim.hasNode(p.node())) {
        sim.holdClaims(p.node(), p.pod());
      }
    }
    scaleDownSimExtra = extra;
    SimulatedCluster loaded = sim;
    slotFacts = new SlotFacts(sim.slots(), options.ignoreDaemonSetsUtilization(),
        options.ignoreMirrorPodsUtilization(), view -> devicesOf(loaded, view));
    scaleDownSimByName = inNameOrder(in.nodes());
    scaleDownSim = sim;
    scaleDownSimPods = clusterPods;
    scaleDownSimObjects = objects;
    sim.checkpoint();
    return sim;
  }

  /** A node's bound pods followed by the pending pods the loop left on it ({@link LoopSnapshot#pods}). */
  private static List<PodInfo> withSnapshotPods(List<PodInfo> bound, @Nullable List<PodInfo> pending) {
    if (pending == null) {
      return bound;
    }
    List<PodInfo> out = new ArrayList<>(bound.size() + pending.size());
    out.addAll(bound);
    out.addAll(pending);
    return out;
  }

  /**
   * The utilization of the DRA devices of {@code view}'s node in {@code sim}: its node-local slices used by the claims
   * of its pods as the simulation's placements left them; {@code null} when the node has no node-local slice.
   */
  private static @Nullable DeviceUtilization devicesOf(SimulatedCluster sim, NodeInfo view) {
    List<ResourceSlice> local = sim.localSlices(view.name());
    if (local.isEmpty()) {
      return null;
    }
    List<Pod> pods = new ArrayList<>(view.pods().size());
    for (PodInfo p : view.pods()) {
      pods.add(p.pod());
    }
    return DeviceUtilization.ofNode(view.name(), local, pods, sim::claim);
  }

  /** Whether each list of {@code a} holds the same objects as the list of {@code b} at its index. */
  private static boolean sameObjects(List<List<?>> a, List<List<?>> b) {
    if (a.size() != b.size()) {
      return false;
    }
    for (int i = 0; i < a.size(); i++) {
      if (!Lister.sameObjects(a.get(i), b.get(i))) {
        return false;
      }
    }
    return true;
  }

  /** Whether the nodes of {@code nodes} not being deleted (those a simulation loads) are in name order. */
  private static boolean inNameOrder(List<Node> nodes) {
    String last = null;
    for (Node n : nodes) {
      if (n.metadata().deletionTimestamp() != null) {
        continue;
      }
      if (last != null && last.compareTo(n.name()) >= 0) {
        return false;
      }
      last = n.name();
    }
    return true;
  }

  /** The slots of {@code sim} that hold a node named in {@code names}, marked. */
  private static boolean[] slotsOf(SimulatedCluster sim, Set<String> names) {
    boolean[] marked = new boolean[sim.slots()];
    for (String name : names) {
      int at = sim.slot(name);
      if (at >= 0) {
        marked[at] = true;
      }
    }
    return marked;
  }

  /**
   * The store's {@code claims} with those of {@link LoopSnapshot#placedClaims} in their place (as the filter's
   * placements left them), the list itself when there are none.
   */
  private static List<ResourceClaim> withPlacedClaims(List<ResourceClaim> claims, List<ResourceClaim> placed) {
    if (placed.isEmpty()) {
      return claims;
    }
    Map<String, ResourceClaim> byKey = new HashMap<>();
    for (ResourceClaim c : placed) {
      byKey.put(c.metadata().key(), c);
    }
    List<ResourceClaim> out = new ArrayList<>(claims.size());
    for (ResourceClaim c : claims) {
      ResourceClaim p = byKey.get(c.metadata().key());
      out.add(p != null ? p : c);
    }
    return out;
  }


  /**
   * Whether {@code n}, unneeded since {@code since}, may be removed: a ready node once {@code since} is not after
   * {@code due}, an unready one once it is not after {@code dueUnready}; in a pool with unneeded or unready times of
   * its own, once it has been unneeded for those at {@code now}.
   */
  private boolean isDue(Node n, Instant since, Instant due, Instant dueUnready, Instant now) {
    if (poolConfig.allDefaults()) {
      return !since.isAfter(n.isReady() ? due : dueUnready);
    }
    Duration time = poolConfig.scaleDownUnneededTime(n.metadata().labels().get(NodePool.POOL_LABEL), n.isReady());
    return !since.isAfter(now.minus(time));
  }

  /**
   * The pods the planner places in its simulation before simulating any removal (upstream's
   * {@code injectOngoingActuation}): the pods of the nodes being deleted and the recently evicted ones that a
   * controller recreates ({@link ActuationStatus#recreatable}), the latter only as many of a controller's as it has
   * not recreated yet ({@link ControllerReplicas#notRecreated}). A node's pods are those of the loop's snapshot, as
   * upstream's {@code currentlyDrainedPods} lists the NodeInfo's: its bound pods, then the pods waiting for preemption
   * nominated to it ({@link LoopSnapshot#nominated}).
   */
  private List<Pod> podsToInject(ActuationStatus status) {
    List<Pod> drained = new ArrayList<>();
    for (String name : new java.util.TreeSet<>(status.deletionsInProgress())) {
      drained.addAll(clusterPods.on(name));
      drained.addAll(snapshot.nominated().getOrDefault(name, List.of()));
    }
    List<Pod> out = new ArrayList<>(ActuationStatus.recreatable(drained));
    out.addAll(ControllerReplicas.notRecreated(ActuationStatus.recreatable(status.recentEvictions()), store));
    return List.copyOf(out);
  }

  /**
   * Places the pods of {@code pods} (without their node) on nodes other than the one in slot {@code from}, each
   * searched from slot {@code cursor[0]} round-robin over the simulation's slots (the cursor then moves past the node
   * found, as upstream's), while the node is upstream's ghost tainted {@code ghostTaint}
   * ({@link SimulatedCluster#placeElsewhere}); undoes the placements on failure.
   */
  private boolean moveAway(SimulatedCluster sim, int[] cursor, int from, List<PodInfo> pods, Taint ghostTaint) {
    List<PodInfo> unbound = movedPods;
    unbound.clear();
    for (int i = 0, n = pods.size(); i < n; i++) {
      unbound.add(unbound(pods.get(i))); // as a new pod of its controller: NodeName must not pin it
    }
    boolean placed = sim.placeElsewhere(unbound, cursor, from, removalHints, ghostTaint);
    unbound.clear();
    return placed;
  }

  /**
   * {@link #moveAway(SimulatedCluster, int[], int, List, Taint)} of the {@code recorded} pods of the drain recorded for
   * slot {@code from} ({@link SlotFacts#drain(int)}; their copies without their node are kept with it), followed by
   * {@code moved}, pods the simulation moved onto the node (already without their node).
   */
  private boolean moveAway(SimulatedCluster sim, int[] cursor, int from, int recorded, List<PodInfo> moved,
      Taint ghostTaint) {
    List<PodInfo> unbound = movedPods;
    unbound.clear();
    if (recorded > 0) {
      PodInfo[] kept = slotFacts.moving(from, ScaleDownPlanner::unbound);
      for (PodInfo pi : kept) {
        unbound.add(pi);
      }
    }
    unbound.addAll(moved);
    boolean placed = sim.placeElsewhere(unbound, cursor, from, removalHints, ghostTaint);
    unbound.clear();
    return placed;
  }
}
