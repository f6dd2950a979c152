package io.fleetkit.scheduler.plugins.interpodaffinity;

import static io.fleetkit.scheduler.plugins.interpodaffinity.InterPodAffinityPlugin.LABEL_HOSTNAME;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.PodInfo;
import java.util.List;
import java.util.Map;

/**
 * The per-node bodies of upstream's filtering.go: counting matches into a {@link PreFilterState} (PreFilter) and the
 * three checks of Filter. The checks only read the state and do not allocate.
 */
final class Filtering {
  private Filtering() {}

  /** Counts the node's pods' non-hostname required anti-affinity terms that match the incoming pod. */
  static void countExistingAntiAffinity(PreFilterState s, NodeInfo node) {
    List<PodInfo> pods = node.podsWithRequiredAntiAffinity();
    for (int j = 0, m = pods.size(); j < m; j++) {
      Pod existing = pods.get(j).pod();
      if (!PodTerms.hasNonHostScopedRequiredAntiAffinity(existing)) {
        continue;
      }
      for (AffinityTerm t : PodTerms.of(existing).requiredAntiAffinity) {
        if (!t.hostScoped && t.matches(s.pod, s.ownNamespace)) {
          s.existingAntiAffinityCounts.update(node.labels(), t.topologyKey, 1);
        }
      }
    }
  }

  /** Counts existing pods matching the incoming pod's non-hostname terms (getIncomingAffinityAntiAffinityCounts). */
  static void countIncoming(PreFilterState s, List<NodeInfo> nodes) {
    for (int i = 0, n = nodes.size(); i < n; i++) {
      NodeInfo node = nodes.get(i);
      List<PodInfo> pods = node.pods();
      for (int j = 0, m = pods.size(); j < m; j++) {
        Pod existing = pods.get(j).pod();
        if (PreFilterState.matchesAll(s.allAffinity, existing, s.incomingNamespaces)) {
          for (AffinityTerm t : s.allAffinity) {
            s.affinityCounts.update(node.labels(), t.topologyKey, 1);
          }
        }
        for (AffinityTerm t : s.nonHostScopedAntiAffinity) {
          if (t.matches(existing, s.incomingNamespaces)) {
            s.antiAffinityCounts.update(node.labels(), t.topologyKey, 1);
          }
        }
      }
    }
  }

  /**
   * Whether a pod on a node with a hostname label matches all of {@code terms} (only such pods would be counted by
   * the topology-pair path, which this keeps equivalent to).
   */
  static boolean anyPodMatchesAll(List<AffinityTerm> terms, PreFilterState s, List<NodeInfo> nodes) {
    for (int i = 0, n = nodes.size(); i < n; i++) {
      if (!nodes.get(i).labels().containsKey(LABEL_HOSTNAME)) {
        continue;
      }
      List<PodInfo> pods = nodes.get(i).pods();
      for (int j = 0, m = pods.size(); j < m; j++) {
        if (PreFilterState.matchesAll(terms, pods.get(j).pod(), s.incomingNamespaces)) {
          return true;
        }
      }
    }
    return false;
  }

  static boolean nodePodsSatisfyAffinity(PreFilterState s, NodeInfo node, Map<String, String> labels) {
    if (!labels.containsKey(LABEL_HOSTNAME)) {
      return false; // all topology labels must exist on the node
    }
    List<PodInfo> pods = node.pods();
    for (int i = 0, n = pods.size(); i < n; i++) {
      if (PreFilterState.matchesAll(s.hostScopedAffinity, pods.get(i).pod(), s.incomingNamespaces)) {
        return true;
      }
    }
    return !s.hasMatchingHostScopedAffinityPodGlobally && s.matchesOwnAffinity;
  }

  static boolean nodeTopologyMatchesAffinity(PreFilterState s, Map<String, String> labels) {
    boolean podsExist = true;
    for (int i = 0, n = s.allAffinity.size(); i < n; i++) {
      AffinityTerm t = s.allAffinity.get(i);
      String value = labels.get(t.topologyKey);
      if (value == null) {
        return false; // all topology labels must exist on the node
      }
      if (s.affinityCounts.get(t.topologyKey, value) <= 0) {
        podsExist = false;
      }
    }
    // The first pod of a group with affinity to itself: nothing in the cluster matches yet, the pod matches its
    // own terms and the node has every topology key, so it may go anywhere.
    return podsExist || (s.affinityCounts.isEmpty() && s.matchesOwnAffinity);
  }

  static boolean nodeTopologyConflictsWithAntiAffinity(PreFilterState s, Map<String, String> labels) {
    if (s.antiAffinityCounts.isEmpty()) {
      return false;
    }
    for (int i = 0, n = s.nonHostScopedAntiAffinity.size(); i < n; i++) {
      AffinityTerm t = s.nonHostScopedAntiAffinity.get(i);
      String value = labels.get(t.topologyKey);
      if (value != null && s.antiAffinityCounts.get(t.topologyKey, value) > 0) {
        return true;
      }
    }
    return false;
  }

  static boolean nodePodsConflictWithAntiAffinity(PreFilterState s, NodeInfo node, Map<String, String> labels) {
    if (s.hostScopedAntiAffinity.isEmpty() || !labels.containsKey(LABEL_HOSTNAME)) {
      return false;
    }
    List<PodInfo> pods = node.pods();
    for (int k = 0, terms = s.hostScopedAntiAffinity.size(); k < terms; k++) {
      AffinityTerm t = s.hostScopedAntiAffinity.get(k);
      for (int i = 0, n = pods.size(); i < n; i++) {
        if (t.matches(pods.get(i).pod(), s.incomingNamespaces)) {
          return true;
        }
      }
    }
    return false;
  }

  static boolean satisfiesExistingPodsAntiAffinity(PreFilterState s, NodeInfo node,
      Map<String, String> labels) {
    if (s.existingAntiAffinityCounts.anyPositive(labels)) {
      return false;
    }
    List<PodInfo> pods = node.podsWithRequiredAntiAffinity();
    if (pods.isEmpty() || !labels.containsKey(LABEL_HOSTNAME)) {
      return true;
    }
    for (int i = 0, n = pods.size(); i < n; i++) {
      List<AffinityTerm> terms = PodTerms.of(pods.get(i).pod()).requiredAntiAffinity;
      for (int k = 0, m = terms.size(); k < m; k++) {
        AffinityTerm t = terms.get(k);
        if (t.hostScoped && t.matches(s.pod, s.ownNamespace)) {
          return false;
        }
      }
    }
    return true;
  }
}
