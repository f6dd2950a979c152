package io.fleetkit.queueing.internal;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.resource.ResourceNames;
import io.fleetkit.api.scheduling.NodeSelector;
import io.fleetkit.api.scheduling.NodeSelectors;
import io.fleetkit.api.scheduling.Taint;
import io.fleetkit.api.scheduling.Taints;
import io.fleetkit.api.scheduling.Toleration;
import io.fleetkit.queueing.PodSetTopologyRequest;
import io.fleetkit.queueing.PodSetTopologyRequest.SliceConstraint;
import io.fleetkit.queueing.ResourceFlavor;
import io.fleetkit.queueing.Topology;
import io.fleetkit.queueing.TopologyAssignment;
import io.fleetkit.queueing.internal.TopologyTree.Domain;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * Kueue's topology assignment algorithm ({@code TASFlavorSnapshot.FindTopologyAssignmentsForFlavor} of
 * kubernetes-sigs/kueue {@code pkg/cache/scheduler/tas_flavor_snapshot.go}), with Kueue's default feature gates:
 * {@code TASProfileMixed} on (BestFit for required and preferred requests, LeastFreeCapacity for unconstrained ones),
 * {@code TASMultiLayerTopology} on (nested slice constraints), {@code TASBalancedPlacement} and {@code
 * TASRespectNodeAffinityPreferred} off.
 *
 * <p>For each pod set (or leader and workers of one pod set group) in order:
 *
 * <ol>
 *   <li>Phase 1, {@code fillInCounts}: how many pods (and slices, and whether the leader) fit on every leaf, given its
 *       free capacity minus what the pod sets placed before took; the counts are summed up the tree. With a
 *       hostname-lowest topology only nodes whose taints the pods (with the flavor's tolerations) tolerate and whose
 *       labels match the pods' node selector and required node affinity count; the others are reported in the
 *       failure message.
 *   <li>Phase 2a, {@code findLevelWithFitDomains}: at the requested level, the domain that holds all pods (BestFit:
 *       of those, the one with the least room; LeastFreeCapacity, for unconstrained requests: the fullest that holds
 *       them); for a preferred request one level higher while none does, and at the top level as few domains as
 *       possible; for a required request none is a failure with Kueue's message.
 *   <li>Phase 2b: down the tree level by level, the pods of each chosen domain go to as few children as possible,
 *       BestFit choosing the tightest child for the last part.
 *   <li>The assignment: the chosen leaves with their pod counts, sorted by their level values.
 * </ol>
 *
 * {@link #replace} finds where the pods of an unhealthy node go (Kueue's {@code findReplacementAssignment}, see {@link
 * TopologyReplacement}). Not modelled: elastic workload slices, balanced placement and preferred node affinity (gates
 * off by default), and the scheduler-library simulator.
 *
 * <p>Not thread-safe; one instance per flavor and cycle.
 */
public final class TopologyAssigner {
  final TopologyTree tree;
  private final List<Toleration> flavorTolerations;

  /**
   * A pod set to place.
   *
   * @param podSetName the pod set
   * @param singlePodRequests what each pod requests (without {@code pods}, which the algorithm adds)
   * @param count how many pods
   * @param topologyRequest its topology request, or {@code null} (Kueue's implied request: unconstrained)
   * @param nodeSelector the pods' node selector
   * @param requiredNodeAffinity the pods' required node affinity, or {@code null}
   * @param tolerations the pods' tolerations
   */
  public record Request(String podSetName, ResourceList singlePodRequests, int count,
      @Nullable PodSetTopologyRequest topologyRequest, Map<String, String> nodeSelector,
      @Nullable NodeSelector requiredNodeAffinity, List<Toleration> tolerations) {
    public Request {
      Objects.requireNonNull(podSetName, "podSetName");
      Objects.requireNonNull(singlePodRequests, "singlePodRequests");
      nodeSelector = Map.copyOf(nodeSelector);
      tolerations = List.copyOf(tolerations);
    }

    /** Pods without node constraints. */
    public static Request of(String podSetName, ResourceList singlePodRequests, int count,
        @Nullable PodSetTopologyRequest topologyRequest) {
      return new Request(podSetName, singlePodRequests, count, topologyRequest, Map.of(), null, List.of());
    }
  }

  /**
   * The outcome for one pod set: an assignment, or Kueue's reason why none was found.
   *
   * @param assignment the assignment, or {@code null} when it failed
   * @param failureReason empty when it succeeded
   */
  public record Result(@Nullable TopologyAssignment assignment, String failureReason) {
    public boolean fits() {
      return failureReason.isEmpty();
    }
  }

  /**
   * @param topology the flavor's topology
   * @param flavor the flavor: its node labels select the nodes, its tolerations add to the pods'
   * @param nodes the cluster's nodes
   * @param usedByNode what pods not admitted with a topology assignment use, per node name, {@code pods} included
   *     (Kueue's non-TAS usage; see {@link #usedByPods})
   * @param usedByDomain what admitted topology assignments use, per leaf domain id (the assignment's values joined
   *     with commas; Kueue's TAS usage, see {@link TopologyAssignment#usagePerDomain})
   */
  public TopologyAssigner(Topology topology, ResourceFlavor flavor, Collection<Node> nodes,
      Map<String, ResourceList> usedByNode, Map<String, ResourceList> usedByDomain) {
    this.tree = new TopologyTree(topology, flavor.nodeLabels(), nodes, usedByNode, usedByDomain);
    this.flavorTolerations = flavor.tolerations();
  }

