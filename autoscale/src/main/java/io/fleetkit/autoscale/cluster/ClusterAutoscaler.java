package io.fleetkit.autoscale.cluster;

import io.fleetkit.api.apps.DaemonSet;
import io.fleetkit.api.autoscaling.NodePool;
import io.fleetkit.api.autoscaling.NodePoolAutoscalingOptions;
import io.fleetkit.api.autoscaling.NodePoolStatus;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.policy.PodDisruptionBudget;
import io.fleetkit.api.scheduling.Taint;
import io.fleetkit.api.scheduling.TaintEffect;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.PodInfos;
import io.fleetkit.api.framework.SchedulerProfile;
import io.fleetkit.api.NotFoundException;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.metrics.MetricsRegistry;
import io.fleetkit.autoscale.cluster.simulator.SchedulingHints;
import io.fleetkit.autoscale.cluster.simulator.SimulatedCluster;
import io.fleetkit.autoscale.cluster.simulator.SimulatedNodes;
import io.fleetkit.reconcile.Lister;
import io.fleetkit.reconcile.controllers.DaemonSetPlacement;
import io.fleetkit.scheduler.DefaultPlugins;
import io.fleetkit.scheduler.PluginRegistry;
import java.time.Clock;
import io.fleetkit.api.time.GoDurations;
import java.time.Duration;
import java.time.Instant;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.resource.dra.DeviceClass;
import io.fleetkit.api.resource.dra.ResourceClaim;
import io.fleetkit.api.resource.dra.ResourceSlice;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
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
 *       last loop, then the rest by name), until the unneeded ones reach {@link #unneededNodesLimit}: a node is
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
 *       the nodes {@value #TO_BE_DELETED_TAINT}, drains them ({@link Evictor}: evictions through the eviction
 *       subresource, so PodDisruptionBudgets hold; retried up to {@code maxPodEvictionTime}; the evicted pods waited
 *       for up to {@code maxGracefulTerminationSec} plus 30 s) and deletes them ({@link NodeDeletionBatcher}); a drain
 *       goes on in the next loops on the autoscaler's clock, and a failed one untaints its node
 *       ({@link LoopResult#failedDeletions()}). Pools with
 *       {@code zeroOrMaxNodeScaling} lose all their nodes together or none, and their nodes do not count toward the
 *       limit. The simulations stop after {@code scaleDownSimulationTimeout} on the autoscaler's clock; before them,
 *       the pods of the {@link ActuationStatus} (nodes being deleted, recent evictions not yet recreated) are placed.
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
  private final Expander expander;
  private final Random random;
  private final AutoscalerOptions options;
  /** Metrics; null when no registry was given. */
  private final @Nullable AutoscalerInstruments metrics;

  private Map<String, Instant> unneededSince = new HashMap<>();
  /** The nodes a simulation found unremovable, not simulated again until their recheck time. */
  private final UnremovableNodes unremovableNodes = new UnremovableNodes();
  /** When scale-down last evaluated, and the shortest interval between two evaluations seen (upstream's planner). */
  private @Nullable Instant lastPlannerUpdate;
  private Duration minUpdateInterval;
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
  /** The scale-down snapshot's node views, reused for nodes unchanged since the last loop. */
  private SimulatedCluster.ViewCache scaleDownViews = new SimulatedCluster.ViewCache();
  /** Whether every loop starts from nothing (no state reused from the last loop): the reference for tests. */
  private final boolean recompute;
  /** Replaces the annotation and utilization checks of scale-down eligibility when set (tests). */
  private final java.util.function.@Nullable Predicate<Node> eligibility;
  /** What actuation is doing as a test sets it (the planner then reads it instead of the actuator's), or null. */
  private final @Nullable ActuationStatus actuationStatus;
  /** Drains and deletes the nodes scale-down removes, across loops on the autoscaler's clock. */
  private final ScaleDownActuator actuator;
  /** The nodes whose deletion started as empty ones and has not ended yet (for the metrics). */
  private final Set<String> startedEmpty = new HashSet<>();
  /** When a loop last started deletions, and last failed to (upstream's lastScaleDownDeleteTime/FailTime). */
  private @Nullable Instant lastScaleDownDelete;
  private @Nullable Instant lastScaleDownFail;
  /**
   * Whether the eligible candidates are simulated in upstream's default candidate order (empty first, then those
   * unneeded last loop) rather than in name order (upstream's planner tests, which pass no sorting processor).
   */
  private final boolean sortCandidates;
  /** Called after each node removal simulated (tests: upstream's slow fakeRemovalSimulator), or null. */
  private final java.util.function.@Nullable Consumer<String> afterNodeSimulation;
  /**
   * The scale-down simulation kept from one evaluation to the next: rolled back to its loaded state and
   * {@linkplain SimulatedCluster#reload reloaded} with what changed, instead of loading every node again; or
   * {@code null}. It was loaded from {@link #scaleDownSimPods} with the budgets and priority classes
   * {@link #scaleDownSimObjects}.
   */
  private @Nullable SimulatedCluster scaleDownSim;
  private @Nullable ClusterPods scaleDownSimPods;
  private List<List<?>> scaleDownSimObjects = List.of();
  /** The utilization and drain of the node views of {@link #scaleDownSim}, by slot. */
  private SlotFacts slotFacts = new SlotFacts(0);
  /**
   * Whether the nodes of {@link #scaleDownSim} were loaded in name order: then its slots stay in name order through
   * reloads (which keep the loaded order and add no node), and so do the candidates.
   */
  private boolean scaleDownSimByName;
  /** The pools, starting and ready nodes of the last node list read, kept from list to list by node object. */
  private NodeListFacts nodeFacts = new NodeListFacts();
  private @Nullable Instant lastScaleUp;
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
  /** Scale-up's filter of the pods that fit, with its own hints (upstream's filterOutSchedulable processor). */
  private final SchedulablePodsFilter schedulable = new SchedulablePodsFilter();
  /**
   * The round-robin position of the searches for a node, kept across loops: scale-up's filter, the placing of pods
   * from ongoing deletions and the drain simulations all go on from it, as upstream's share its snapshot's plugin
   * runner.
   */
  private final SearchPosition searchPosition = new SearchPosition();
  /**
   * The pending pods the last {@link #plan} left on existing nodes, by node, each node's in the order they went there:
   * those nominated to the node (upstream's {@code SetClusterState} puts a pod waiting for preemption on its
   * {@code status.nominatedNodeName}), then those scale-up's filter placed. Upstream's scale-down planner runs on the
   * snapshot the filter placed them in, so they are on those nodes in the drain simulations and in the utilization.
   */
  private Map<String, List<PodInfo>> snapshotPods = Map.of();
  /** The scheduler's view of each pending pod in {@link #snapshotPods}, kept while the pod is the same object. */
  private Map<Pod, PodInfo> pendingInfos = new java.util.IdentityHashMap<>();
  /** The {@link #snapshotPods} {@link #scaleDownSim} was loaded or reloaded with. */
  private Map<String, List<PodInfo>> scaleDownSimExtra = Map.of();
  /**
   * The pods waiting for preemption the last {@link #plan} held on their nominated node, by node (those in
   * {@link #snapshotPods} before the filter's): on a node being deleted they are among the pods the planner places
   * elsewhere ({@link #podsToInject}).
   */
  private Map<String, List<Pod>> nominatedPods = Map.of();
  /**
   * The ResourceClaims of the pending pods the last {@link #plan}'s filter placed, as its placements left them
   * (allocated and reserved for those pods: upstream's {@code TrySchedulePods} allocates them in the loop's DRA
   * snapshot, which scale-down forks); an object equal to the last loop's is that object.
   */
  private List<ResourceClaim> placedClaims = List.of();
  /** Where the last {@link #plan}'s filter placed the pending pods with ResourceClaims, in placement order. */
  private List<PlacedPod> placedClaimPods = List.of();

  /** A pending pod the filter placed on a node, for the claims it holds there. */
  private record PlacedPod(String node, Pod pod) {}
  /** The unneeded nodes of the last evaluation: simulated first in the next one, and counted by its limit. */
  private List<String> lastUnneeded = List.of();

  /**
   * What a scale-down evaluation reads: the ready nodes, the bound pods ({@link ClusterPods#boundVersion}: the pods
   * on every node are the same objects while it is the same), the pending pods the loop left on nodes
   * ({@link #snapshotPods}) and the claims of those the filter placed ({@link #placedClaims}), the budgets, priority
   * classes and pool names.
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

  private ClusterAutoscaler(Builder b) {
    this.store = b.store;
    this.clock = b.clock;
    this.profile = b.profile;
    this.registry = b.registry;
    this.expander = b.expander;
    this.random = new Random(b.seed);
    this.options = b.options;
    this.backoffs = new NodeGroupBackoff(b.options.initialBackoff(), b.options.maxBackoff(), b.options.backoffReset());
    this.instanceCreation = b.instanceCreation;
    this.poolConfig = NodeGroupConfig.of(b.options, List.of());
    this.metrics = b.metrics.enabled() ? new AutoscalerInstruments(b.metrics, b.options) : null;
    this.recompute = b.recompute;
    this.eligibility = b.eligibility;
    this.actuationStatus = b.actuationStatus;
    this.actuator = new ScaleDownActuator(b.store, b.options,
        b.evictionTiming != null ? b.evictionTiming : Evictor.Timing.of(b.options), n -> clusterPods.on(n));
    this.sortCandidates = b.sortCandidates;
    this.afterNodeSimulation = b.afterNodeSimulation;
    this.watchedPods = b.watchPods ? new WatchedClusterPods(b.store) : null;
    Duration u = b.options.scaleDownUnneededTime();
    this.minUpdateInterval = u.isZero() ? Duration.ofNanos(1) : u;
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
      scaleDownViews = new SimulatedCluster.ViewCache();
      scaleDownSim = null;
      lastEvaluation = null;
    }
    Instant now = clock.instant();
    // the deletions started by earlier loops go on first (upstream: goroutines running between loops)
    if (actuator.busy() || actuator.batched() > 0) {
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
            left = scaleUpLimits(pools, nodes);
          }
          Map<String, Long> delta = ClusterResourceLimits.deltaForPool(pool, options);
          if (!left.exceeded(delta).isEmpty()) {
            continue;
          }
          launched.addAll(launch(pool, left.applyLimits(pool.spec().minSize() - size, delta), now, failures));
        }
      }
      if (!launched.isEmpty()) {
        nodes = store.list(Node.class).items();
      }
    }
    long scaleUpStart = metrics == null ? 0 : System.nanoTime();
    ScaleUpPlan plan = plan(now, pools, nodes);
    boolean scaledUp = !launched.isEmpty();
    for (PoolScaleUp s : plan.scaleUps()) {
      launched.addAll(launch(Objects.requireNonNull(pools.get(s.pool()), s.pool()), s.delta(), now, failures));
      scaledUp = true;
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
   * Upstream's {@code updateSoftDeletionTaints}, run after every scale-down step (in cooldown too): the soft taint on
   * the pool nodes found unneeded, off the other pool nodes ({@link SoftTaints}).
   *
   * @return whether it ran ({@code maxBulkSoftTaintCount} is not 0)
   */
  private boolean updateSoftTaints(Map<String, NodePool> pools, List<String> unneeded) {
    if (options.maxBulkSoftTaintCount() == 0) {
      return false;
    }
    Set<String> unneededNames = new HashSet<>(unneeded);
    List<Node> taintable = new ArrayList<>();
    List<Node> untaintable = new ArrayList<>();
    for (Node n : store.list(Node.class).items()) {
      String pool = n.metadata().labels().get(NodePool.POOL_LABEL);
      if (pool == null || !pools.containsKey(pool)) {
        continue; // only nodes of the node groups the autoscaler manages
      }
      (unneededNames.contains(n.name()) ? taintable : untaintable).add(n);
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
    unneededSince = new HashMap<>();
    lastUnneeded = List.of();
    lastEvaluation = null;
    String reason = CLUSTER_UNHEALTHY + ": " + unreadyNodes + " of " + nodes.size() + " nodes unready (more than "
        + options.okTotalUnreadyCount() + " and more than " + options.maxTotalUnreadyPercentage() + "%)";
    LOG.debug("cluster is not ready for autoscaling: {}", reason);
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
    lastUnneeded = List.copyOf(previouslyUnneeded);
    Instant now = clock.instant();
    unneededSince = new HashMap<>();
    for (String n : previouslyUnneeded) {
      unneededSince.put(n, now);
    }
    minUpdateInterval = updateInterval;
    lastEvaluation = null;
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
    return plan(clock.instant(), pools, store.list(Node.class).items());
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
      lastEvaluation = null;
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
        LOG.debug("node {} of pool {} not ready after {}; pool backed off", n.name(), pool,
            poolConfig.maxNodeProvisionTime(pool));
      }
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

  /** The scale-up plan for {@code nodes} and the pods of {@link #clusterPods}. */
  private ScaleUpPlan plan(Instant now, Map<String, NodePool> pools, List<Node> nodes) {
    List<Pod> pending = new ArrayList<>();
    // upstream's ArrangePodsBySchedulability: a pod waiting for preemption (status.nominatedNodeName) is neither
    // pending for scale-up nor searched for: the snapshot holds it on its nominated node
    Map<String, List<Pod>> placed = new TreeMap<>();
    for (Pod p : clusterPods.unbound()) {
      if (p.metadata().deletionTimestamp() != null || !p.spec().schedulerName().equals(profile.schedulerName())) {
        continue;
      }
      if (!p.status().nominatedNodeName().isEmpty()) {
        placed.computeIfAbsent(p.status().nominatedNodeName(), k -> new ArrayList<>()).add(p);
      } else if (oldEnough(p, now)) {
        pending.add(p);
      }
    }
    nominatedPods = copyOf(placed);
    if (pending.isEmpty()) {
      schedulable.noCandidates();
      keepSnapshotPods(placed);
      keepPlacedClaims(null, Map.of());
      return ScaleUpPlan.none(List.of(), List.of(), Map.of()); // upstream: "No unschedulable pods"
    }
    SimulatedCluster sim = newSimulation();
    sim.load(nodes, clusterPods::infosOn, null);
    for (Map.Entry<String, List<Pod>> e : placed.entrySet()) {
      if (sim.hasNode(e.getKey())) { // upstream's SetClusterState passes over a pod nominated to a node not there
        for (Pod p : e.getValue()) {
          sim.addPod(e.getKey(), PodInfos.of(p));
        }
      }
    }
    addUnpublishedSlices(sim, pools, nodes);
    List<DaemonSet> daemonSets = store.list(DaemonSet.class).items();
    Set<DaemonPodSlot> upcomingDaemonPods = addUpcomingDaemonPods(sim, pools, nodes, daemonSets);
    if (!upcomingDaemonPods.isEmpty()) {
      // its template copy already holds its place on the upcoming node
      pending.removeIf(p -> isUpcomingDaemonPod(p, upcomingDaemonPods));
    }
    // Filter out the pods that fit on existing or upcoming nodes (upstream filterOutSchedulable)
    int[] cursor = searchPosition.cursorIn(sim);
    Map<String, List<Pod>> filtered = new HashMap<>();
    List<Pod> unschedulable = schedulable.unschedulable(sim, pending, cursor, filtered);
    searchPosition.keep(sim);
    filtered.forEach((node, pods) -> placed.computeIfAbsent(node, k -> new ArrayList<>()).addAll(pods));
    keepSnapshotPods(placed);
    keepPlacedClaims(sim, filtered);
    // a daemon pod that fits no node waits for its own node: a new node cannot help it (upstream's
    // filterOutDaemonSetPodListProcessor, which runs after filterOutSchedulable)
    unschedulable = TemplateNodes.withoutDaemonSetPods(unschedulable);
    List<String> keys = unschedulable.stream().map(p -> p.metadata().key()).toList();
    Map<String, String> skipped = new LinkedHashMap<>();
    List<ScaleUpOption> opts = new ArrayList<>();
    if (unschedulable.isEmpty()) {
      return ScaleUpPlan.none(keys, opts, skipped);
    }
    int total = nodes.size();
    BinpackingEstimator.PodGroups groups = BinpackingEstimator.PodGroups.of(unschedulable);
    // upstream's IsNodeGroupReadyToScaleUp: an unhealthy group is skipped first, then a backed-off one
    nodeFacts.update(nodes);
    Map<String, NodeGroupHealth.PoolHealth> health = nodeFacts.poolHealth(pools.keySet(), now, options,
        poolConfig);
    ClusterResourceLimits left = scaleUpLimits(pools, nodes);
    List<NodePool> valid = new ArrayList<>();
    Map<String, Integer> sizes = new HashMap<>();
    for (NodePool pool : pools.values()) {
      String name = pool.metadata().name();
      NodeGroupHealth.PoolHealth h = health.get(name);
      if (!h.healthy()) {
        skipped.put(name, h.reason());
        continue;
      }
      if (backoffs.status(name, now) != null) {
        skipped.put(name, BACKOFF_REASON + ": until " + Objects.requireNonNull(backoffs.entry(name)).until());
        continue;
      }
      int size = poolSize(nodes, name);
      int room = pool.spec().maxSize() - size;
      if (options.maxNodesTotal() > 0) {
        room = Math.min(room, options.maxNodesTotal() - total);
      }
      if (room <= 0) {
        skipped.put(name, MAX_LIMIT_REACHED_REASON + ": " + pool.spec().maxSize());
        continue;
      }
      boolean atomic = pool.spec().zeroOrMaxNodeScaling();
      if (atomic && size > 0) {
        // upstream's ZeroOrMaxNodeScaling: an atomic group goes from zero to its max size in one step, never between
        skipped.put(name, "atomic pool already has " + size + " node(s)");
        continue;
      }
      if (atomic && room < pool.spec().maxSize()) {
        skipped.put(name, "atomic pool needs " + pool.spec().maxSize() + " nodes, only " + room + " allowed");
        continue;
      }
      // upstream's IsNodeGroupResourceExceeded: one node (all an atomic pool adds) must stay within the cluster-wide
      // maxima
      if (!left.isEmpty()) {
        Map<String, Long> one = ClusterResourceLimits.deltaForPool(pool, options);
        List<String> exceeded = left.exceeded(ClusterResourceLimits.times(one, atomic ? pool.spec().maxSize() - size
            : 1));
        if (!exceeded.isEmpty()) {
          skipped.put(name, ClusterResourceLimits.maxLimitReachedReason(exceeded));
          continue;
        }
      }
      valid.add(pool);
      sizes.put(name, size);
    }
    Map<String, List<NodePool>> similar = options.balanceSimilarNodeGroups() && valid.size() > 1
        ? similarPools(sim, groups, valid, daemonSets) : Map.of();
    for (NodePool pool : valid) {
      String name = pool.metadata().name();
      boolean atomic = pool.spec().zeroOrMaxNodeScaling();
      List<NodePool> alike = similar.getOrDefault(name, List.of());
      // upstream's SngCapacityThreshold: the estimate may fill the pool and its similar pools
      int room = pool.spec().maxSize() - sizes.get(name);
      for (NodePool p : alike) {
        room += Math.max(0, p.spec().maxSize() - sizes.get(p.metadata().name()));
      }
      if (options.maxNodesTotal() > 0) {
        room = Math.min(room, options.maxNodesTotal() - total);
      }
      // every template node comes with the pods of the DaemonSets that should run on it (upstream's
      // SanitizedTemplateNodeInfoFromNodeGroup): what they request is not there for the pending pods
      // and with the DRA devices of the pool's device templates (upstream's template NodeInfo LocalResourceSlices)
      BinpackingEstimator.Estimate e = BinpackingEstimator.estimate(sim, groups,
          i -> templateNode(pool, "template-" + name + "-" + i), n -> TemplateNodes.forPoolTemplate(n, daemonSets),
          n -> TemplateNodes.resourceSlicesFor(pool, n), room, searchPosition);
      if (e.nodeCount() == 0) {
        skipped.put(name, "no pending pod fits its template");
        continue;
      }
      // an atomic pool is scaled to its max size at once (upstream's ComputeExpansionOption sets NodeCount to MaxSize)
      opts.add(new ScaleUpOption(pool, atomic ? pool.spec().maxSize() : e.nodeCount(), e.pods(), alike));
    }
    ScaleUpOption chosen = null;
    if (!opts.isEmpty()) {
      List<ScaleUpOption> best = expander.bestOptions(opts);
      if (best.isEmpty()) {
        best = opts;
      }
      chosen = best.size() == 1 ? best.get(0) : best.get(random.nextInt(best.size()));
    }
    if (chosen == null) {
      return ScaleUpPlan.none(keys, opts, skipped);
    }
    // upstream's orchestrator: the estimate capped by the cluster-wide maxima (ApplyLimits), then split over the
    // chosen pool and its similar pools (BalanceScaleUpBetweenGroups; without balancing, the chosen pool alone)
    int newNodes = left.isEmpty() ? chosen.nodeCount()
        : left.applyLimits(chosen.nodeCount(), ClusterResourceLimits.deltaForPool(chosen.pool(), options));
    List<ScaleUpBalancing.Group> targets = new ArrayList<>();
    targets.add(new ScaleUpBalancing.Group(chosen.poolName(), sizes.get(chosen.poolName()),
        chosen.pool().spec().maxSize()));
    for (NodePool p : chosen.similarPools()) {
      targets.add(new ScaleUpBalancing.Group(p.metadata().name(), sizes.get(p.metadata().name()),
          p.spec().maxSize()));
    }
    return new ScaleUpPlan(keys, opts, chosen, skipped, ScaleUpBalancing.balance(targets, newNodes));
  }

  /**
   * Upstream's {@code ComputeSimilarNodeGroups} for every pool of {@code valid} (the pools scale-up considers): the
   * other pools of {@code valid} whose template nodes, with their DaemonSet pods, are similar
   * ({@link NodeGroupSimilarity}) and that can take every pending pod group the pool can (each group's first pod
   * passes the filters on an empty template node, upstream's {@code SchedulablePodGroups}), in name order. An atomic
   * pool ({@code zeroOrMaxNodeScaling}) is balanced with none, and none is balanced with it (its nodes come all at
   * once).
   */
  private Map<String, List<NodePool>> similarPools(SimulatedCluster sim, BinpackingEstimator.PodGroups groups,
      List<NodePool> valid, List<DaemonSet> daemonSets) {
    List<ScaleUpBalancing.Candidate> candidates = new ArrayList<>();
    for (NodePool pool : valid) {
      if (pool.spec().zeroOrMaxNodeScaling()) {
        continue;
      }
      String name = pool.metadata().name();
      Node template = templateNode(pool, "template-" + name + "-similarity");
      List<Pod> daemons = TemplateNodes.forPoolTemplate(template, daemonSets);
      ResourceList requested = ResourceList.EMPTY;
      for (Pod d : daemons) {
        requested = requested.add(d.effectiveRequests());
      }
      boolean[] schedulable = BinpackingEstimator.schedulableGroups(sim, groups, template, n -> daemons,
          n -> TemplateNodes.resourceSlicesFor(pool, n));
      candidates.add(new ScaleUpBalancing.Candidate(pool, template, requested, schedulable));
    }
    return ScaleUpBalancing.similarPools(candidates, NodeGroupSimilarity.of(options));
  }

  /** Upstream's scale-up {@code ResourcesLeft} for {@code nodes} and {@code pools} ({@link ClusterResourceLimits}). */
  private ClusterResourceLimits scaleUpLimits(Map<String, NodePool> pools, List<Node> nodes) {
    return ClusterResourceLimits.scaleUpLeft(pools, pool -> poolSize(nodes, pool), nodes, options);
  }

  /**
   * Sets {@link #placedClaims} and {@link #placedClaimPods} from the pods with ResourceClaims among those the filter
   * placed in {@code sim} ({@code filtered}, by node), keeping the last loop's objects where equal.
   */
  private void keepPlacedClaims(@Nullable SimulatedCluster sim, Map<String, List<Pod>> filtered) {
    List<PlacedPod> pods = null;
    Map<String, ResourceClaim> claims = null;
    if (sim != null && anyWithClaims(filtered)) {
      for (Map.Entry<String, List<Pod>> e : new TreeMap<>(filtered).entrySet()) {
        for (Pod p : e.getValue()) {
          if (p.spec().resourceClaims().isEmpty()) {
            continue;
          }
          if (pods == null) {
            pods = new ArrayList<>();
            claims = new LinkedHashMap<>();
          }
          pods.add(new PlacedPod(e.getKey(), p));
          for (ResourceClaim c : sim.claimsOf(p)) {
            claims.put(c.metadata().key(), c);
          }
        }
      }
    }
    if (pods == null) {
      placedClaims = List.of();
      placedClaimPods = List.of();
      return;
    }
    if (!pods.equals(placedClaimPods)) {
      placedClaimPods = List.copyOf(pods);
    }
    Map<String, ResourceClaim> last = new HashMap<>();
    for (ResourceClaim c : placedClaims) {
      last.put(c.metadata().key(), c);
    }
    List<ResourceClaim> out = new ArrayList<>(claims.size());
    for (ResourceClaim c : claims.values()) {
      ResourceClaim before = last.get(c.metadata().key());
      out.add(c.equals(before) ? before : c);
    }
    placedClaims = List.copyOf(out);
  }

  private static boolean anyWithClaims(Map<String, List<Pod>> pods) {
    for (List<Pod> l : pods.values()) {
      for (Pod p : l) {
        if (!p.spec().resourceClaims().isEmpty()) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * The store's {@code claims} with those of {@link #placedClaims} in their place (as the filter's placements left
   * them), the list itself when there are none.
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

  /** {@code pods} with each list copied. */
  private static Map<String, List<Pod>> copyOf(Map<String, List<Pod>> pods) {
    if (pods.isEmpty()) {
      return Map.of();
    }
    Map<String, List<Pod>> out = new HashMap<>();
    pods.forEach((node, l) -> out.put(node, List.copyOf(l)));
    return out;
  }

  /** Sets {@link #snapshotPods} to {@code placed}, each pod as the view it had in the last loop when it is the same. */
  private void keepSnapshotPods(Map<String, List<Pod>> placed) {
    if (placed.isEmpty()) {
      snapshotPods = Map.of();
      pendingInfos.clear();
      return;
    }
    Map<Pod, PodInfo> infos = new java.util.IdentityHashMap<>();
    Map<String, List<PodInfo>> out = new HashMap<>();
    placed.forEach((node, pods) -> {
      List<PodInfo> l = new ArrayList<>(pods.size());
      for (Pod p : pods) {
        PodInfo pi = pendingInfos.get(p);
        if (pi == null) {
          pi = AutoscalerPodInfo.of(p);
        }
        infos.put(p, pi);
        l.add(pi);
      }
      out.put(node, List.copyOf(l));
    });
    pendingInfos = infos;
    snapshotPods = Map.copyOf(out);
  }

  /**
   * Gives every node of a pool with device templates whose drivers have published no ResourceSlice for it yet (a node
   * still starting, or Ready before its drivers run) the slices of its pool's templates, as upstream simulates such a
   * node as a copy of the template node (its DRA custom-resources processor holds a node whose slices are not published
   * back as not ready, so it counts as upcoming): a pending pod whose claims that node will satisfy does not launch
   * another one.
   */
  private static void addUnpublishedSlices(SimulatedCluster sim, Map<String, NodePool> pools, List<Node> nodes) {
    for (Node n : nodes) {
      String poolName = n.metadata().labels().get(NodePool.POOL_LABEL);
      NodePool pool = poolName == null ? null : pools.get(poolName);
      if (pool == null || pool.spec().template().resourceSlices().isEmpty() || !sim.hasNode(n.name())
          || sim.hasNodeSlices(n.name())) {
        continue;
      }
      sim.addNodeSlices(n.name(), TemplateNodes.resourceSlicesFor(pool, n));
    }
  }

  /** A DaemonSet (by uid) and a node: where the template copy of the DaemonSet's pod was put. */
  private record DaemonPodSlot(String daemonSetUid, String node) {}

  /**
   * Puts on every node of a pool still starting (an upcoming node: upstream simulates it as a copy of the pool's
   * template node, DaemonSet pods included) the template pods of the DaemonSets that have no pod bound to it yet. The
   * DaemonSets are matched against the pool's template node of that name, as upstream's copy: not against the starting
   * node, whose not-ready taint the daemon pods do not tolerate.
   *
   * @return where template pods were put
   */
  private Set<DaemonPodSlot> addUpcomingDaemonPods(SimulatedCluster sim, Map<String, NodePool> pools,
      List<Node> nodes, List<DaemonSet> daemonSets) {
    if (daemonSets.isEmpty()) {
      return Set.of();
    }
    nodeFacts.update(nodes);
    Set<DaemonPodSlot> added = new HashSet<>();
    for (Node n : nodeFacts.startingPooled()) {
      NodePool pool = pools.get(n.metadata().labels().get(NodePool.POOL_LABEL));
      if (pool == null || !sim.hasNode(n.name())) {
        continue;
      }
      Set<String> present = new HashSet<>();
      for (Pod p : clusterPods.on(n.name())) {
        OwnerReference c = p.metadata().controllerRef();
        if (c != null && c.kind().equals(DaemonSet.KIND)) {
          present.add(c.uid());
        }
      }
      for (Pod p : TemplateNodes.forPoolTemplate(templateNode(pool, n.name()), daemonSets)) {
        String uid = Objects.requireNonNull(p.metadata().controllerRef()).uid();
        if (present.add(uid)) {
          sim.addPod(n.name(), PodInfos.of(p));
          added.add(new DaemonPodSlot(uid, n.name()));
        }
      }
    }
    return added;
  }

  /** Whether {@code p} is a pending daemon pod for an upcoming node that holds its template copy. */
  private static boolean isUpcomingDaemonPod(Pod p, Set<DaemonPodSlot> upcoming) {
    OwnerReference c = p.metadata().controllerRef();
    if (c == null || !c.kind().equals(DaemonSet.KIND)) {
      return false;
    }
    String node = DaemonSetPlacement.targetNodeName(p);
    return node != null && upcoming.contains(new DaemonPodSlot(c.uid(), node));
  }

  private boolean oldEnough(Pod p, Instant now) {
    Instant created = p.metadata().creationTimestamp();
    return options.newPodScaleUpDelay().isZero() || created == null
        || !now.isBefore(created.plus(options.newPodScaleUpDelay()));
  }

  /** A node of {@code pool} named {@code name}: the template plus the pool and hostname labels. */
  static Node templateNode(NodePool pool, String name) {
    return pool.spec().template().toNode(name, "fleetkit://" + pool.metadata().name() + "/" + name).toBuilder()
        .label(NodePool.POOL_LABEL, pool.metadata().name()).label(SimulatedNodes.HOSTNAME_LABEL, name).build();
  }

  /**
   * Launches {@code count} nodes of {@code pool}, each asked of the cloud first; returns the nodes created. The
   * machines the cloud refuses are not created: as upstream's {@code handleInstanceCreationErrorsForNodeGroup}, each
   * error code's refusals become one {@link ScaleUpFailure} in {@code failures} and back the pool off with that code
   * and the refusals' distinct messages.
   */
  private List<String> launch(NodePool pool, int count, Instant now, List<ScaleUpFailure> failures) {
    String poolName = pool.metadata().name();
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
    for (Map.Entry<InstanceErrorInfo, List<String>> e : refused.entrySet()) {
      InstanceErrorInfo error = new InstanceErrorInfo(e.getKey().errorClass(), e.getKey().errorCode(),
          errorMessages(messages.get(e.getKey())));
      failures.add(new ScaleUpFailure(poolName, e.getValue(), error));
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
          d = drain.drainAfter(before, loaded.pods(), info.pods(), PodInfo::pod, ClusterAutoscaler::rules);
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
      String pool = slotFacts.node(at).metadata().labels().get(NodePool.POOL_LABEL);
      if (pool != null && in.atomicPools().contains(pool)) {
        atomic++;
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
    return drain.drain(info.pods(), PodInfo::pod, ClusterAutoscaler::rules);
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
    Map<Class<?>, List<?>> dra = draObjects();
    List<PlacedPod> claimPods = placedClaimPods;
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
    for (PlacedPod p : claimPods) {
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

  /** A node's bound pods followed by the pending pods the loop left on it ({@link #snapshotPods}). */
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

  private void scaleDown(Instant now, Map<String, NodePool> pools, List<Node> nodes,
      List<String> unneeded, Map<String, String> unremovable, List<String> started, boolean actuate) {
    nodeFacts.update(nodes);
    List<Node> ready = nodeFacts.ready(); // the same list object while the node list is the same
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
      unremovableNodes.update(n -> named(ready, n) != null, now);
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
    ScaleDownInputs inputs = new ScaleDownInputs(ready, clusterPods.boundVersion(), snapshotPods, placedClaims,
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
    unneeded.addAll(eval.unneeded());
    unremovable.putAll(eval.unremovable());
    Set<String> emptyNodes = eval.empty();
    // upstream unneeded.Nodes.Update: a node keeps its time while it stays unneeded, and only then
    Map<String, Instant> kept = new HashMap<>(Math.max(4, unneeded.size() * 4 / 3 + 1));
    for (String n : unneeded) {
      Instant t = unneededSince.get(n);
      kept.put(n, t == null ? now : t);
    }
    unneededSince = kept;
    if (!actuate) {
      return;
    }
    Map<String, Integer> room = new HashMap<>();
    boolean roomInEveryPool = true;
    for (NodePool p : pools.values()) {
      // nodes being deleted still count in the pool's size until they are gone (upstream: target size minus
      // deletions in progress)
      int r = poolSize(nodes, p.metadata().name()) - p.spec().minSize() - actuator.inProgress(p.metadata().name());
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
        Node n = named(nodes, name);
        if (n != null && pool.equals(n.metadata().labels().get(NodePool.POOL_LABEL)) && since != null
            && isDue(n, since, due, dueUnready, now)) {
          members.add(name);
        }
      }
      int size = poolSize(nodes, pool);
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
          Map<String, Long> d = ClusterResourceLimits.deltaForNode(Objects.requireNonNull(named(nodes, name), name),
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
        Node member = Objects.requireNonNull(named(nodes, name), name);
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
      Node n = Objects.requireNonNull(named(nodes, name), name);
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
    if (emptyChosen.isEmpty() && drainChosen.isEmpty()) {
      return;
    }
    ScaleDownStatus st = actuator.startDeletion(emptyChosen, drainChosen, now);
    if (st.result() == ScaleDownStatus.Result.ERROR) {
      lastScaleDownFail = now;
      LOG.debug("scale-down: starting deletions failed: {}", st.error());
    }
    if (st.result() == ScaleDownStatus.Result.NODE_DELETE_STARTED) {
      lastScaleDownDelete = now;
    }
    for (ScaleDownStatus.ScaleDownNode sd : st.scaledDownNodes()) {
      started.add(sd.node());
      unneededSince.remove(sd.node());
      if (sd.evictedPods().isEmpty() && emptyNodes.contains(sd.node())) {
        startedEmpty.add(sd.node());
      }
    }
    // the deletions go as far as they can in this loop: evictions the budgets allow at once, and nodes whose pods
    // are gone deleted (with a zero batcher interval)
    actuator.advance(now);
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
   * nominated to it ({@link #nominatedPods}).
   */
  private List<Pod> podsToInject(ActuationStatus status) {
    List<Pod> drained = new ArrayList<>();
    for (String name : new java.util.TreeSet<>(status.deletionsInProgress())) {
      drained.addAll(clusterPods.on(name));
      drained.addAll(nominatedPods.getOrDefault(name, List.of()));
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
      PodInfo[] kept = slotFacts.moving(from, ClusterAutoscaler::unbound);
      for (PodInfo pi : kept) {
        unbound.add(pi);
      }
    }
    unbound.addAll(moved);
    boolean placed = sim.placeElsewhere(unbound, cursor, from, removalHints, ghostTaint);
    unbound.clear();
    return placed;
  }

  // ---- helpers ----

  private SimulatedCluster newSimulation() {
    Map<Class<?>, List<?>> objects = new HashMap<>();
    objects.put(PodDisruptionBudget.class, store.list(PodDisruptionBudget.class).items());
    objects.put(io.fleetkit.api.scheduling.PriorityClass.class,
        store.list(io.fleetkit.api.scheduling.PriorityClass.class).items());
    objects.putAll(draObjects());
    return SimulatedCluster.create(profile, registry, clock, objects);
  }

  /**
   * The store's ResourceClaims, ResourceSlices and DeviceClasses by kind, for a simulation's DRA state; empty when the
   * store has none of them (then no pod can have its claims allocated, and the simulation need not track them).
   */
  private Map<Class<?>, List<?>> draObjects() {
    List<DeviceClass> classes = store.list(DeviceClass.class).items();
    List<ResourceSlice> slices = store.list(ResourceSlice.class).items();
    List<ResourceClaim> claims = store.list(ResourceClaim.class).items();
    if (classes.isEmpty() && slices.isEmpty() && claims.isEmpty()) {
      return Map.of();
    }
    return Map.of(DeviceClass.class, classes, ResourceSlice.class, slices, ResourceClaim.class, claims);
  }

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
    private Evictor.@Nullable Timing evictionTiming;
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
     * build their {@code Evictor}).
     */
    Builder evictionTiming(Evictor.Timing v) {
      evictionTiming = Objects.requireNonNull(v, "evictionTiming");
      return this;
    }

    public ClusterAutoscaler build() {
      return new ClusterAutoscaler(this);
    }
  }
}
