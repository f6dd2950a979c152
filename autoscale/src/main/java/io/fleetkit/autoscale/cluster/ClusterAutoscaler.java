package io.fleetkit.autoscale.cluster;

import io.fleetkit.api.apps.DaemonSet;
import io.fleetkit.api.autoscaling.NodePool;
import io.fleetkit.api.autoscaling.NodePoolStatus;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.events.EventRecorder;
import io.fleetkit.api.framework.SchedulerProfile;
import io.fleetkit.api.NotFoundException;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.metrics.MetricsRegistry;
import io.fleetkit.autoscale.cluster.simulator.SimulatedCluster;
import io.fleetkit.autoscale.cluster.simulator.SimulatedNodes;
import io.fleetkit.scheduler.DefaultPlugins;
import io.fleetkit.scheduler.PluginRegistry;
import java.time.Clock;
import io.fleetkit.api.time.GoDurations;
import java.time.Duration;
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
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The cluster autoscaler (kubernetes/autoscaler {@code cluster-autoscaler}) over an {@link ObjectStore}: grows
 * {@link NodePool}s when pending pods fit nowhere, and removes underused pool nodes whose pods can move.
 *
 * <p>Each {@link #runOnce()} (upstream's 10 s {@code scan-interval} loop; the caller drives it with its clock):
 * <ol>
 *   <li><b>Provisioning.</b> Launched nodes whose pool start-up delay has passed become Ready
 *       ({@link SimulatedNodes}); a node still not ready {@code maxNodeProvisionTime} (15 min) after it was
 *       requested is deleted and its pool backed off (5 min, doubling up to 30 min, reset after 3 h).
 *   <li><b>Scale-up.</b> Pods waiting for preemption ({@code status.nominatedNodeName}) are on their nominated node
 *       and never pending. Pending pods are first tried on the existing and upcoming nodes (those still starting count
 *       as ready, so a slow GPU node is not requested twice); for every pool that is neither backed off nor at its
 *       max, {@link BinpackingEstimator} packs the rest onto template nodes of the pool with the scheduler's real
 *       filters, its searches going on from the position the other searches share (scale-up from zero uses the same
 *       template). Template and upcoming nodes hold the pods of the
 *       DaemonSets (listed from the store) that should run on them ({@link TemplateNodes}), so their requests are not
 *       there for pending pods; pending DaemonSet pods that fit nowhere are not a reason to scale up. A pool
 *       that is unhealthy as upstream's {@code IsNodeGroupHealthy} ({@link NodeGroupHealth}: more of its nodes
 *       that finished starting are not Ready than {@code okTotalUnreadyCount} and {@code maxTotalUnreadyPercentage}
 *       percent of its nodes) is skipped with upstream's reason "not ready for scale-up", and so is a pool one node of
 *       which would take the cluster over {@code --cores-total} or {@code --memory-total}
 *       ({@link ClusterResourceLimits}). The {@link Expander} (default least-waste) picks an option; ties are broken by
 *       the seeded random source. The option's node count is capped by those maxima, and the pool grows by it, never
 *       past its max or {@code maxNodesTotal}; with {@code balanceSimilarNodeGroups} the nodes are split over the pool
 *       and the pools similar to it so their sizes even out ({@link NodeGroupSimilarity}, {@link ScaleUpBalancing}).
 *       Each node is asked of the cloud ({@link Builder#instanceCreation}); a machine it refuses is never created, and
 *       its pool is backed off with the cloud's error, as upstream's {@code handleInstanceCreationErrors} does with
 *       the instances a cloud provider reports failed (an out-of-capacity stockout,
 *       {@link InstanceErrorClass#OUT_OF_RESOURCES}): the scale-up is undone by as many nodes, the pool backed off
 *       (5 min, doubling up to 30 min, reset after 3 h), and the next loop's expander picks another pool for the pods still pending ({@link LoopResult#scaleUpFailures}).
 *   <li><b>Scale-down</b> (evaluated in every loop, nodes deleted only when no scale-up happened in the last
 *       {@code scaleDownDelayAfterAdd}, as upstream's {@code isScaleDownInCooldown}), as upstream's planner ({@code core/scaledown/planner/planner.go}, {@code categorizeNodes}). A pool node that
 *       has finished starting (Ready or not; an unready one only with {@code scaleDownUnreadyEnabled}) is
 *       eligible when it is not annotated against scale-down, was not found unremovable in a simulation within
 *       {@code unremovableNodeRecheckTimeout} ({@link UnremovableNodes}) and its utilization
 *       ({@link NodeUtilization}; GPU nodes by GPUs, nodes with DRA devices by their most used device pool,
 *       {@link DeviceUtilization}), measured on the cluster as scale-up's filter left it (upstream's planner runs on
 *       the loop's snapshot: the pending pods the filter placed, with the ResourceClaims its placements allocated,
 *       and those waiting for preemption on their nominated node, are on their nodes for the utilization and the
 *       drain simulations), is at or under the threshold.
 *       Eligible nodes are simulated in upstream's candidate order (empty nodes first, then those unneeded in the
 *       last loop, then the rest by name), until the unneeded ones reach upstream's {@code unneededNodesLimit}: a node is
 *       unneeded when every pod that must move ({@link Drainability}: PDBs, controller, local storage,
 *       safe-to-evict, kube-system) fits on another node that is not itself unneeded, searched round-robin
 *       (upstream's {@code RunFiltersUntilPassingNode}, from the position all the autoscaler's searches share,
 *       {@link SearchPosition}) while the node is upstream's pod-less, tainted ghost
 *       ({@link SimulatedCluster#placeElsewhere}); the pods stay there for the next candidates. A node
 *       unneeded for {@code scaleDownUnneededTime} (10 min), an unready one for {@code scaleDownUnreadyTime} (20 min),
 *       is removed — empty nodes up to
 *       {@code maxEmptyBulkDelete}, at most {@code maxDrainParallelism} non-empty ones — never taking a pool under
 *       its min, nor past the deletions already in progress, nor the cluster under a minimum of {@code --cores-total}
 *       or {@code --memory-total} ({@code MinimalResourceLimitExceeded}). The {@link ScaleDownActuator} then taints
 *       the nodes {@value #TO_BE_DELETED_TAINT}, drains them ({@link ScaleDownEvictor}: evictions through the eviction
 *       subresource, so PodDisruptionBudgets hold; retried up to {@code maxPodEvictionTime}; the evicted pods waited
 *       for up to {@code maxGracefulTerminationSec} plus 30 s) and deletes them ({@link NodeDeletionBatcher}); a drain
 *       goes on in the next loops on the autoscaler's clock, and a failed one untaints its node
 *       ({@link LoopResult#failedDeletions()}). Pools with
 *       {@code zeroOrMaxNodeScaling} lose all their nodes together or none, and their nodes do not count toward the
 *       limit. The simulations stop after {@code scaleDownSimulationTimeout} on the autoscaler's clock; before them,
 *       the pods of the {@link ActuationStatus} (nodes being deleted, recent evictions not yet recreated) are placed.
 *       The loop's planner ({@code ScaleDownPlanner}) decides which nodes go; the actuator removes them.
 * </ol>
 *
 * <p>Before scale-up, a loop checks the cluster's health as upstream's {@code IsClusterHealthy}:
 * with more than {@code okTotalUnreadyCount} unready nodes that are also more than {@code maxTotalUnreadyPercentage}
 * percent of the nodes it neither scales up nor evaluates scale-down, forgets the unneeded nodes, and says so in
 * {@link LoopResult#halted()}; deletions already started go on.
 *
 * <p>The pods are listed from the store in every loop, or, when built with {@link Builder#watchPods()}, kept from a
 * watch ({@link #close} ends it).
 *
 * <p>Thread-safety: {@code runOnce}, {@code planScaleUp} and {@code close} are synchronized; one instance per store.
 */
public final class ClusterAutoscaler implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ClusterAutoscaler.class);
  /** The annotation that keeps a node from being scaled down, as upstream. */
  public static final String SCALE_DOWN_DISABLED = "cluster-autoscaler.kubernetes.io/scale-down-disabled";
  public static final String NOT_UNDERUTILIZED = "NotUnderutilized";
  /**
   * A node whose utilization cannot be computed (no CPU or no memory allocatable on a node without GPUs), as
   * upstream's eligibility check, which finds it unremovable with this reason.
   */
  public static final String UNEXPECTED_ERROR = "UnexpectedError";
  /** Upstream's skipped reason of a pool backed off after a failed scale-up (its {@code BackoffReason}). */
  public static final String BACKOFF_REASON = "in backoff after failed scale-up";
  /** Upstream's skipped reason of a pool at its maximum size (its {@code MaxLimitReachedReason}). */
  public static final String MAX_LIMIT_REACHED_REASON = "max node group size reached";
  public static final String NO_PLACE_TO_MOVE_PODS = "NoPlaceToMovePods";
  public static final String SCALE_DOWN_DISABLED_ANNOTATION = "ScaleDownDisabledAnnotation";
  public static final String NODE_GROUP_MIN_SIZE_REACHED = "NodeGroupMinSizeReached";
  /** Upstream's {@code MinimalResourceLimitExceeded}: removing the node would take the cluster under a minimum. */
  public static final String MINIMAL_RESOURCE_LIMIT_EXCEEDED = "MinimalResourceLimitExceeded";
  /**
   * The taint upstream's actuator puts on a node before draining it ({@code NoSchedule}, the value the time in
   * seconds): the simulation's TaintToleration filter keeps pods off such a node, as upstream's.
   */
  public static final String TO_BE_DELETED_TAINT = "ToBeDeletedByClusterAutoscaler";
  /** A node not simulated because a simulation found it unremovable within the recheck timeout. */
  public static final String RECENTLY_UNREMOVABLE = "RecentlyUnremovable";
  /** An unready node kept because {@code scaleDownUnreadyEnabled} is off (upstream's reason). */
  public static final String SCALE_DOWN_UNREADY_DISABLED = "ScaleDownUnreadyDisabled";
  /** The event reason of a loop halted by too many unready nodes (upstream's {@code ClusterUnhealthy} event). */
  public static final String CLUSTER_UNHEALTHY = "ClusterUnhealthy";

  private final ObjectStore store;
  private final Clock clock;
  private final SchedulerProfile profile;
  private final PluginRegistry registry;
  private final AutoscalerOptions options;
  /** Metrics; null when no registry was given. */
  private final @Nullable AutoscalerInstruments metrics;

  private final NodeGroupBackoff backoffs;
  /** The settings of each pool's nodes in the running loop (the pools' own, else the options'). */
  private NodeGroupConfig poolConfig;
  private final Map<String, Integer> nameCounters = new HashMap<>();
  /** The cloud every launched node is asked of. */
  private final InstanceCreation instanceCreation;
  /** The pods by node and the unbound ones, updated from each loop's pod list (or the watch) by what changed. */
  private ClusterPods clusterPods = new ClusterPods();
  /** The pods kept from a watch instead of the loop's list ({@link Builder#watchPods()}), or {@code null}. */
  private final @Nullable WatchedClusterPods watchedPods;
  /** Whether every loop starts from nothing (no state reused from the last loop): the reference for tests. */
  private final boolean recompute;
  /** Drains and deletes the nodes scale-down removes, across loops on the autoscaler's clock. */
  private final ScaleDownActuator actuator;
  /** Which nodes are unneeded and which of them are removed, with its state across loops. */
  private final ScaleDownPlanner planner;
  /** The nodes whose deletion started as empty ones and has not ended yet (for the metrics). */
  private final Set<String> startedEmpty = new HashSet<>();
  /** When a loop last started deletions, and last failed to (upstream's lastScaleDownDeleteTime/FailTime). */
  private @Nullable Instant lastScaleDownDelete;
  private @Nullable Instant lastScaleDownFail;
  /** The pools, starting and ready nodes of the last node list read, kept from list to list by node object. */
  private NodeListFacts nodeFacts = new NodeListFacts();
  private @Nullable Instant lastScaleUp;
  /** Scale-up's decision, with its filter's hints and what it leaves in the loop's snapshot. */
  private final ScaleUpPlanner scaleUp;
  /** The recorder of the loop's events, best effort; {@link EventRecorder#NOOP} when none was given. */
  private final EventRecorder events;
  /** The events on the status ConfigMap ({@link StatusEvents#NONE} without a recorder). */
  private final StatusEvents statusEvents;
  /**
   * The round-robin position of the searches for a node, kept across loops: scale-up's filter, the placing of pods
   * from ongoing deletions and the drain simulations all go on from it, as upstream's share its snapshot's plugin
   * runner.
   */
  private final SearchPosition searchPosition = new SearchPosition();

  private ClusterAutoscaler(Builder b) {
    this.store = b.store;
    this.clock = b.clock;
    this.profile = b.profile;
    this.registry = b.registry;
    this.options = b.options;
    this.backoffs = new NodeGroupBackoff(b.options.initialBackoff(), b.options.maxBackoff(), b.options.backoffReset());
    this.instanceCreation = b.instanceCreation;
    this.poolConfig = NodeGroupConfig.of(b.options, List.of());
    this.metrics = b.metrics.enabled() ? new AutoscalerInstruments(b.metrics, b.options) : null;
    this.recompute = b.recompute;
    // a recorder that throws never aborts a loop (NOOP stays NOOP, so nothing is built for it)
    this.events = EventRecorder.bestEffort(b.events);
    this.statusEvents = StatusEvents.of(events, b.options);
    this.actuator = new ScaleDownActuator(b.store, b.options,
        b.evictionTiming != null ? b.evictionTiming : ScaleDownEvictor.Timing.of(b.options), n -> clusterPods.on(n),
        events);
    this.scaleUp = new ScaleUpPlanner(b.store, b.clock, b.profile, b.registry, b.options, b.expander, b.seed,
        backoffs, searchPosition);
    scaleUp.explainRemaining(events != EventRecorder.NOOP);
    this.planner = new ScaleDownPlanner(b.store, b.clock, b.profile, b.registry, b.options, actuator, searchPosition,
        new ScaleDownPlanner.Seams(b.recompute, b.eligibility, b.actuationStatus, b.sortCandidates,
            b.afterNodeSimulation));
    this.watchedPods = b.watchPods ? new WatchedClusterPods(b.store) : null;
  }

  /**
   * Upstream's scale-up status for the events ({@code static_autoscaler.go} and the orchestrator's results) and the
   * events it gives ({@link ScaleUpEvents}): none without unschedulable pods (upstream's {@code ScaleUpNotNeeded});
   * {@code max total nodes in cluster reached} on every unschedulable pod when the ready nodes are at
   * {@code maxNodesTotal}; {@code TriggeredScaleUp} on the chosen option's pods when the loop scaled up, nothing when a
   * launch of the plan failed (upstream's {@code ScaleUpError}); otherwise {@code NotTriggerScaleUp} on each pod no
   * considered pool can take, with the pools' reasons.
   */
  private void recordScaleUpEvents(ScaleUpPlan plan, boolean launchFailed, java.util.Set<String> pools,
      int readyNodes) {
    if (plan.unschedulablePods().isEmpty()) {
      return;
    }
    if (options.maxNodesTotal() > 0 && readyNodes >= options.maxNodesTotal()) {
      statusEvents.maxNodesTotalReached(options.maxNodesTotal());
      List<ScaleUpEvents.NoScaleUp> all = new ArrayList<>();
      for (Pod p : scaleUp.unschedulablePods()) {
        all.add(new ScaleUpEvents.NoScaleUp(p, Map.of(), Map.of()));
      }
      ScaleUpEvents.record(events, ScaleUpEvents.Result.LIMITED_BY_MAX_NODES_TOTAL, List.of(), List.of(), all, pools);
      return;
    }
    ScaleUpOption chosen = plan.chosen();
    if (chosen == null || plan.scaleUps().isEmpty()) {
      ScaleUpEvents.record(events, ScaleUpEvents.Result.NO_OPTIONS_AVAILABLE, List.of(), List.of(),
          scaleUp.remaining(), pools);
    } else if (launchFailed) { // upstream's error status carries no scale-ups: no event
      ScaleUpEvents.record(events, ScaleUpEvents.Result.ERROR, List.of(), chosen.pods(), scaleUp.remaining(), pools);
    } else {
      ScaleUpEvents.record(events, ScaleUpEvents.Result.SUCCESSFUL, plan.scaleUps(), chosen.pods(),
          scaleUp.remaining(), pools);
    }
  }

  /** A builder for an autoscaler of the pools in {@code store}. */
  public static Builder builder(ObjectStore store) {
    return new Builder(store);
  }

  /** One loop: provisioning, scale-up, scale-down. */
  public synchronized LoopResult runOnce() {
    long start = metrics == null ? 0 : System.nanoTime();
    if (recompute) {
      nodeFacts = new NodeListFacts();
      clusterPods = new ClusterPods();
      planner.reset();
    }
    Instant now = clock.instant();
    // the deletions started by earlier loops go on first (upstream: goroutines running between loops), on the pods
    // as they are now (a pod bound to a node since the last loop is checked, evicted or deleted with it)
    if (actuator.busy() || actuator.batched() > 0) {
      syncPods();
      actuator.advance(now);
    }
    List<String> ready = new ArrayList<>();
    List<String> timedOut = new ArrayList<>();
    Map<String, NodePool> pools = pools();
    poolConfig = NodeGroupConfig.of(options, pools.values());
    advanceProvisioning(now, ready, timedOut);

    List<Node> nodes = store.list(Node.class).items();
    syncPods();
    List<String> launched = new ArrayList<>();
    List<ScaleUpFailure> failures = new ArrayList<>();
    // upstream's IsClusterHealthy: while too many nodes are unready the loop neither scales up nor down and forgets
    // the unneeded nodes (CleanUpUnneededNodes); deletions already started go on
    nodeFacts.update(nodes);
    int unreadyNodes = nodeFacts.unready(now, poolConfig);
    if (!ClusterHealth.healthy(unreadyNodes, nodeFacts.size(), options)) {
      return halt(now, start, pools, nodes, unreadyNodes, ready, timedOut);
    }
    if (options.enforceNodeGroupMinSize()) {
      ClusterResourceLimits left = null;
      for (NodePool pool : pools.values()) {
        int size = poolSize(nodes, pool.metadata().name());
        if (size < pool.spec().minSize()) {
          // upstream's ScaleUpToNodeGroupMinSize: a pool one node of which exceeds a cluster-wide maximum is passed
          // over, the others grow only as far as the maxima allow (all against the totals before this loop)
          if (left == null) {
            left = scaleUpLimits(pools, nodes, nodeFacts, options);
          }
          Map<String, Long> delta = ClusterResourceLimits.deltaForPool(pool, options);
          if (!left.exceeded(delta).isEmpty()) {
            continue;
          }
          int count = left.applyLimits(pool.spec().minSize() - size, delta);
          // upstream's GetCappedNewNodeCount, called here with the pool's size as the cluster's node count
          if (options.maxNodesTotal() > 0 && count + size > options.maxNodesTotal()) {
            count = options.maxNodesTotal() - size;
            statusEvents.maxNodesTotalReached(options.maxNodesTotal());
            if (count < 1) {
              continue;
            }
          }
          launched.addAll(launch(pool, size, count, now, failures));
        }
      }
      if (!launched.isEmpty()) {
        nodes = store.list(Node.class).items();
      }
    }
    long scaleUpStart = metrics == null ? 0 : System.nanoTime();
    ScaleUpPlan plan = scaleUp.plan(now, pools, nodes, clusterPods, nodeFacts, poolConfig);
    boolean scaledUp = !launched.isEmpty();
    int failedBefore = failures.size();
    for (PoolScaleUp s : plan.scaleUps()) {
      launched.addAll(launch(Objects.requireNonNull(pools.get(s.pool()), s.pool()), s.currentSize(), s.delta(), now,
          failures));
      scaledUp = true;
    }
    if (events != EventRecorder.NOOP) {
      recordScaleUpEvents(plan, failures.size() > failedBefore, pools.keySet(), nodeFacts.size() - unreadyNodes);
    }
    if (scaledUp) {
      lastScaleUp = now;
    }
    long scaleUpNanos = metrics == null ? 0 : System.nanoTime() - scaleUpStart;
    List<String> unneeded = new ArrayList<>();
    Map<String, String> unremovable = new TreeMap<>();
    List<String> deleted = new ArrayList<>();
    Instant last = lastScaleUp;
    Instant lastDelete = lastScaleDownDelete;
    Instant lastFail = lastScaleDownFail;
    // upstream isScaleDownInCooldown
    boolean cooldown = scaledUp || (last != null && now.isBefore(last.plus(options.scaleDownDelayAfterAdd())))
        || (lastFail != null && now.isBefore(lastFail.plus(options.scaleDownDelayAfterFailure())))
        || (lastDelete != null && now.isBefore(lastDelete.plus(options.scaleDownDelayAfterDelete())));
    long scaleDownStart = metrics == null ? 0 : System.nanoTime();
    List<Node> beforeScaleDown = store.list(Node.class).items();
    // upstream's planner updates in every loop, in cooldown too; only the deletions wait (isScaleDownInCooldown)
    List<String> started = new ArrayList<>();
    scaleDown(now, pools, beforeScaleDown, unneeded, unremovable, started, !cooldown);
    long softTaintStart = metrics == null ? 0 : System.nanoTime();
    long softTaintNanos = updateSoftTaints(pools, unneeded) && metrics != null ? System.nanoTime() - softTaintStart
        : -1;
    deleted.addAll(actuator.takeDeleted());
    Set<String> deletedEmpty = settleDeletions(deleted);
    Map<String, NodeDeleteResult> failed = new TreeMap<>(actuator.takeFailures());
    int evicted = actuator.takeEvicted();
    long scaleDownNanos = metrics == null ? 0 : System.nanoTime() - scaleDownStart;
    updatePoolStatuses(pools, now, scaledUp || !deleted.isEmpty() || !timedOut.isEmpty());
    LoopResult result = new LoopResult(ready, timedOut, plan, launched, failures, unneeded, unremovable, deleted,
        started, failed, null);
    if (metrics != null) {
      metrics.loop(new AutoscalerInstruments.Loop(now, System.nanoTime() - start, scaleUpNanos, scaleDownNanos,
          softTaintNanos, !cooldown, cooldown, options.maxNodesTotal(), beforeScaleDown, deletedEmpty, evicted), result,
          pools, store.list(Node.class).items(), store.list(Pod.class).items());
    }
    return result;
  }

  /**
   * When a deletion in progress next has a step to take between loops, or empty when none has: the end of a node's
   * {@code nodeDeleteDelayAfterTaint} (upstream's deletion goroutine sleeps that long after the taint, then checks the
   * node's pods, drains it and deletes it). A driver with a simulated clock calls {@link #advanceDeletions()} at that
   * instant, as upstream's goroutine wakes up then; without that call the next {@link #runOnce()} takes the step.
   * Eviction retries and the wait for evicted pods are carried on by the loops.
   */
  public synchronized Optional<Instant> nextDeletionStep() {
    return Optional.ofNullable(actuator.nextStep());
  }

  /**
   * Carries the deletions in progress as far as the clock allows, between loops (upstream's deletion goroutines):
   * the nodes whose delay after their taint has ended have their pods checked again, are drained and, once drained,
   * deleted. Nothing else of a loop runs. The nodes deleted and the deletions failed are reported here and not again by
   * the next loop; the metrics count them and the pools' statuses follow.
   */
  public synchronized DeletionProgress advanceDeletions() {
    Instant now = clock.instant();
    if (!actuator.busy() && actuator.batched() == 0) {
      return new DeletionProgress(List.of(), Map.of());
    }
    List<Node> before = store.list(Node.class).items();
    syncPods();
    actuator.advance(now);
    List<String> deleted = actuator.takeDeleted();
    Set<String> deletedEmpty = settleDeletions(deleted);
    Map<String, NodeDeleteResult> failed = new TreeMap<>(actuator.takeFailures());
    int evicted = actuator.takeEvicted();
    if (!deleted.isEmpty()) {
      updatePoolStatuses(pools(), now, true);
    }
    if (metrics != null) {
      Map<String, Node> byName = new HashMap<>();
      for (Node n : before) {
        byName.put(n.name(), n);
      }
      metrics.deletions(byName, deleted, deletedEmpty, evicted);
    }
    return new DeletionProgress(deleted, failed);
  }

  /**
   * Upstream's {@code updateSoftDeletionTaints}, run after every scale-down step (in cooldown too): the soft taint on
   * the pool nodes found unneeded, off the other pool nodes ({@link SoftTaints}).
   *
   * @return whether it ran ({@code maxBulkSoftTaintCount} is not 0)
   */
  private boolean updateSoftTaints(Map<String, NodePool> pools, List<String> unneeded) {
    if (options.maxBulkSoftTaintCount() == 0) {
      return false;
    }
    Set<String> unneededNames = unneeded.isEmpty() ? Set.of() : new HashSet<>(unneeded);
    List<Node> taintable = new ArrayList<>();
    List<Node> untaintable = new ArrayList<>();
    List<Node> nodes = store.list(Node.class).items();
    for (int i = 0, size = nodes.size(); i < size; i++) {
      Node n = nodes.get(i);
      boolean isUnneeded = !unneededNames.isEmpty() && unneededNames.contains(n.name());
      if (!isUnneeded && !SoftTaints.mayLoseTaint(n)) {
        continue; // a needed node without the soft taint: SoftTaints.update passes over it
      }
      String pool = n.metadata().labels().get(NodePool.POOL_LABEL);
      if (pool == null || !pools.containsKey(pool)) {
        continue; // only nodes of the node groups the autoscaler manages
      }
      (isUnneeded ? taintable : untaintable).add(n);
    }
    SoftTaints.update(store, clock, options.maxBulkSoftTaintCount(), options.maxBulkSoftTaintTime(), taintable,
        untaintable);
    return true;
  }

  /**
   * The nodes of {@code deleted} whose deletion started while they were empty (the empty-node deletions upstream
   * counts apart); nodes whose deletion is over, deleted or not, are no longer tracked as started empty.
   */
  private Set<String> settleDeletions(List<String> deleted) {
    Set<String> deletedEmpty = new HashSet<>();
    for (String n : deleted) {
      if (startedEmpty.contains(n)) {
        deletedEmpty.add(n);
      }
    }
    for (String n : actuator.takeResults().keySet()) {
      if (!actuator.deleting(n)) {
        startedEmpty.remove(n);
      }
    }
    return deletedEmpty;
  }

  /**
   * The rest of a loop that found the cluster unhealthy ({@link ClusterHealth}): no scale-up, no scale-down
   * evaluation, the unneeded nodes forgotten (upstream's {@code CleanUpUnneededNodes}, so their unneeded time starts
   * anew); the deletions earlier loops started went on and are reported.
   */
  private LoopResult halt(Instant now, long start, Map<String, NodePool> pools, List<Node> nodes, int unreadyNodes,
      List<String> ready, List<String> timedOut) {
    planner.forgetUnneeded();
    String reason = CLUSTER_UNHEALTHY + ": " + unreadyNodes + " of " + nodes.size() + " nodes unready (more than "
        + options.okTotalUnreadyCount() + " and more than " + options.maxTotalUnreadyPercentage() + "%)";
    LOG.debug("cluster is not ready for autoscaling: {}", reason);
    statusEvents.clusterUnhealthy();
    List<String> deleted = actuator.takeDeleted();
    Set<String> deletedEmpty = settleDeletions(deleted);
    Map<String, NodeDeleteResult> failed = new TreeMap<>(actuator.takeFailures());
    int evicted = actuator.takeEvicted();
    updatePoolStatuses(pools, now, !deleted.isEmpty() || !timedOut.isEmpty());
    LoopResult result = new LoopResult(ready, timedOut, null, List.of(), List.of(), List.of(), Map.of(), deleted,
        List.of(), failed, reason);
    if (metrics != null) {
      metrics.loop(new AutoscalerInstruments.Loop(now, System.nanoTime() - start, 0, 0, -1, false, false,
          options.maxNodesTotal(), nodes, deletedEmpty, evicted), result, pools, store.list(Node.class).items(),
          store.list(Pod.class).items());
    }
    return result;
  }

  /**
   * Sets what the planner remembers from earlier loops (the seam of upstream's planner tests, which set
   * {@code unneededNodes} and {@code minUpdateInterval}): the nodes unneeded in the last loop, unneeded since now, and
   * the shortest interval between two loops.
   */
  synchronized void plannerState(List<String> previouslyUnneeded, Duration updateInterval) {
    planner.state(previouslyUnneeded, updateInterval, clock.instant());
  }

  /**
   * The scale-up decision for the store as it is now, without launching anything. It filters the pending pods as a
   * loop does, so it reads and renews the scale-up filter's hints and ends a generation of them, and moves the search
   * position ({@link SearchPosition}), as a loop would.
   */
  public synchronized ScaleUpPlan planScaleUp() {
    syncPods();
    Map<String, NodePool> pools = pools();
    poolConfig = NodeGroupConfig.of(options, pools.values());
    return scaleUp.plan(clock.instant(), pools, store.list(Node.class).items(), clusterPods, nodeFacts, poolConfig);
  }

  /**
   * Ends the pod watch of {@link Builder#watchPods()} (nothing to end otherwise). Idempotent; a loop after it fails.
   */
  @Override
  public synchronized void close() {
    if (watchedPods != null) {
      watchedPods.close();
    }
  }

  /** Brings {@link #clusterPods} to the store's pods: from the watch, or from a list. */
  private void syncPods() {
    WatchedClusterPods w = watchedPods;
    if (w == null || recompute) {
      clusterPods.update(store.list(Pod.class).items());
      return;
    }
    ClusterPods p = w.current();
    if (p != clusterPods) { // a new grouping (the first, or after the watch expired): its bound version starts anew
      clusterPods = p;
      planner.forgetEvaluation();
    }
  }

  private Map<String, NodePool> pools() {
    Map<String, NodePool> pools = new TreeMap<>();
    for (NodePool p : store.list(NodePool.class).items()) {
      if (p.metadata().deletionTimestamp() == null) {
        pools.put(p.metadata().name(), p);
      }
    }
    return pools;
  }

  // ---- provisioning ----

  private void advanceProvisioning(Instant now, List<String> ready, List<String> timedOut) {
    backoffs.removeStale(now); // upstream's updateScaleRequests: stale backoffs first, then the timeouts
    List<Node> nodes = store.list(Node.class).items();
    nodeFacts.update(nodes);
    // per pool, when its latest request among the nodes timed out in this loop was made (the status event's duration)
    Map<String, Instant> timedOutRequests = statusEvents.enabled() ? new TreeMap<>() : null;
    for (Node n : nodeFacts.startingPooled()) {
      String pool = Objects.requireNonNull(n.metadata().labels().get(NodePool.POOL_LABEL));
      Instant readyAt = Objects.requireNonNull(SimulatedNodes.readyAt(n));
      Instant requested = SimulatedNodes.requestedAt(n);
      if (!now.isBefore(readyAt)) {
        SimulatedNodes.markReady(store, n, now);
        ready.add(n.name());
      } else if (requested != null && now.isAfter(requested.plus(poolConfig.maxNodeProvisionTime(pool)))) {
        // upstream: a scale-up times out once its expected add time is before the loop's time
        deleteQuietly(Node.class, "", n.name());
        timedOut.add(n.name());
        String message = "Scale-up timed out for node group " + pool + " after "
            + GoDurations.format(Duration.between(requested, now));
        backoffs.backoff(pool, new InstanceErrorInfo(InstanceErrorClass.OTHER, "timeout", message), now);
        if (timedOutRequests != null) {
          timedOutRequests.merge(pool, requested, (a, b) -> a.isAfter(b) ? a : b);
        }
        LOG.debug("node {} of pool {} not ready after {}; pool backed off", n.name(), pool,
            poolConfig.maxNodeProvisionTime(pool));
      }
    }
    if (timedOutRequests != null) {
      // upstream's updateScaleRequests: one event per pool whose scale-up request timed out
      timedOutRequests.forEach((pool, requested) -> statusEvents.scaleUpTimedOut(pool,
          Duration.between(requested, now)));
    }
  }

  /** Why {@code pool} is backed off at the clock's time, or {@code null} when it is not. */
  synchronized @Nullable InstanceErrorInfo backoffStatus(String pool) {
    return backoffs.status(pool, clock.instant());
  }

  /** Whether {@code pool} is backed off at the clock's time (up to and including the instant its backoff ends). */
  public synchronized boolean isBackedOff(String pool) {
    return backoffs.status(pool, clock.instant()) != null;
  }

  // ---- scale-up ----

  /** Upstream's scale-up {@code ResourcesLeft} for {@code nodes} and {@code pools} ({@link ClusterResourceLimits}). */
  static ClusterResourceLimits scaleUpLimits(Map<String, NodePool> pools, List<Node> nodes, NodeListFacts facts,
      AutoscalerOptions options) {
    facts.update(nodes);
    return ClusterResourceLimits.scaleUpLeft(pools, facts::poolSize, nodes, options);
  }


  /** A node of {@code pool} named {@code name}: the template plus the pool and hostname labels. */
  static Node templateNode(NodePool pool, String name) {
    return pool.spec().template().toNode(name, "fleetkit://" + pool.metadata().name() + "/" + name).toBuilder()
        .label(NodePool.POOL_LABEL, pool.metadata().name()).label(SimulatedNodes.HOSTNAME_LABEL, name).build();
  }

  /**
   * Launches {@code count} nodes of {@code pool}, which has {@code currentSize}, each asked of the cloud first;
   * returns the nodes created. The machines the cloud refuses are not created: as upstream's
   * {@code handleInstanceCreationErrorsForNodeGroup}, each error code's refusals become one {@link ScaleUpFailure} in
   * {@code failures} and back the pool off with that code and the refusals' distinct messages. The status events are
   * upstream's executor's before and after the increase, then one per error code.
   */
  private List<String> launch(NodePool pool, int currentSize, int count, Instant now, List<ScaleUpFailure> failures) {
    String poolName = pool.metadata().name();
    PoolScaleUp increase = statusEvents.enabled() && count > 0
        ? new PoolScaleUp(poolName, currentSize, currentSize + count, pool.spec().maxSize()) : null;
    if (increase != null) {
      statusEvents.scalingUp(increase);
    }
    List<String> names = new ArrayList<>();
    // upstream's buildInstanceToErrorCodeMappings: the refused nodes and their distinct messages by class and code
    Map<InstanceErrorInfo, List<String>> refused = new LinkedHashMap<>(); // keyed by the error without its message
    Map<InstanceErrorInfo, Set<String>> messages = new HashMap<>();
    for (int i = 0; i < count; i++) {
      String name;
      do {
        int k = nameCounters.merge(poolName, 1, Integer::sum);
        name = poolName + "-" + k;
      } while (store.get(Node.class, "", name).isPresent());
      Node node = SimulatedNodes.launched(templateNode(pool, name), now, pool.spec().startupDelay());
      InstanceErrorInfo error = instanceCreation.create(node, now);
      if (error != null) {
        InstanceErrorInfo code = new InstanceErrorInfo(error.errorClass(), error.errorCode(), "");
        refused.computeIfAbsent(code, k -> new ArrayList<>()).add(name);
        messages.computeIfAbsent(code, k -> new java.util.LinkedHashSet<>()).add(error.errorMessage());
        continue;
      }
      store.create(node);
      names.add(name);
    }
    if (increase != null) {
      statusEvents.scaledUp(increase);
    }
    for (Map.Entry<InstanceErrorInfo, List<String>> e : refused.entrySet()) {
      InstanceErrorInfo error = new InstanceErrorInfo(e.getKey().errorClass(), e.getKey().errorCode(),
          errorMessages(messages.get(e.getKey())));
      ScaleUpFailure failure = new ScaleUpFailure(poolName, e.getValue(), error);
      failures.add(failure);
      statusEvents.scaleUpFailed(failure);
      backoffs.backoff(poolName, error, now);
      LOG.debug("scale-up: pool {} refused {} node(s) {} ({}); pool backed off", poolName, e.getValue().size(),
          e.getValue(), error);
    }
    LOG.debug("scale-up: pool {} +{} nodes {}", poolName, names.size(), names);
    return names;
  }

  /**
   * Upstream's {@code buildErrorMessageEventString}: the distinct messages joined by {@code ", "}, followed by
   * {@code ", ..."} when there are more than three (upstream writes them all, then the ellipsis).
   */
  static String errorMessages(java.util.Collection<String> messages) {
    String joined = String.join(", ", messages);
    return messages.size() > 3 ? joined + ", ..." : joined;
  }

  // ---- scale-down ----

  /**
   * Scale-down's step of a loop: the planner's update (in every loop, in cooldown too), then, when {@code actuate},
   * the nodes it picks are handed to the actuator, whose deletions go as far as they can in this loop.
   */
  private void scaleDown(Instant now, Map<String, NodePool> pools, List<Node> nodes,
      List<String> unneeded, Map<String, String> unremovable, List<String> started, boolean actuate) {
    nodeFacts.update(nodes);
    unneeded.addAll(planner.update(now, pools, nodeFacts.ready(), clusterPods, poolConfig,
        scaleUp.snapshot(), unremovable));
    if (!actuate) {
      return;
    }
    ScaleDownPlanner.NodesToDelete chosen = planner.nodesToDelete(now, pools, nodes, pool -> poolSize(nodes, pool),
        unremovable);
    if (chosen.isEmpty()) {
      return;
    }
    Set<String> emptyNodes = new HashSet<>();
    for (Node n : chosen.empty()) {
      emptyNodes.add(n.name());
    }
    ScaleDownStatus st = actuator.startDeletion(chosen.empty(), chosen.drain(), now);
    if (st.result() == ScaleDownStatus.Result.ERROR) {
      lastScaleDownFail = now;
      LOG.debug("scale-down: starting deletions failed: {}", st.error());
    }
    if (st.result() == ScaleDownStatus.Result.NODE_DELETE_STARTED) {
      lastScaleDownDelete = now;
    }
    for (ScaleDownStatus.ScaleDownNode sd : st.scaledDownNodes()) {
      started.add(sd.node());
      planner.deletionStarted(sd.node());
      if (sd.evictedPods().isEmpty() && emptyNodes.contains(sd.node())) {
        startedEmpty.add(sd.node());
      }
    }
    // the deletions go as far as they can in this loop: evictions the budgets allow at once, and nodes whose pods
    // are gone deleted (with a zero batcher interval)
    actuator.advance(now);
  }


  // ---- helpers ----

  /**
   * The node named {@code name} in {@code nodes} (names unique, as in a store's list), or {@code null}: found by a
   * binary search when the list is in name order (the store's listing order), else by a scan.
   */
  static @Nullable Node named(List<Node> nodes, String name) {
    int lo = 0;
    int hi = nodes.size() - 1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      Node m = nodes.get(mid);
      int c = m.name().compareTo(name);
      if (c < 0) {
        lo = mid + 1;
      } else if (c > 0) {
        hi = mid - 1;
      } else {
        return m;
      }
    }
    for (Node n : nodes) {
      if (n.name().equals(name)) {
        return n;
      }
    }
    return null;
  }

  /** The nodes of {@code nodes} in {@code pool} and not being deleted. */
  private int poolSize(List<Node> nodes, String pool) {
    nodeFacts.update(nodes);
    return nodeFacts.poolSize(pool);
  }

  private void updatePoolStatuses(Map<String, NodePool> pools, Instant now, boolean changed) {
    List<Node> nodes = store.list(Node.class).items();
    for (NodePool p : pools.values()) {
      int size = poolSize(nodes, p.metadata().name());
      if (size != p.status().currentSize()) {
        try {
          store.updateStatus(p.withStatus(new NodePoolStatus(size, changed ? now : p.status().lastScaleTime())));
        } catch (RuntimeException e) {
          LOG.debug("pool {} status not updated: {}", p.metadata().name(), e.toString());
        }
      }
    }
  }

  private <T extends io.fleetkit.api.meta.ApiObject<T>> void deleteQuietly(Class<T> kind, String ns, String name) {
    try {
      store.delete(kind, ns, name);
    } catch (NotFoundException gone) {
      LOG.debug("{} {}/{} already gone", kind.getSimpleName(), ns, name);
    }
  }

  /** Builder; defaults: kube's default profile and plugins, least-waste, seed 0, upstream's options. */
  public static final class Builder {
    private final ObjectStore store;
    private Clock clock = Clock.systemUTC();
    private SchedulerProfile profile = DefaultPlugins.profile();
    private PluginRegistry registry = PluginRegistry.defaults();
    private Expander expander = Expanders.leastWaste();
    private long seed;
    private AutoscalerOptions options = AutoscalerOptions.defaults();
    private MetricsRegistry metrics = MetricsRegistry.NOOP;
    private boolean recompute;
    private boolean watchPods;
    private java.util.function.@Nullable Predicate<Node> eligibility;
    private @Nullable ActuationStatus actuationStatus;
    private ScaleDownEvictor.@Nullable Timing evictionTiming;
    private EventRecorder events = EventRecorder.NOOP;
    private boolean sortCandidates = true;
    private java.util.function.@Nullable Consumer<String> afterNodeSimulation;
    private InstanceCreation instanceCreation = InstanceCreation.ALWAYS;

    private Builder(ObjectStore store) {
      this.store = Objects.requireNonNull(store, "store");
    }

    public Builder clock(Clock v) { clock = Objects.requireNonNull(v, "clock"); return this; }
    /** The scheduler profile whose filters the simulation runs (should match the cluster's scheduler). */
    public Builder profile(SchedulerProfile v) { profile = Objects.requireNonNull(v, "profile"); return this; }
    public Builder registry(PluginRegistry v) { registry = Objects.requireNonNull(v, "registry"); return this; }
    public Builder expander(Expander v) { expander = Objects.requireNonNull(v, "expander"); return this; }
    /** Seeds the random tie-break between equally good options. */
    public Builder seed(long v) { seed = v; return this; }
    public Builder options(AutoscalerOptions v) { options = Objects.requireNonNull(v, "options"); return this; }
    /**
     * The cloud every launched node is asked of (a machine it refuses is not created and backs its pool off); default
     * {@link InstanceCreation#ALWAYS}.
     */
    public Builder instanceCreation(InstanceCreation v) {
      instanceCreation = Objects.requireNonNull(v, "instanceCreation");
      return this;
    }

    /** Records {@link ClusterAutoscalerMetrics} after every loop; default {@link MetricsRegistry#NOOP}. */
    public Builder metrics(MetricsRegistry v) { metrics = Objects.requireNonNull(v, "metrics"); return this; }

    /**
     * Records upstream's events: on the pending pods {@code TriggeredScaleUp} and {@code NotTriggerScaleUp}
     * ({@link ScaleUpEvents}), on the nodes deleted and the pods evicted {@code ScaleDown} and {@code ScaleDownFailed},
     * and, unless {@link AutoscalerOptions#writeStatusConfigMap()} is off, upstream's events on its status ConfigMap
     * ({@link StatusEvents}: {@code ScaledUpGroup}, {@code ScaleUpFailed}, {@code ScaleUpTimedOut},
     * {@code MaxNodesTotalReached}, {@code ClusterUnhealthy}, {@code ScaleDownEmpty}, {@code ScaleDown});
     * docs/observability.md lists them. The recorder is made best effort ({@link EventRecorder#bestEffort}): what it
     * throws is logged at DEBUG and never aborts a loop. Default {@link EventRecorder#NOOP}, which builds no event and
     * explains nothing.
     */
    public Builder events(EventRecorder v) { events = Objects.requireNonNull(v, "events"); return this; }

    /**
     * Keeps the pods from a watch on the store (listed once, then changed by the watch's events) instead of listing
     * every pod in every loop, so that a loop costs the pods changed since the last one. The decisions are those of
     * the listing autoscaler when the store delivers its events before a write returns
     * ({@code ObjectStoreBuilder.directDelivery()}, as the simulator's store); with asynchronous delivery the pods lag
     * the store as an informer's do (upstream's autoscaler reads informer caches). {@link ClusterAutoscaler#close}
     * ends the watch.
     */
    public Builder watchPods() { watchPods = true; return this; }

    /**
     * Makes every loop start from the store alone, reusing no pod grouping, node view or evaluation of an earlier
     * loop, and decide each simulated node's drain from its view as the simulation holds it (no drain extended by the
     * pods moved onto the node); the loops' decisions are the same (for tests that check the reuse against
     * recomputing).
     */
    Builder recomputeEveryLoop() { recompute = true; return this; }

    /**
     * Decides scale-down eligibility by {@code eligible} instead of the annotation and the utilization threshold
     * (the seam of upstream's planner tests, {@code fakeEligibilityChecker}); ineligible nodes are reported as
     * {@link #NOT_UNDERUTILIZED}.
     */
    Builder eligibility(java.util.function.Predicate<Node> eligible) {
      eligibility = Objects.requireNonNull(eligible, "eligible");
      return this;
    }

    /**
     * The actuation status the planner reads in every loop instead of the actuator's (the seam of upstream's planner
     * tests, {@code fakeActuationStatus}).
     */
    Builder actuationStatus(ActuationStatus v) {
      actuationStatus = Objects.requireNonNull(v, "actuationStatus");
      return this;
    }

    /**
     * Simulates the eligible candidates in name order instead of upstream's default candidate sorting (empty nodes
     * first, then those unneeded in the last loop): upstream's planner evaluates the candidates in the order given,
     * and its planner tests give them unsorted; the sorting is a processor in front of it.
     */
    Builder candidatesInNameOrder() {
      sortCandidates = false;
      return this;
    }

    /**
     * Calls {@code hook} with each node's name after its removal was simulated (tests: a hook that advances the
     * clock stands for upstream's slow {@code fakeRemovalSimulator}).
     */
    Builder afterNodeSimulation(java.util.function.Consumer<String> hook) {
      afterNodeSimulation = Objects.requireNonNull(hook, "hook");
      return this;
    }

    /**
     * The drain's timing instead of upstream's (tests: a zero retry time and headroom, as upstream's actuator tests
     * build their {@code ScaleDownEvictor}).
     */
    Builder evictionTiming(ScaleDownEvictor.Timing v) {
      evictionTiming = Objects.requireNonNull(v, "evictionTiming");
      return this;
    }

    public ClusterAutoscaler build() {
      return new ClusterAutoscaler(this);
    }
  }
}