  /**
   * Finds the assignments of {@code requests} (Kueue's {@code FindTopologyAssignmentsForFlavor}): pod sets of one
   * {@link PodSetTopologyRequest#podSetGroupName() group} together (the one with fewer pods is the leader), the others
   * one by one, each taking the capacity the ones before took. Stops at the first failure.
   *
   * @return the result of every pod set tried, in order; a pod set after a failure is missing
   */
  public Map<String, Result> assign(List<Request> requests) {
    Map<String, Result> out = new LinkedHashMap<>();
    Map<String, Map<String, Long>> assumed = new HashMap<>();
    Map<String, List<Request>> groups = new LinkedHashMap<>();
    for (int i = 0; i < requests.size(); i++) {
      Request r = requests.get(i);
      String group = r.topologyRequest() != null && r.topologyRequest().podSetGroupName() != null
          ? "group:" + r.topologyRequest().podSetGroupName() : "index:" + i;
      groups.computeIfAbsent(group, k -> new ArrayList<>()).add(r);
    }
    for (List<Request> trs : groups.values()) {
      Request workers = trs.get(0);
      Request leader = null;
      if (trs.size() > 1) {
        leader = trs.get(1);
        if (leader.count() > workers.count()) {
          leader = trs.get(0);
          workers = trs.get(1);
        }
      }
      Outcome o = new Run(workers, leader, assumed, "").find();
      for (Request tr : trs) {
        out.put(tr.podSetName(), new Result(o.reason.isEmpty() ? o.assignments.get(tr.podSetName()) : null, o.reason));
      }
      if (!o.reason.isEmpty()) {
        return out;
      }
      for (Request tr : trs) {
        TopologyAssignment ta = o.assignments.get(tr.podSetName());
        if (ta == null) {
          continue;
        }
        for (Map.Entry<String, ResourceList> e : ta.usagePerDomain(tr.singlePodRequests()).entrySet()) {
          TopologyTree.add(assumed.computeIfAbsent(e.getKey(), k -> new TreeMap<>()),
              TopologyTree.units(e.getValue()), 1);
        }
      }
    }
    return out;
  }

  /**
   * Where the pods {@code request}'s pod set had on {@code unhealthyNode} go, keeping the rest of {@code existing}
   * (Kueue's {@code findReplacementAssignment}): {@code request}'s count is ignored, the pods of the node's domain are
   * placed.
   *
   * @return the merged assignment, or Kueue's reason why no replacement was found
   */
  public Result replace(Request request, TopologyAssignment existing, String unhealthyNode) {
    return new TopologyReplacement(this, request, existing, unhealthyNode).find();
  }

  /**
   * Places {@code request} alone on the leaves of {@code requiredDomain} (Kueue's {@code requiredReplacementDomain};
   * empty: everywhere); the leaves outside it count as {@code topologyDomain} exclusions in the failure message.
   */
  Result assignWithin(Request request, String requiredDomain) {
    Outcome o = new Run(request, null, new HashMap<>(), requiredDomain).find();
    return new Result(o.reason.isEmpty() ? o.assignments.get(request.podSetName()) : null, o.reason);
  }

  private record Outcome(Map<String, TopologyAssignment> assignments, String reason) {
    static Outcome fail(String reason) {
      return new Outcome(Map.of(), reason);
    }
  }

  /** Why nodes were left out (Kueue's {@code tasExclusionStats}). */
  private static final class Stats {
    int totalNodes;
    int nodeSelector;
    int affinity;
    int topologyDomain;
    final Map<String, Integer> taints = new TreeMap<>();
    final Map<String, Integer> resources = new TreeMap<>();

    boolean hasExclusions() {
      return nodeSelector > 0 || affinity > 0 || topologyDomain > 0 || !taints.isEmpty() || !resources.isEmpty();
    }

    String formatReasons() {
      List<String> reasons = new ArrayList<>();
      if (nodeSelector > 0) {
        reasons.add("nodeSelector: " + nodeSelector);
      }
      if (affinity > 0) {
        reasons.add("affinity: " + affinity);
      }
      if (topologyDomain > 0) {
        reasons.add("topologyDomain: " + topologyDomain);
      }
      taints.forEach((t, n) -> reasons.add("taint \"" + t + "\": " + n));
      resources.forEach((r, n) -> reasons.add("resource \"" + r + "\": " + n));
      reasons.sort(null);
      return String.join(", ", reasons);
    }
  }

  /** One run of Kueue's {@code findTopologyAssignment}: the state of placing one pod set (with its leader). */
  private final class Run {
    private final Request workers;
    private final @Nullable Request leader;
    private final Map<String, Map<String, Long>> assumed;
    /** Kueue's {@code requiredReplacementDomain}: only leaves of this domain (by id) count; empty for all. */
    private final String requiredDomain;
    private final Stats stats = new Stats();
    private Map<String, Long> requests = Map.of();
    private @Nullable Map<String, Long> leaderRequests;
    private int count;
    private int leaderCount;
    private int sliceSize;
    private boolean required;
    private boolean unconstrained;
    private int sliceLevelIdx;
    private Map<Integer, Integer> sliceSizeAtLevel = Map.of();
    private List<SliceConstraint> multiLayerConstraints = List.of();

