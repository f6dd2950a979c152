package io.fleetkit.scheduler.plugins.interpodaffinity;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.PodInfo;
import java.util.List;
import java.util.Map;

/** The per-node body of upstream's scoring.go PreScore ({@code processExistingPod}). */
final class Scoring {
  private Scoring() {}

  /** Adds what {@code pods} on {@code node} contribute (upstream processExistingPod). */
  static void processNode(PreScoreState.Builder scores, PodTerms terms, Pod pod, NodeInfo node, List<PodInfo> pods,
      AffinityTerm.NamespaceLabels incomingNs, AffinityTerm.NamespaceLabels ownNs, int hardPodAffinityWeight) {
    Map<String, String> labels = node.labels();
    if (labels.isEmpty()) {
      return;
    }
    for (int j = 0, m = pods.size(); j < m; j++) {
      Pod existing = pods.get(j).pod();
      addTerms(scores, terms.preferredAffinity, existing, incomingNs, labels, 1);
      addTerms(scores, terms.preferredAntiAffinity, existing, incomingNs, labels, -1);
      if (!PodTerms.hasScoringTerms(existing)) {
        continue;
      }
      PodTerms et = PodTerms.of(existing);
      if (hardPodAffinityWeight > 0) {
        for (AffinityTerm t : et.requiredAffinity) {
          if (t.matches(pod, ownNs)) {
            scores.add(labels, t.topologyKey, hardPodAffinityWeight);
          }
        }
      }
      addTerms(scores, et.preferredAffinity, pod, ownNs, labels, 1);
      addTerms(scores, et.preferredAntiAffinity, pod, ownNs, labels, -1);
    }
  }

  private static void addTerms(PreScoreState.Builder scores, List<AffinityTerm> terms, Pod target,
      AffinityTerm.NamespaceLabels ns, Map<String, String> labels, int multiplier) {
    for (int i = 0, n = terms.size(); i < n; i++) {
      AffinityTerm t = terms.get(i);
      if (t.matches(target, ns)) {
        scores.add(labels, t.topologyKey, (long) t.weight * multiplier);
      }
    }
  }
}
