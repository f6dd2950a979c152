package io.fleetkit.autoscale.cluster;

import static io.fleetkit.autoscale.cluster.ClusterAutoscaler.BACKOFF_REASON;
import static io.fleetkit.autoscale.cluster.ClusterAutoscaler.MAX_LIMIT_REACHED_REASON;

import io.fleetkit.api.apps.DaemonSet;
import io.fleetkit.api.autoscaling.NodePool;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.framework.Status;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.PodInfos;
import io.fleetkit.api.framework.SchedulerProfile;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.resource.dra.ResourceClaim;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.autoscale.cluster.simulator.SimulatedCluster;
import io.fleetkit.reconcile.controllers.DaemonSetPlacement;
import io.fleetkit.scheduler.PluginRegistry;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
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

/**
 * The cluster autoscaler's scale-up decision (upstream's {@code core/scaleup/orchestrator}, its
 * {@code filterOutSchedulable} processor and the estimator it runs): which pending pods fit nowhere, which pools could
 * take them and with how many nodes, and the expander's pick, balanced over similar pools. {@link ClusterAutoscaler}
 * describes the rules and launches the nodes. It keeps, for the loop's scale-down planner, what its filter left in
 * the loop's snapshot ({@link #snapshot()}), and across loops its filter's hints. Not thread-safe: the autoscaler's
 * loop calls it.
 */
final class ScaleUpPlanner {
  /** Why a pool is not an option when none of the pending pods fits a new node of it. */
  private static final String NO_POD_FITS_REASON = "no pending pod fits its template";

  private final ObjectStore store;
  private final Clock clock;
  private final SchedulerProfile profile;
  private final PluginRegistry registry;
  private final AutoscalerOptions options;
  private final Expander expander;
  /** Breaks ties between equally good options (seeded). */
  private final Random random;
  /** The pools backed off after failed scale-ups (the autoscaler's: its launches back pools off). */
  private final NodeGroupBackoff backoffs;
  /** The round-robin position the autoscaler's searches share (the scale-down planner's too). */
  private final SearchPosition searchPosition;
  /** Scale-up's filter of the pods that fit, with its own hints (upstream's filterOutSchedulable processor). */
  private final SchedulablePodsFilter schedulable = new SchedulablePodsFilter();
  /**
   * The pending pods the last {@link #plan} left on existing nodes, by node, each node's in the order they went there:
   * those nominated to the node (upstream's {@code SetClusterState} puts a pod waiting for preemption on its
   * {@code status.nominatedNodeName}), then those scale-up's filter placed. Upstream's scale-down planner runs on the
   * snapshot the filter placed them in, so they are on those nodes in the drain simulations and in the utilization.
   */
  private Map<String, List<PodInfo>> snapshotPods = Map.of();
  /** The scheduler's view of each pending pod in {@link #snapshotPods}, kept while the pod is the same object. */
  private Map<Pod, PodInfo> pendingInfos = new java.util.IdentityHashMap<>();
  /**
   * The pods waiting for preemption the last {@link #plan} held on their nominated node, by node (those in
   * {@link #snapshotPods} before the filter's): on a node being deleted they are among the pods the planner places
   * elsewhere.
   */
  private Map<String, List<Pod>> nominatedPods = Map.of();
  /** Whether {@link #plan} explains the pods it cannot help ({@link #remaining()}): only for the events. */
  private boolean explain;
  /** The pending pods the last plan could not place on existing nodes; empty unless {@link #explain}. */
  private List<Pod> unschedulablePods = List.of();
  /** The last plan's pods no pool can take, with why (upstream's {@code GetRemainingPods}); empty unless explaining. */
  private List<ScaleUpEvents.NoScaleUp> remaining = List.of();
  /**
   * The ResourceClaims of the pending pods the last {@link #plan}'s filter placed, as its placements left them
   * (allocated and reserved for those pods: upstream's {@code TrySchedulePods} allocates them in the loop's DRA
   * snapshot, which scale-down forks); an object equal to the last loop's is that object.
   */
  private List<ResourceClaim> placedClaims = List.of();
  /** Where the last {@link #plan}'s filter placed the pending pods with ResourceClaims, in placement order. */
  private List<LoopSnapshot.PlacedPod> placedClaimPods = List.of();