    Run(Request workers, @Nullable Request leader, Map<String, Map<String, Long>> assumed, String requiredDomain) {
      this.workers = workers;
      this.leader = leader;
      this.assumed = assumed;
      this.requiredDomain = requiredDomain;
    }

    Outcome find() {
      count = workers.count();
      requests = withOnePod(workers.singlePodRequests());
      if (leader != null) {
        leaderRequests = withOnePod(leader.singlePodRequests());
        leaderCount = 1;
      }
      PodSetTopologyRequest tr = workers.topologyRequest();
      List<SliceConstraint> constraints = tr == null ? List.of() : tr.sliceConstraints();
      sliceSize = constraints.isEmpty() ? 1 : constraints.get(0).size();
      if (sliceSize <= 0) {
        return Outcome.fail("slice topology requested, but slice size not provided");
      }
      required = tr != null && tr.required() != null;
      boolean sliceOnly = tr != null && tr.required() == null && tr.preferred() == null && !constraints.isEmpty();
      unconstrained = tr == null || tr.unconstrained() || sliceOnly;
      String topologyKey = levelKey(tr, sliceOnly);
      if (topologyKey == null) {
        return Outcome.fail("topology level not specified");
      }
      int requestedLevelIdx = tree.levelKeys.indexOf(topologyKey);
      if (requestedLevelIdx < 0) {
        return Outcome.fail("no requested topology level: " + topologyKey);
      }
      String sliceKey = constraints.isEmpty() ? lowestLevel() : constraints.get(0).topology();
      sliceLevelIdx = tree.levelKeys.indexOf(sliceKey);
      if (sliceLevelIdx < 0) {
        return Outcome.fail("no requested topology level for slices: " + sliceKey);
      }
      if (requestedLevelIdx > sliceLevelIdx) {
        return Outcome.fail("podset slice topology " + sliceKey + " is above the podset topology " + topologyKey);
      }
      String reason = buildSliceSizeAtLevel(constraints);
      if (!reason.isEmpty()) {
        return Outcome.fail(reason);
      }
      if (!sliceSizeAtLevel.isEmpty()) {
        multiLayerConstraints = constraints;
      }

      fillInCounts();

      Fit fit = findLevelWithFitDomains(requestedLevelIdx);
      if (fit.reason != null) {
        return Outcome.fail(fit.reason);
      }
      List<Domain> currFit = updateCountsToMinimum(fit.domains, count, leaderCount, sliceSize, true);
      int level = fit.levelIdx;
      int last = tree.levelKeys.size() - 1;
      for (; level < Math.min(last, sliceLevelIdx); level++) {
        List<Domain> lower = new ArrayList<>();
        for (Domain d : currFit) {
          lower.addAll(d.children);
        }
        currFit = updateCountsToMinimum(sortedDomains(lower), count, leaderCount, sliceSize, true);
      }
      for (; level < last; level++) {
        int sliceSizeOnLevel = sliceSize;
        if (level >= sliceLevelIdx) {
          sliceSizeOnLevel = sliceSizeAtLevel.getOrDefault(level + 1, 1);
        }
        List<Domain> next = new ArrayList<>();
        for (Domain domain : currFit) {
          List<Domain> lower = sortedDomains(domain.children);
          if (sliceSizeOnLevel > 1) {
            for (Domain d : lower) {
              d.sliceCount = d.podCount / sliceSizeOnLevel;
              d.sliceCountWithLeader = d.podCountWithLeader / sliceSizeOnLevel;
            }
          }
          next.addAll(updateCountsToMinimum(lower, domain.podCount, domain.leaderCount, sliceSizeOnLevel,
              sliceSizeOnLevel > 1));
        }
        currFit = next;
      }

      Map<String, TopologyAssignment> assignments = new HashMap<>();
      if (leader != null) {
        List<Domain> leaderFit = new ArrayList<>();
        List<Domain> workerFit = new ArrayList<>();
        for (Domain d : currFit) {
          if (d.leaderCount > 0) {
            Domain c = d.copy();
            c.podCount = d.leaderCount;
            leaderFit.add(c);
          }
          if (d.podCount > 0) {
            workerFit.add(d);
          }
        }
        assignments.put(leader.podSetName(), buildAssignment(leaderFit));
        currFit = workerFit;
      }
      assignments.put(workers.podSetName(), buildAssignment(currFit));
      return new Outcome(assignments, "");
    }

    private @Nullable String levelKey(@Nullable PodSetTopologyRequest tr, boolean sliceOnly) {
      if (tr == null) {
        return lowestLevel();
      }
      if (tr.required() != null) {
        return tr.required();
      }
      if (tr.preferred() != null) {
        return tr.preferred();
      }
      if (sliceOnly) {
        return tree.levelKeys.get(0);
      }
      if (tr.unconstrained()) {
        return lowestLevel();
      }
      return null;
    }

