package io.fleetkit.queueing.internal;

import io.fleetkit.api.scheduling.NodeSelector;
import io.fleetkit.api.scheduling.NodeSelectorRequirement;
import io.fleetkit.api.scheduling.NodeSelectorTerm;
import io.fleetkit.api.scheduling.RequiredNodeAffinity;
import io.fleetkit.api.scheduling.Taint;
import io.fleetkit.api.scheduling.Taints;
import io.fleetkit.api.scheduling.Toleration;
import io.fleetkit.queueing.PodSet;
import io.fleetkit.queueing.ResourceFlavor;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Whether a pod set's pods could run on a flavor's nodes, as Kueue's flavor assigner checks before it looks at quota
 * ({@code checkFlavorForPodSets} and {@code flavorSelector} in {@code pkg/scheduler/flavorassigner}):
 *
 * <ul>
 *   <li>the pods' tolerations, with the flavor's own, must tolerate every {@code NoSchedule} and {@code NoExecute}
 *       taint of the flavor;
 *   <li>the pods' node selector and required node affinity must match the flavor's node labels, looking only at the
 *       label keys the flavor itself defines: other keys are for the pod scheduler to match against nodes (newer
 *       Kueue; older releases looked at the keys of every flavor in the resource group). A required-affinity term
 *       left with no requirement matches every flavor (the terms are ORed), so the affinity is then dropped;
 *       {@code matchFields} are always dropped.
 * </ul>
 */
final class FlavorConstraints {
  private FlavorConstraints() {}

  /** Why {@code flavor} cannot serve {@code podSet}, in Kueue's words, or {@code null} when it can. */
  static @Nullable String mismatch(ResourceFlavor flavor, PodSet podSet) {
    if (!flavor.nodeTaints().isEmpty()) {
      List<Toleration> tolerations = podSet.tolerations();
      if (!flavor.tolerations().isEmpty()) {
        tolerations = new ArrayList<>(tolerations);
        tolerations.addAll(flavor.tolerations());
      }
      Optional<Taint> untolerated = Taints.findMatchingUntoleratedTaint(flavor.nodeTaints(), tolerations,
          Taints.NO_SCHEDULE_OR_NO_EXECUTE);
      if (untolerated.isPresent()) {
        return "untolerated taint " + goString(untolerated.get()) + " in flavor " + flavor.name();
      }
    }
    if (podSet.constrainsNodes() && !selector(podSet, flavor.nodeLabels().keySet()).match("", flavor.nodeLabels())) {
      return "flavor " + flavor.name() + " doesn't match node affinity";
    }
    return null;
  }

  /** The pod set's node constraints on {@code allowedKeys} only (Kueue's {@code flavorSelector}). */
  static RequiredNodeAffinity selector(PodSet podSet, Set<String> allowedKeys) {
    Map<String, String> nodeSelector = new HashMap<>();
    podSet.nodeSelector().forEach((k, v) -> {
      if (allowedKeys.contains(k)) {
        nodeSelector.put(k, v);
      }
    });
    NodeSelector required = podSet.requiredNodeAffinity();
    List<NodeSelectorTerm> terms = new ArrayList<>();
    if (required != null) {
      for (NodeSelectorTerm t : required.nodeSelectorTerms()) {
        List<NodeSelectorRequirement> kept = new ArrayList<>();
        for (NodeSelectorRequirement r : t.matchExpressions()) {
          if (allowedKeys.contains(r.key())) {
            kept.add(r);
          }
        }
        if (kept.isEmpty()) {
          terms.clear(); // this term matches every flavor, and the terms are ORed
          break;
        }
        terms.add(new NodeSelectorTerm(kept, List.of()));
      }
    }
    return RequiredNodeAffinity.of(nodeSelector, terms.isEmpty() ? null
        : new io.fleetkit.api.scheduling.NodeAffinity(new NodeSelector(terms), List.of()));
  }

  /** A taint as Go's {@code %s} prints a {@code corev1.Taint} value: {@code {key value effect <nil>}}. */
  static String goString(Taint t) {
    return "{" + t.key() + " " + t.value() + " " + t.effect() + " "
        + (t.timeAdded() == null ? "<nil>" : t.timeAdded().toString()) + "}";
  }
}