  ScaleUpPlanner(ObjectStore store, Clock clock, SchedulerProfile profile, PluginRegistry registry,
      AutoscalerOptions options, Expander expander, long seed, NodeGroupBackoff backoffs,
      SearchPosition searchPosition) {
    this.store = store;
    this.clock = clock;
    this.profile = profile;
    this.registry = registry;
    this.options = options;
    this.expander = expander;
    this.random = new Random(seed);
    this.backoffs = backoffs;
    this.searchPosition = searchPosition;
  }

  /** What the last {@link #plan} left in the loop's snapshot: the pods it held or placed on nodes, and their claims. */
  LoopSnapshot snapshot() {
    return new LoopSnapshot(snapshotPods, placedClaims, placedClaimPods, nominatedPods);
  }

  ScaleUpPlan plan(Instant now, Map<String, NodePool> pools, List<Node> nodes, ClusterPods clusterPods,
      NodeListFacts nodeFacts, NodeGroupConfig poolConfig) {
    unschedulablePods = List.of();
    remaining = List.of();
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
    SimulatedCluster sim = SimulatedCluster.create(profile, registry, clock, SimulationObjects.all(store));
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
    Set<DaemonPodSlot> upcomingDaemonPods = addUpcomingDaemonPods(sim, pools, nodes, daemonSets, clusterPods,
        nodeFacts);
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
    if (explain) {
      unschedulablePods = List.copyOf(unschedulable);
    }
    int total = nodes.size();
    // upstream's BuildPodGroups, once per loop: every pool's schedulability check and estimate read these groups
    BinpackingEstimator.PodGroups groups = BinpackingEstimator.PodGroups.of(unschedulable);
    // upstream's IsNodeGroupReadyToScaleUp: an unhealthy group is skipped first, then a backed-off one
    nodeFacts.update(nodes);
    Map<String, NodeGroupHealth.PoolHealth> health = nodeFacts.poolHealth(pools.keySet(), now, options,
        poolConfig);
    ClusterResourceLimits left = ClusterAutoscaler.scaleUpLimits(pools, nodes, nodeFacts, options);
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
      nodeFacts.update(nodes);
      int size = nodeFacts.poolSize(name);
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
    // upstream's SchedulablePodGroups, for every pool scale-up considers and before any estimate: which groups have a
    // first pod that fits the pool's empty template node; the pool's estimate gets only those, and balancing compares
    // them
    List<ScaleUpBalancing.Candidate> candidates = new ArrayList<>(valid.size());
    Map<String, Status[]> checks = explain ? new LinkedHashMap<>() : null;
    for (NodePool pool : valid) {
      Status[] why = checks == null ? null : new Status[groups.groupCount()];
      candidates.add(candidate(sim, groups, pool, daemonSets, why));
      if (checks != null) {
        checks.put(pool.metadata().name(), why);
      }
    }
    if (checks != null) {
      remaining = remaining(groups, candidates, checks, skipped);
    }
    Map<String, List<NodePool>> similar = options.balanceSimilarNodeGroups() && valid.size() > 1
        ? similarPools(candidates) : Map.of();
    for (ScaleUpBalancing.Candidate candidate : candidates) {
      NodePool pool = candidate.pool();
      String name = pool.metadata().name();
      BinpackingEstimator.PodGroups fitting = groups.only(candidate.schedulable());
      if (fitting.size() == 0) { // upstream's ComputeExpansionOption: an empty option, no estimate
        skipped.put(name, NO_POD_FITS_REASON);
        continue;
      }
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
      BinpackingEstimator.Estimate e = BinpackingEstimator.estimate(sim, fitting,
          i -> ClusterAutoscaler.templateNode(pool, "template-" + name + "-" + i),
          n -> TemplateNodes.forPoolTemplate(n, daemonSets),
          n -> TemplateNodes.resourceSlicesFor(pool, n), room, searchPosition);
      if (e.nodeCount() == 0) {
        skipped.put(name, NO_POD_FITS_REASON);
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
   * Upstream's {@code SchedulablePodGroups} for {@code pool}: its template node, what the DaemonSet pods it starts
   * with request, and which of {@code groups} have a first pod that passes the filters on it, empty but for those
   * pods and with its pool's DRA devices.
   */
  private static ScaleUpBalancing.Candidate candidate(SimulatedCluster sim, BinpackingEstimator.PodGroups groups,
      NodePool pool, List<DaemonSet> daemonSets, Status @Nullable [] checks) {
    Node template = ClusterAutoscaler.templateNode(pool, "template-" + pool.metadata().name() + "-check");
    List<Pod> daemons = TemplateNodes.forPoolTemplate(template, daemonSets);
    ResourceList requested = ResourceList.EMPTY;
    for (Pod d : daemons) {
      requested = requested.add(d.effectiveRequests());
    }
    boolean[] schedulable = BinpackingEstimator.schedulableGroups(sim, groups, template, n -> daemons,
        n -> TemplateNodes.resourceSlicesFor(pool, n), checks);
    return new ScaleUpBalancing.Candidate(pool, template, requested, schedulable);
  }

  /**
   * Upstream's {@code GetRemainingPods}: the pods of each group that no considered pool's template takes, each with
   * the reasons every considered pool rejected its group ({@code checks}) and those of the pools skipped before the
   * check ({@code skipped} as it is now: unhealthy, backed off, at their maximum, over a cluster-wide limit; the detail
   * after {@code ": "} left out, as upstream's reasons have none).
   */
  private static List<ScaleUpEvents.NoScaleUp> remaining(BinpackingEstimator.PodGroups groups,
      List<ScaleUpBalancing.Candidate> candidates, Map<String, Status[]> checks, Map<String, String> skipped) {
    Map<String, List<String>> skippedReasons = new LinkedHashMap<>();
    skipped.forEach((pool, why) -> {
      int detail = why.indexOf(": ");
      skippedReasons.put(pool, List.of(detail < 0 ? why : why.substring(0, detail)));
    });
    List<ScaleUpEvents.NoScaleUp> out = new ArrayList<>();
    for (int i = 0; i < groups.groupCount(); i++) {
      boolean schedulable = false;
      for (ScaleUpBalancing.Candidate c : candidates) {
        schedulable |= c.schedulable()[i];
      }
      if (schedulable) {
        continue;
      }
      Map<String, List<String>> rejected = new LinkedHashMap<>();
      for (Map.Entry<String, Status[]> e : checks.entrySet()) {
        Status st = e.getValue()[i];
        rejected.put(e.getKey(), st.reasons().isEmpty() ? List.of(st.message()) : st.reasons());
      }
      for (Pod p : groups.groupPods(i)) {
        out.add(new ScaleUpEvents.NoScaleUp(p, rejected, skippedReasons));
      }
    }
    return out;
  }

  /** Makes {@link #plan} keep {@link #unschedulablePods()} and {@link #remaining()} for the scale-up events. */
  void explainRemaining(boolean on) {
    explain = on;
  }

  /** The pending pods the last plan found unschedulable on the nodes there are (when explaining). */
  List<Pod> unschedulablePods() {
    return unschedulablePods;
  }

  /** The last plan's pods that no considered pool can take, with why (when explaining). */
  List<ScaleUpEvents.NoScaleUp> remaining() {
    return remaining;
  }

  /**
   * Upstream's {@code ComputeSimilarNodeGroups} for every pool of {@code candidates} (the pools scale-up considers,
   * with the pending pod groups each can take): the other pools whose template nodes, with their DaemonSet pods, are
   * similar ({@link NodeGroupSimilarity}) and that can take every pending pod group the pool can, in name order. An
   * atomic pool ({@code zeroOrMaxNodeScaling}) is balanced with none, and none is balanced with it (its nodes come all
   * at once).
   */
  private Map<String, List<NodePool>> similarPools(List<ScaleUpBalancing.Candidate> candidates) {
    List<ScaleUpBalancing.Candidate> balanced = new ArrayList<>(candidates.size());
    for (ScaleUpBalancing.Candidate c : candidates) {
      if (!c.pool().spec().zeroOrMaxNodeScaling()) {
        balanced.add(c);
      }
    }
    return ScaleUpBalancing.similarPools(balanced, NodeGroupSimilarity.of(options));
  }

  /**
   * Sets {@link #placedClaims} and {@link #placedClaimPods} from the pods with ResourceClaims among those the filter
   * placed in {@code sim} ({@code filtered}, by node), keeping the last loop's objects where equal.
   */
  private void keepPlacedClaims(@Nullable SimulatedCluster sim, Map<String, List<Pod>> filtered) {
    List<LoopSnapshot.PlacedPod> pods = null;
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
          pods.add(new LoopSnapshot.PlacedPod(e.getKey(), p));
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
  private static Set<DaemonPodSlot> addUpcomingDaemonPods(SimulatedCluster sim, Map<String, NodePool> pools,
      List<Node> nodes, List<DaemonSet> daemonSets, ClusterPods clusterPods, NodeListFacts nodeFacts) {
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
      for (Pod p : TemplateNodes.forPoolTemplate(ClusterAutoscaler.templateNode(pool, n.name()), daemonSets)) {
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
}