    /** Kueue's {@code buildSliceSizeAtLevel}: the slice size of each level below the outermost slice level. */
    private String buildSliceSizeAtLevel(List<SliceConstraint> constraints) {
      Map<Integer, Integer> out = new HashMap<>();
      int prevSize = sliceSize;
      int prevLevelIdx = sliceLevelIdx;
      for (SliceConstraint layer : constraints.size() > 1 ? constraints.subList(1, constraints.size())
          : List.<SliceConstraint>of()) {
        int inner = tree.levelKeys.indexOf(layer.topology());
        if (inner < 0) {
          return "no requested topology level for additional slice layer: " + layer.topology();
        }
        if (inner <= prevLevelIdx) {
          return "additional slice layer topology " + layer.topology() + " must be at a lower level than "
              + tree.levelKeys.get(prevLevelIdx);
        }
        if (prevSize % layer.size() != 0) {
          return "additional slice layer size " + layer.size() + " must evenly divide parent layer size " + prevSize;
        }
        for (int lvl = prevLevelIdx + 1; lvl <= inner; lvl++) {
          out.put(lvl, layer.size());
        }
        prevSize = layer.size();
        prevLevelIdx = inner;
      }
      sliceSizeAtLevel = out;
      return "";
    }

    // ---- phase 1 --------------------------------------------------------------------------------------------------

    private void fillInCounts() {
      tree.clearCounts();
      if (tree.lowestLevelIsNode) {
        List<Toleration> tolerations = new ArrayList<>(workers.tolerations());
        tolerations.addAll(flavorTolerations);
        for (Domain leaf : tree.leaves.values()) {
          stats.totalNodes++;
          Node node = Objects.requireNonNull(leaf.node);
          Optional<Taint> untolerated = Taints.findMatchingUntoleratedTaint(node.spec().taints(), tolerations,
              Taints.NO_SCHEDULE_OR_NO_EXECUTE);
          if (untolerated.isPresent()) {
            stats.taints.merge(untolerated.get().toString(), 1, Integer::sum);
            continue;
          }
          Map<String, String> labels = node.metadata().labels();
          if (!matchesSelector(workers.nodeSelector(), labels)) {
            stats.nodeSelector++;
            continue;
          }
          if (workers.requiredNodeAffinity() != null
              && !NodeSelectors.matches(workers.requiredNodeAffinity(), node.name(), labels)) {
            stats.affinity++;
            continue;
          }
          fillLeafCounts(leaf);
        }
      } else {
        stats.totalNodes += tree.leaves.size();
        for (Domain leaf : tree.leaves.values()) {
          fillLeafCounts(leaf);
        }
      }
      for (Domain root : tree.roots.values()) {
        fillInCountsHelper(root, 0);
      }
    }

    private static boolean matchesSelector(Map<String, String> selector, Map<String, String> labels) {
      for (Map.Entry<String, String> e : selector.entrySet()) {
        if (!e.getValue().equals(labels.get(e.getKey()))) {
          return false;
        }
      }
      return true;
    }

    private void fillLeafCounts(Domain leaf) {
      if (!TopologyReplacement.belongsTo(TopologyTree.domainId(leaf.levelValues), requiredDomain)) {
        stats.topologyDomain++;
        return;
      }
      Map<String, Long> remaining = new TreeMap<>(Objects.requireNonNull(leaf.free));
      Map<String, Long> used = assumed.get(leaf.id);
      if (used != null) {
        TopologyTree.add(remaining, used, -1);
      }
      String[] limiting = new String[1];
      leaf.podCount = countIn(requests, remaining, limiting);
      if (leaf.podCount == 0 && limiting[0] != null) {
        stats.resources.merge(limiting[0], 1, Integer::sum);
      }
      leaf.leaderCount = 0;
      if (leaderRequests != null && countIn(leaderRequests, remaining, null) > 0) {
        leaf.leaderCount = 1;
        TopologyTree.add(remaining, leaderRequests, -1);
      }
      leaf.podCountWithLeader = countIn(requests, remaining, null);
    }

    private void fillInCountsHelper(Domain domain, int level) {
      if (domain.children.isEmpty()) {
        if (level == sliceLevelIdx) {
          domain.sliceCount = domain.podCount / sliceSize;
          domain.sliceCountWithLeader = domain.podCountWithLeader / sliceSize;
        }
        return;
      }
      boolean leaderRequired = leaderCount > 0;
      int childrenCapacity = 0;
      int sliceCapacity = 0;
      boolean hasWithLeaderContributor = false;
      int minPodDiff = Integer.MAX_VALUE;
      int minSliceDiff = Integer.MAX_VALUE;
      int leaders = 0;
      int childLevel = level + 1;
      Integer innerSize = sliceSizeAtLevel.get(childLevel);
      for (Domain child : domain.children) {
        fillInCountsHelper(child, childLevel);
        int childPods = child.podCount;
        int childPodsWithLeader = child.podCountWithLeader;
        if (innerSize != null) {
          childPods = (child.podCount / innerSize) * innerSize;
          childPodsWithLeader = (child.podCountWithLeader / innerSize) * innerSize;
        }
        childrenCapacity += childPods;
        sliceCapacity += child.sliceCount;
        if (!leaderRequired || child.leaderCount > 0) {
          hasWithLeaderContributor = true;
          minPodDiff = Math.min(childPods - childPodsWithLeader, minPodDiff);
          minSliceDiff = Math.min(child.sliceCount - child.sliceCountWithLeader, minSliceDiff);
        }
        leaders = Math.max(child.leaderCount, leaders);
      }
      domain.podCount = childrenCapacity;
      int sliceCountWithLeader = 0;
      if (hasWithLeaderContributor) {
        domain.podCountWithLeader = childrenCapacity - minPodDiff;
        sliceCountWithLeader = sliceCapacity - minSliceDiff;
      } else {
        domain.podCountWithLeader = 0;
      }
      domain.leaderCount = leaders;
      if (level == sliceLevelIdx) {
        sliceCapacity = domain.podCount / sliceSize;
        sliceCountWithLeader = domain.podCountWithLeader / sliceSize;
      }
      domain.sliceCount = sliceCapacity;
      domain.sliceCountWithLeader = sliceCountWithLeader;
    }

