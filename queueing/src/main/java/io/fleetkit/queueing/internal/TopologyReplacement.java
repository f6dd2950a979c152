package io.fleetkit.queueing.internal;

import io.fleetkit.queueing.PodSetTopologyRequest;
import io.fleetkit.queueing.PodSetTopologyRequest.SliceConstraint;
import io.fleetkit.queueing.TopologyAssignment;
import io.fleetkit.queueing.internal.TopologyTree.Domain;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Kueue's {@code findReplacementAssignment} (kubernetes-sigs/kueue {@code pkg/cache/scheduler/tas_flavor_snapshot.go}):
 * where the pods a pod set had on an unhealthy node go, the rest of its topology assignment kept.
 *
 * <ol>
 *   <li>The unhealthy node's domain is taken out of the assignment; its pods are the ones to place.
 *   <li>If a domain left names a node the topology no longer has (deleted, not Ready, unschedulable), the assignment
 *       is stale and cannot be repaired.
 *   <li>The replacement must stay in one domain ({@code requiredReplacementDomain}): for a pod set with slices whose
 *       placed pods no longer make whole slices, the slice-level domain (of the innermost broken constraint) whose
 *       pods and the missing ones make whole slices again; for a required level, the domain of that level of the
 *       first node left; otherwise (preferred, unconstrained, or no node left) none.
 *   <li>If slices are broken, the replacement's pods are grouped by the innermost constraint whose size divides
 *       their number, or not at all.
 *   <li>The pods are placed by the usual algorithm on the leaves of that domain, against the nodes' current room
 *       (which the workload's own pods on the other nodes take), and merged into the rest, sorted by the domains'
 *       full level values.
 * </ol>
 *
 * Not thread-safe; one instance per pod set and attempt.
 */
final class TopologyReplacement {
  private final TopologyAssigner assigner;
  private final TopologyTree tree;
  private final TopologyAssigner.Request request;
  private final TopologyAssignment existing;
  private final String unhealthyNode;

  TopologyReplacement(TopologyAssigner assigner, TopologyAssigner.Request request, TopologyAssignment existing,
      String unhealthyNode) {
    this.assigner = assigner;
    this.tree = assigner.tree;
    this.request = request;
    this.existing = existing;
    this.unhealthyNode = unhealthyNode;
  }

  TopologyAssigner.Result find() {
    List<TopologyAssignment.Domain> kept = new ArrayList<>();
    int count = 0;
    for (TopologyAssignment.Domain d : existing.domains()) {
      if (d.values().get(d.values().size() - 1).equals(unhealthyNode)) {
        count = d.count();
      } else {
        kept.add(d);
      }
    }
    String stale = staleDomain(tree, kept);
    if (stale != null) {
      return fail("Cannot replace the node, because the existing topologyAssignment is invalid, as it contains the "
          + "stale domain " + stale);
    }
    PodSetTopologyRequest tr = request.topologyRequest();
    List<SliceConstraint> constraints = tr == null ? List.of() : tr.sliceConstraints();
    int sliceSize = constraints.isEmpty() ? 1 : constraints.get(0).size();
    if (sliceSize <= 0) {
      return fail("slice topology requested, but slice size not provided");
    }
    String required = requiredDomain(kept, count, constraints, sliceSize);
    if (!constraints.isEmpty() && !required.isEmpty() && count % sliceSize != 0) {
      tr = tr.withSliceConstraints(innermostDividing(constraints, count));
    }
    TopologyAssigner.Request replacement = new TopologyAssigner.Request(request.podSetName(),
        request.singlePodRequests(), count, tr, request.nodeSelector(), request.requiredNodeAffinity(),
        request.tolerations());
    TopologyAssigner.Result r = assigner.assignWithin(replacement, required);
    if (!r.fits()) {
      return r;
    }
    TopologyAssignment found = r.assignment();
    if (found == null || found.domains().isEmpty()) {
      return fail("cannot find replacement assignment for unhealthy node: " + unhealthyNode);
    }
    return new TopologyAssigner.Result(merge(found, kept), "");
  }

  private static TopologyAssigner.Result fail(String reason) {
    return new TopologyAssigner.Result(null, reason);
  }

  /** Kueue's {@code requiredReplacementDomain}: the domain the replacement must stay in, or empty for none. */
  private String requiredDomain(List<TopologyAssignment.Domain> kept, int count, List<SliceConstraint> constraints,
      int sliceSize) {
    PodSetTopologyRequest tr = request.topologyRequest();
    String key = levelKey(tr);
    int levelIdx = key == null ? -1 : tree.levelKeys.indexOf(key);
    if (levelIdx < 0 || kept.isEmpty()) {
      return "";
    }
    if (!constraints.isEmpty() && count % sliceSize != 0) {
      if (constraints.size() > 1) {
        for (int i = constraints.size() - 1; i >= 0; i--) {
          SliceConstraint c = constraints.get(i);
          if (count % c.size() != 0) {
            return incompleteSliceDomain(kept, count, c.size(), c.topology());
          }
        }
      }
      return incompleteSliceDomain(kept, count, sliceSize, constraints.get(0).topology());
    }
    if (tr == null || tr.required() == null) {
      return "";
    }
    Domain d = leafOf(kept.get(0));
    if (d == null) {
      return "";
    }
    for (int i = tree.levelKeys.size() - 1; i > levelIdx && d.parent != null; i--) {
      d = d.parent;
    }
    return d.id;
  }

  /** Kueue's {@code levelKeyWithImpliedFallback}: the level the request names, the lowest one when implied. */
  private @Nullable String levelKey(@Nullable PodSetTopologyRequest tr) {
    String lowest = tree.levelKeys.get(tree.levelKeys.size() - 1);
    if (tr == null) {
      return lowest;
    }
    if (tr.required() != null) {
      return tr.required();
    }
    if (tr.preferred() != null) {
      return tr.preferred();
    }
    if (!tr.sliceConstraints().isEmpty()) {
      return tree.levelKeys.get(0);
    }
    return tr.unconstrained() ? lowest : null;
  }

  /**
   * Kueue's {@code findIncompleteSliceDomain}: the domain of level {@code topologyKey} whose assigned pods and the
   * {@code missing} ones make whole slices of {@code sliceSize} (the first such, in the assignment's order).
   */
  private String incompleteSliceDomain(List<TopologyAssignment.Domain> kept, int missing, int sliceSize,
      String topologyKey) {
    int sliceLevelIdx = tree.levelKeys.indexOf(topologyKey);
    if (sliceLevelIdx < 0) {
      return "";
    }
    Map<String, Integer> podsPerDomain = new LinkedHashMap<>();
    for (TopologyAssignment.Domain assigned : kept) {
      Domain d = leafOf(assigned);
      if (d == null) {
        continue;
      }
      for (int i = tree.levelKeys.size() - 1; i > sliceLevelIdx && d.parent != null; i--) {
        d = d.parent;
      }
      podsPerDomain.merge(d.id, assigned.count(), Integer::sum);
    }
    for (Map.Entry<String, Integer> e : podsPerDomain.entrySet()) {
      if ((e.getValue() + missing) % sliceSize == 0) {
        return e.getKey();
      }
    }
    return "";
  }

  /**
   * The constraint list of the replacement when its pods break slices: the innermost constraint whose size divides
   * {@code count}, or none (Kueue: slice size 1 without a slice level).
   */
  private static List<SliceConstraint> innermostDividing(List<SliceConstraint> constraints, int count) {
    for (int i = constraints.size() - 1; i >= 0; i--) {
      SliceConstraint c = constraints.get(i);
      if (count % c.size() == 0) {
        return List.of(c);
      }
    }
    return List.of();
  }

  /**
   * Kueue's {@code IsTopologyAssignmentStale}: the first value of the first of {@code domains} that names no leaf of
   * {@code tree} (a node deleted, not Ready or unschedulable; with a hostname-lowest topology the leaves are named by
   * the hostname alone, so a value naming an upper domain is stale too), or {@code null} when none is stale.
   */
  static @Nullable String staleDomain(TopologyTree tree, List<TopologyAssignment.Domain> domains) {
    for (TopologyAssignment.Domain d : domains) {
      if (tree.leaves.get(TopologyTree.domainId(d.values())) == null) {
        return d.values().get(0);
      }
    }
    return null;
  }

  /** The leaf an assignment's domain names (its values joined are the leaf's id), or {@code null}. */
  private @Nullable Domain leafOf(TopologyAssignment.Domain d) {
    return tree.leaves.get(TopologyTree.domainId(d.values()));
  }

  /**
   * Kueue's {@code mergeTopologyAssignments}: the domains of both, sorted by the full level values of their leaves,
   * counts of the same domain added.
   */
  private TopologyAssignment merge(TopologyAssignment replacement, List<TopologyAssignment.Domain> kept) {
    List<TopologyAssignment.Domain> all = new ArrayList<>(replacement.domains());
    all.addAll(kept);
    all.sort((a, b) -> fullId(a).compareTo(fullId(b)));
    List<TopologyAssignment.Domain> merged = new ArrayList<>();
    for (TopologyAssignment.Domain d : all) {
      int last = merged.size() - 1;
      if (last >= 0 && merged.get(last).values().equals(d.values())) {
        merged.set(last, new TopologyAssignment.Domain(d.values(), merged.get(last).count() + d.count()));
      } else {
        merged.add(d);
      }
    }
    return new TopologyAssignment(replacement.levels(), merged);
  }

  private String fullId(TopologyAssignment.Domain d) {
    Domain leaf = leafOf(d);
    return leaf == null ? TopologyTree.domainId(d.values()) : TopologyTree.domainId(leaf.levelValues);
  }

  /** Kueue's {@code TopologyDomainID.BelongsTo}: {@code id} is {@code target} or below it; anything for empty. */
  static boolean belongsTo(String id, String target) {
    return target.isEmpty() || id.equals(target) || id.startsWith(target + ",");
  }
}
