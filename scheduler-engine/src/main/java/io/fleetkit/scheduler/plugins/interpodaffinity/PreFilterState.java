package io.fleetkit.scheduler.plugins.interpodaffinity;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.PodInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import io.fleetkit.scheduler.nodetable.NodeTable;

/**
 * What PreFilter computes for Filter (upstream {@code preFilterState}): the incoming pod's terms split by scope, the
 * counts per topology pair, and the namespace labels used for matching. Read-only once written to the cycle state;
 * AddPod/RemovePod work on a {@link #copy()}.
 */
final class PreFilterState {
  final Pod pod;
  final PodTerms terms;
  /** Looks up namespaces for the incoming pod's terms (memoized for the cycle). */
  final AffinityTerm.NamespaceLabels incomingNamespaces;
  /** The incoming pod's namespace labels, for the existing pods' terms. */
  final AffinityTerm.NamespaceLabels ownNamespace;
  /** All required affinity terms when all of them are hostname-scoped (checked node-locally), else empty. */
  final List<AffinityTerm> hostScopedAffinity;
  /** All required affinity terms when some is not hostname-scoped (checked through {@link #affinityCounts}). */
  final List<AffinityTerm> allAffinity;
  final List<AffinityTerm> hostScopedAntiAffinity;
  final List<AffinityTerm> nonHostScopedAntiAffinity;
  /** Pairs of the existing pods' (non-hostname) required anti-affinity terms that match the incoming pod. */
  final TopologyCounts existingAntiAffinityCounts;
  /** Pairs of existing pods that match all of {@link #allAffinity}, one count per term. */
  final TopologyCounts affinityCounts;
  /** Pairs of existing pods that match a term of {@link #nonHostScopedAntiAffinity}. */
  final TopologyCounts antiAffinityCounts;
  /** Whether some existing pod matches all of {@link #hostScopedAffinity}. */
  boolean hasMatchingHostScopedAffinityPodGlobally;
  /**
   * Filter's table path, set by PreFilter when the snapshot has a node table and the checks reduce to per-position
   * reads; {@code null} otherwise (and in every {@link #copy()}: AddPod/RemovePod change what it summarizes).
   */
  @Nullable TablePath tablePath;
  /** Whether the incoming pod matches all its own required affinity terms (the "first pod of a group" case). */
  final boolean matchesOwnAffinity;

  PreFilterState(Pod pod, PodTerms terms, AffinityTerm.NamespaceLabels incomingNamespaces,
      Map<String, String> namespaceLabels) {
    this.pod = pod;
    this.terms = terms;
    this.incomingNamespaces = incomingNamespaces;
    this.ownNamespace = AffinityTerm.NamespaceLabels.constant(namespaceLabels);
    boolean allHostScoped = true;
    for (AffinityTerm t : terms.requiredAffinity) {
      allHostScoped &= t.hostScoped;
    }
    this.hostScopedAffinity = allHostScoped ? terms.requiredAffinity : List.of();
    this.allAffinity = allHostScoped ? List.of() : terms.requiredAffinity;
    List<AffinityTerm> host = new ArrayList<>(0);
    List<AffinityTerm> other = new ArrayList<>(0);
    for (AffinityTerm t : terms.requiredAntiAffinity) {
      (t.hostScoped ? host : other).add(t);
    }
    this.hostScopedAntiAffinity = List.copyOf(host);
    this.nonHostScopedAntiAffinity = List.copyOf(other);
    this.existingAntiAffinityCounts = new TopologyCounts();
    this.affinityCounts = new TopologyCounts();
    this.antiAffinityCounts = new TopologyCounts();
    this.matchesOwnAffinity = matchesAll(terms.requiredAffinity, pod, incomingNamespaces);
  }

  private PreFilterState(PreFilterState o) {
    this.pod = o.pod;
    this.terms = o.terms;
    this.incomingNamespaces = o.incomingNamespaces;
    this.ownNamespace = o.ownNamespace;
    this.hostScopedAffinity = o.hostScopedAffinity;
    this.allAffinity = o.allAffinity;
    this.hostScopedAntiAffinity = o.hostScopedAntiAffinity;
    this.nonHostScopedAntiAffinity = o.nonHostScopedAntiAffinity;
    this.existingAntiAffinityCounts = o.existingAntiAffinityCounts.copy();
    this.affinityCounts = o.affinityCounts.copy();
    this.antiAffinityCounts = o.antiAffinityCounts.copy();
    this.hasMatchingHostScopedAffinityPodGlobally = o.hasMatchingHostScopedAffinityPodGlobally;
    this.matchesOwnAffinity = o.matchesOwnAffinity;
  }

  /**
   * What Filter needs per node position when the incoming pod has no required affinity and no topology-pair count
   * applies: whether a pod on the node matches a hostname-scoped anti-affinity term ({@code hostAntiMatch}, read only
   * and possibly shared with other cycles, positions past its end matching none; null when there is no such term) and the hostname label's numbering (a node without the label passes those terms). A node
   * holding pods with required anti-affinity ({@link NodeTable#hasRequiredAntiAffinityPods}) when some existing pod
   * has a hostname-scoped one is checked on its view.
   */
  record TablePath(NodeTable table, NodeTable.Domains hostnames, boolean @Nullable [] hostAntiMatch,
      boolean checkExistingHostAnti) {}

  PreFilterState copy() {
    return new PreFilterState(this);
  }

  /** Updates the counts as if {@code other} were added to (+1) or removed from (-1) {@code node}. */
  void updateWithPod(PodInfo other, NodeInfo node, int multiplier) {
    Map<String, String> labels = node.labels();
    Pod otherPod = other.pod();
    for (AffinityTerm t : PodTerms.of(otherPod).requiredAntiAffinity) {
      if (t.matches(pod, ownNamespace)) {
        existingAntiAffinityCounts.update(labels, t.topologyKey, multiplier);
      }
    }
    if (matchesAll(allAffinity, otherPod, incomingNamespaces)) {
      for (AffinityTerm t : allAffinity) {
        affinityCounts.update(labels, t.topologyKey, multiplier);
      }
    }
    for (AffinityTerm t : nonHostScopedAntiAffinity) {
      if (t.matches(otherPod, incomingNamespaces)) {
        antiAffinityCounts.update(labels, t.topologyKey, multiplier);
      }
    }
  }

  /** Whether {@code terms} is non-empty and {@code target} matches all of them (podMatchesAllAffinityTerms). */
  static boolean matchesAll(List<AffinityTerm> terms, Pod target, AffinityTerm.NamespaceLabels ns) {
    if (terms.isEmpty()) {
      return false;
    }
    for (int i = 0, n = terms.size(); i < n; i++) {
      if (!terms.get(i).matches(target, ns)) {
        return false;
      }
    }
    return true;
  }
}