    // ---- phase 2a -------------------------------------------------------------------------------------------------

    private record Fit(int levelIdx, List<Domain> domains, @Nullable String reason) {
      static Fit fail(String reason) {
        return new Fit(0, List.of(), reason);
      }
    }

    private String notFitReason(int levelIdx, int fitCount, int totalCount) {
      if (!multiLayerConstraints.isEmpty()) {
        return multiLayerNotFitMessage(levelIdx);
      }
      return notFitMessage(fitCount, totalCount);
    }

    private Fit findLevelWithFitDomains(int searchLevelIdx) {
      Map<String, Domain> domains = tree.domainsPerLevel.get(searchLevelIdx);
      if (domains.isEmpty()) {
        return Fit.fail("no topology domains at level: " + tree.levelKeys.get(searchLevelIdx));
      }
      List<Domain> sorted = sortedDomainsWithLeader(new ArrayList<>(domains.values()));
      Domain top = sorted.get(0);
      int sliceCount = count / sliceSize;
      if (bestFit() && top.sliceCountWithLeader >= sliceCount && top.leaderCount >= leaderCount) {
        top = findBestFitDomainForSlices(sorted, sliceCount, leaderCount);
      }
      if (!bestFit()) {
        for (Domain candidate : sorted) {
          int capacity = candidate.sliceCount;
          if (leaderCount > 0) {
            if (candidate.leaderCount < leaderCount) {
              continue;
            }
            capacity = candidate.sliceCountWithLeader;
          }
          if (capacity >= sliceCount) {
            return new Fit(searchLevelIdx, List.of(candidate), null);
          }
        }
        if (required) {
          return Fit.fail(notFitReason(searchLevelIdx, sorted.get(sorted.size() - 1).podCount, sliceCount));
        }
      }
      if (top.sliceCountWithLeader < sliceCount || top.leaderCount < leaderCount) {
        if (required) {
          return Fit.fail(notFitReason(searchLevelIdx, top.sliceCount, sliceCount));
        }
        if (searchLevelIdx > 0 && !unconstrained) {
          return findLevelWithFitDomains(searchLevelIdx - 1);
        }
        List<Domain> results = new ArrayList<>();
        int remainingSlices = sliceCount;
        int remainingLeaders = leaderCount;
        sorted = prioritizeLeaderDomain(sorted, count, leaderCount, sliceSize, true);
        int idx = 0;
        for (; remainingLeaders > 0 && idx < sorted.size() && sorted.get(idx).leaderCount > 0; idx++) {
          Domain domain = sorted.get(idx);
          if (bestFit() && domain.sliceCountWithLeader >= remainingSlices) {
            domain = findBestFitDomainForSlices(sorted.subList(idx, sorted.size()), remainingSlices, remainingLeaders);
          }
          results.add(domain);
          remainingLeaders -= domain.leaderCount;
          remainingSlices -= domain.sliceCountWithLeader;
        }
        if (remainingLeaders > 0) {
          return Fit.fail(notFitReason(searchLevelIdx, leaderCount - remainingLeaders, sliceCount));
        }
        List<Domain> rest = sortedDomains(sorted.subList(idx, sorted.size()));
        for (int i = 0; remainingSlices > 0 && i < rest.size(); i++) {
          Domain domain = rest.get(i);
          if (bestFit() && domain.sliceCount >= remainingSlices) {
            domain = findBestFitDomainForSlices(rest.subList(i, rest.size()), remainingSlices, 0);
          }
          results.add(domain);
          remainingSlices -= domain.sliceCount;
        }
        if (remainingSlices > 0) {
          return Fit.fail(notFitReason(searchLevelIdx, sliceCount - remainingSlices, sliceCount));
        }
        return new Fit(searchLevelIdx, results, null);
      }
      return new Fit(searchLevelIdx, List.of(top), null);
    }

    /** BestFit for required and preferred requests; LeastFreeCapacity for unconstrained ones (TASProfileMixed). */
    private boolean bestFit() {
      return !unconstrained;
    }

    private Domain findBestFitDomain(List<Domain> domains, int needed, int leaders) {
      return findBestFitBy(domains, needed, leaders, false);
    }

    private Domain findBestFitDomainForSlices(List<Domain> domains, int needed, int leaders) {
      return findBestFitBy(domains, needed, leaders, true);
    }

    /** The first domain with the smallest count at least {@code needed}, or the first domain if none has it. */
    private Domain findBestFitBy(List<Domain> domains, int needed, int leaders, boolean slices) {
      Domain best = domains.get(0);
      int bestCount = Integer.MAX_VALUE;
      boolean found = false;
      for (Domain d : domains) {
        if (d.leaderCount < leaders) {
          continue;
        }
        int c = slices ? (leaders > 0 ? d.sliceCountWithLeader : d.sliceCount)
            : (leaders > 0 ? d.podCountWithLeader : d.podCount);
        if (c >= needed && c < bestCount) {
          best = d;
          bestCount = c;
          found = true;
        }
      }
      return found ? best : domains.get(0);
    }

    // ---- phase 2b -------------------------------------------------------------------------------------------------

    private int withLeader(Domain d, boolean slices) {
      return slices ? d.sliceCountWithLeader : d.podCountWithLeader;
    }

    private void setWithLeader(Domain d, boolean slices, int v) {
      if (slices) {
        d.sliceCountWithLeader = v;
      } else {
        d.podCountWithLeader = v;
      }
    }

    private void setPrimary(Domain d, boolean slices, int v) {
      if (slices) {
        d.sliceCount = v;
      } else {
        d.podCount = v;
      }
    }

    /** Kueue's {@code prioritizeLeaderDomain}: a leader domain whose leader penalty the other domains absorb, first. */
    private List<Domain> prioritizeLeaderDomain(List<Domain> domains, int cnt, int leaders, int size,
        boolean slices) {
      if (leaders == 0 || domains.size() < 2) {
        return domains;
      }
      int requiredCapacity = cnt;
      int available = 0;
      if (slices) {
        requiredCapacity /= size;
        for (Domain d : domains) {
          available += d.sliceCount;
        }
      } else {
        for (Domain d : domains) {
          available += d.podCount;
        }
      }
      for (int i = 0; i < domains.size(); i++) {
        Domain d = domains.get(i);
        if (d.leaderCount < leaders) {
          continue;
        }
        int penalty = slices ? d.sliceCount - d.sliceCountWithLeader : d.podCount - d.podCountWithLeader;
        if (available - penalty < requiredCapacity) {
          continue;
        }
        if (i == 0) {
          return domains;
        }
        List<Domain> result = new ArrayList<>(domains.size());
        result.add(d);
        result.addAll(domains.subList(0, i));
        result.addAll(domains.subList(i + 1, domains.size()));
        return result;
      }
      return domains;
    }

    /**
     * Kueue's {@code updateCountsToMinimumGeneric}: gives {@code cnt} pods (slices of {@code size} when {@code
     * slices}) and {@code leaders} to as few of {@code domains} as possible, in order, BestFit choosing the tightest
     * domain for the last part; sets the chosen domains' counts to what they get.
     */
    private List<Domain> updateCountsToMinimum(List<Domain> domains, int cnt, int leaders, int size,
        boolean slices) {
      domains = prioritizeLeaderDomain(domains, cnt, leaders, size, slices);
      List<Domain> result = new ArrayList<>();
      int[] remaining = {slices ? cnt / size : cnt, leaders};
      for (int i = 0; i < domains.size(); i++) {
        Domain dom = domains.get(i);
        if (remaining[1] > 0) {
          Domain d = consumeWithLeaders(dom, domains.subList(i, domains.size()), remaining, size, slices);
          result.add(d);
          if (remaining[0] < 0) {
            return result;
          }
          continue;
        }
        if (slices) {
          if (bestFit() && dom.sliceCount >= remaining[0]) {
            dom = findBestFitDomainForSlices(domains.subList(i, domains.size()), remaining[0], 0);
          }
          dom.leaderCount = 0;
          if (dom.sliceCount >= remaining[0]) {
            dom.podCount = remaining[0] * size;
            dom.sliceCount = remaining[0];
            result.add(dom);
            return result;
          }
          dom.podCount = dom.sliceCount * size;
          remaining[0] -= dom.sliceCount;
          result.add(dom);
          continue;
        }
        if (bestFit() && dom.podCount >= remaining[0]) {
          dom = findBestFitDomain(domains.subList(i, domains.size()), remaining[0], 0);
        }
        dom.leaderCount = 0;
        if (dom.podCount >= remaining[0]) {
          dom.podCount = remaining[0];
          result.add(dom);
          return result;
        }
        remaining[0] -= dom.podCount;
        result.add(dom);
      }
      // Kueue logs "code assumptions violated" here and goes on with no domains.
      return List.of();
    }

    /**
     * Kueue's {@code consumeWithLeadersGeneric}; {@code remaining} is {pods or slices, leaders}. Marks completion by
     * setting {@code remaining[0]} to -1.
     */
    private Domain consumeWithLeaders(Domain domain, List<Domain> remainingDomains, int[] remaining, int size,
        boolean slices) {
      if (bestFit() && withLeader(domain, slices) >= remaining[0] && domain.leaderCount >= remaining[1]) {
        domain = slices ? findBestFitDomainForSlices(remainingDomains, remaining[0], remaining[1])
            : findBestFitDomain(remainingDomains, remaining[0], remaining[1]);
      }
      if (withLeader(domain, slices) >= remaining[0] && domain.leaderCount >= remaining[1]) {
        setPrimary(domain, slices, remaining[0]);
        domain.leaderCount = remaining[1];
        domain.podCount = remaining[0] * size;
        remaining[0] = -1;
        return domain;
      }
      if (withLeader(domain, slices) > remaining[0]) {
        setWithLeader(domain, slices, remaining[0]);
      }
      if (domain.leaderCount > remaining[1]) {
        domain.leaderCount = remaining[1];
      }
      int w = withLeader(domain, slices);
      setPrimary(domain, slices, w);
      domain.podCount = w * size;
      remaining[1] -= domain.leaderCount;
      remaining[0] -= w;
      return domain;
    }

    // ---- ordering and results -------------------------------------------------------------------------------------

    private List<Domain> sortedDomainsWithLeader(List<Domain> domains) {
      return TopologyAssigner.sortedDomainsWithLeader(domains, !bestFit());
    }

    private List<Domain> sortedDomains(List<Domain> domains) {
      return TopologyAssigner.sortedDomains(domains, !bestFit());
    }

    private TopologyAssignment buildAssignment(List<Domain> domains) {
      List<Domain> sorted = new ArrayList<>(domains);
      sorted.sort(TopologyAssigner::compareLevelValues);
      int levelIdx = tree.lowestLevelIsNode ? tree.levelKeys.size() - 1 : 0;
      List<TopologyAssignment.Domain> out = new ArrayList<>();
      for (Domain d : sorted) {
        if (d.podCount == 0) {
          continue;
        }
        out.add(new TopologyAssignment.Domain(d.levelValues.subList(levelIdx, d.levelValues.size()), d.podCount));
      }
      return new TopologyAssignment(tree.levelKeys.subList(levelIdx, tree.levelKeys.size()), out);
    }

    private String notFitMessage(int fitCount, int totalCount) {
      String unit = sliceSize == 1 ? "pod" : "slice";
      StringBuilder b = new StringBuilder();
      if (fitCount == 0) {
        b.append("topology \"").append(tree.topologyName).append("\" doesn't allow to fit any of ").append(totalCount)
            .append(' ').append(unit).append("(s)");
      } else {
        b.append("topology \"").append(tree.topologyName).append("\" allows to fit only ").append(fitCount)
            .append(" out of ").append(totalCount).append(' ').append(unit).append("(s)");
      }
      appendStats(b);
      return b.toString();
    }

    private void appendStats(StringBuilder b) {
      if (stats.hasExclusions()) {
        b.append(". Total nodes: ").append(stats.totalNodes).append("; excluded: ").append(stats.formatReasons());
      }
    }

    private String multiLayerNotFitMessage(int levelIdx) {
      StringBuilder b = new StringBuilder("topology \"" + tree.topologyName + "\" doesn't allow to fit");
      Domain best = null;
      for (Domain d : tree.domainsPerLevel.get(levelIdx).values()) {
        if (best == null || d.sliceCount > best.sliceCount
            || (d.sliceCount == best.sliceCount && d.id.compareTo(best.id) < 0)) {
          best = d;
        }
      }
      if (best == null) {
        return b.toString();
      }
      for (SliceConstraint c : multiLayerConstraints) {
        int target = tree.levelKeys.indexOf(c.topology());
        if (target < 0) {
          continue;
        }
        b.append("; ").append(countSlicesInSubtree(best, levelIdx, target, c.size())).append('/')
            .append(count / c.size()).append(" slice(s) fit on level ").append(c.topology());
      }
      appendStats(b);
      return b.toString();
    }

    private int countSlicesInSubtree(Domain d, int level, int target, int size) {
      if (level == target) {
        return d.podCount / size;
      }
      int total = 0;
      for (Domain child : d.children) {
        total += countSlicesInSubtree(child, level + 1, target, size);
      }
      return total;
    }

    private String lowestLevel() {
      return tree.levelKeys.get(tree.levelKeys.size() - 1);
    }
  }

  /**
   * Kueue's {@code sortedDomainsWithLeader}: domains that can host the leader first; then BestFit by slice count with
   * the leader descending, LeastFreeCapacity ascending; then pod count with the leader ascending; then level values.
   */
  static List<Domain> sortedDomainsWithLeader(List<Domain> domains, boolean leastFreeCapacity) {
    List<Domain> result = new ArrayList<>(domains);
    result.sort((a, b) -> {
      if (a.leaderCount != b.leaderCount) {
        return Integer.compare(b.leaderCount, a.leaderCount);
      }
      if (a.sliceCountWithLeader != b.sliceCountWithLeader) {
        return leastFreeCapacity ? Integer.compare(a.sliceCountWithLeader, b.sliceCountWithLeader)
            : Integer.compare(b.sliceCountWithLeader, a.sliceCountWithLeader);
      }
      if (a.podCountWithLeader != b.podCountWithLeader) {
        return Integer.compare(a.podCountWithLeader, b.podCountWithLeader);
      }
      return compareLevelValues(a, b);
    });
    return result;
  }

  /**
   * Kueue's {@code sortedDomains}: BestFit by slice count descending, LeastFreeCapacity ascending; then pod count
   * ascending (the tightest domain first), then level values.
   */
  static List<Domain> sortedDomains(List<Domain> domains, boolean leastFreeCapacity) {
    List<Domain> result = new ArrayList<>(domains);
    result.sort((a, b) -> {
      if (a.sliceCount != b.sliceCount) {
        return leastFreeCapacity ? Integer.compare(a.sliceCount, b.sliceCount)
            : Integer.compare(b.sliceCount, a.sliceCount);
      }
      if (a.podCount != b.podCount) {
        return Integer.compare(a.podCount, b.podCount);
      }
      return compareLevelValues(a, b);
    });
    return result;
  }

  /**
   * Whether the topology has every level {@code request} names (Kueue's {@code HasLevel}): its required, preferred
   * or (for a slices-only request) highest level, or for an unconstrained request the lowest, and every slice level.
   * A {@code null} or empty request names no level.
   */
  public boolean hasLevel(@Nullable PodSetTopologyRequest request) {
    return hasLevel(tree.levelKeys, request);
  }

  /** {@link #hasLevel(PodSetTopologyRequest)} for a topology of {@code levels}. */
  static boolean hasLevel(List<String> levels, @Nullable PodSetTopologyRequest request) {
    if (request == null) {
      return false;
    }
    String main;
    if (request.required() != null) {
      main = request.required();
    } else if (request.preferred() != null) {
      main = request.preferred();
    } else if (!request.sliceConstraints().isEmpty()) {
      main = levels.get(0);
    } else if (request.unconstrained()) {
      main = levels.get(levels.size() - 1);
    } else {
      return false;
    }
    if (!levels.contains(main)) {
      return false;
    }
    for (SliceConstraint c : request.sliceConstraints()) {
      if (!levels.contains(c.topology())) {
        return false;
      }
    }
    return true;
  }

  /**
   * {@code a} and {@code b} as one assignment, domains in the order of their full level values and a domain in both
   * counted once with both counts (Kueue's {@code mergeTopologyAssignments}, which joins a replacement to what is
   * left of an assignment). Every domain must be a leaf of this topology.
   *
   * @throws IllegalArgumentException if a domain is not a leaf of the topology
   */
  public TopologyAssignment merge(TopologyAssignment a, TopologyAssignment b) {
    List<TopologyAssignment.Domain> all = new ArrayList<>(a.domains());
    all.addAll(b.domains());
    Map<String, Domain> leaves = tree.domainsPerLevel.get(tree.levelKeys.size() - 1);
    for (TopologyAssignment.Domain d : all) {
      if (!leaves.containsKey(TopologyTree.domainId(d.values()))) {
        throw new IllegalArgumentException("topology " + tree.topologyName + ": domain " + d.values()
            + " is not a domain of the lowest level " + tree.levelKeys.get(tree.levelKeys.size() - 1));
      }
    }
    all.sort((x, y) -> TopologyTree.domainId(leaves.get(TopologyTree.domainId(x.values())).levelValues)
        .compareTo(TopologyTree.domainId(leaves.get(TopologyTree.domainId(y.values())).levelValues)));
    List<TopologyAssignment.Domain> merged = new ArrayList<>();
    for (TopologyAssignment.Domain d : all) {
      int last = merged.size() - 1;
      if (last >= 0 && merged.get(last).values().equals(d.values())) {
        merged.set(last, new TopologyAssignment.Domain(d.values(), merged.get(last).count() + d.count()));
      } else {
        merged.add(d);
      }
    }
    return new TopologyAssignment(a.levels(), merged);
  }

  /**
   * Adds what {@code assignment}'s pods, each requesting {@code singlePodRequests}, use to {@code usage} per domain id
   * (Kueue's {@code addAssumedUsage}: {@code count × requests} and {@code pods: count}).
   */
  public static void addUsage(Map<String, ResourceList> usage, TopologyAssignment assignment,
      ResourceList singlePodRequests) {
    assignment.usagePerDomain(singlePodRequests).forEach((id, u) -> usage.merge(id, u, ResourceList::add));
  }

  /** Lexicographic order of the domains' level values (Kueue's {@code compareDomainLevelValues}). */
  static int compareLevelValues(Domain a, Domain b) {
    int n = Math.min(a.levelValues.size(), b.levelValues.size());
    for (int i = 0; i < n; i++) {
      int c = a.levelValues.get(i).compareTo(b.levelValues.get(i));
      if (c != 0) {
        return c;
      }
    }
    return Integer.compare(a.levelValues.size(), b.levelValues.size());
  }

  /**
   * What {@code pods} use per node as Kueue's non-TAS usage cache counts it: every pod bound to a node and not
   * terminated, its effective requests plus one {@code pods}.
   */
  public static Map<String, ResourceList> usedByPods(Collection<Pod> pods) {
    Map<String, ResourceList> out = new TreeMap<>();
    ResourceList onePod = ResourceList.builder().put(ResourceNames.PODS, "1").build();
    for (Pod p : pods) {
      if (!p.isBound() || p.isTerminal()) {
        continue;
      }
      out.merge(p.spec().nodeName(), p.effectiveRequests().add(onePod), ResourceList::add);
    }
    return out;
  }

  /** {@code requests} with one {@code pods}, in Kueue's units. */
  private static Map<String, Long> withOnePod(ResourceList requests) {
    Map<String, Long> out = TopologyTree.units(requests);
    out.merge(ResourceNames.PODS, 1L, Long::sum);
    return out;
  }

  /**
   * How many times {@code requests} fit in {@code capacity} (Kueue's {@code CountInWithLimitingResource}); a zero
   * request does not limit, a negative free value counts as none. {@code limiting[0]}, when given, gets the resource
   * that gives the minimum (the first by name on a tie).
   */
  static int countIn(Map<String, Long> requests, Map<String, Long> capacity, String @Nullable [] limiting) {
    long result = -1;
    String limit = null;
    for (Map.Entry<String, Long> e : new TreeMap<>(requests).entrySet()) {
      long v = e.getValue();
      long c;
      if (v == 0) {
        c = Integer.MAX_VALUE;
      } else {
        c = Math.max(0, Math.min(capacity.getOrDefault(e.getKey(), 0L) / v, Integer.MAX_VALUE));
      }
      if (result < 0 || c < result) {
        result = c;
        limit = e.getKey();
      }
    }
    if (limiting != null) {
      limiting[0] = limit;
    }
    return result < 0 ? 0 : (int) result;
  }
}
