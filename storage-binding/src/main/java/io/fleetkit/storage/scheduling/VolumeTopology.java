package io.fleetkit.storage.scheduling;

import io.fleetkit.api.core.PersistentVolume;
import io.fleetkit.api.core.VolumeNodeAffinity;
import io.fleetkit.api.scheduling.NodeSelectorOperator;
import io.fleetkit.api.scheduling.NodeSelectorRequirement;
import io.fleetkit.api.scheduling.NodeSelectorTerm;
import io.fleetkit.storage.TopologyLabels;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** The zones a volume lives in, from its zone label or its node affinity. */
final class VolumeTopology {
  private VolumeTopology() {}

  /**
   * The zones of {@code pv}: its {@link TopologyLabels#ZONE} (or beta) label, split on {@code __}; else the values of a
   * single-term node affinity's {@code zone In [...]}; else empty (anywhere).
   */
  static Set<String> zones(PersistentVolume pv) {
    String label = pv.metadata().labels().get(TopologyLabels.ZONE);
    if (label == null) {
      label = pv.metadata().labels().get(TopologyLabels.BETA_ZONE);
    }
    if (label != null) {
      return Set.of(label.split("__"));
    }
    VolumeNodeAffinity a = pv.spec().nodeAffinity();
    if (a == null || a.required().nodeSelectorTerms().size() != 1) {
      return Set.of();
    }
    NodeSelectorTerm term = a.required().nodeSelectorTerms().get(0);
    for (NodeSelectorRequirement r : term.matchExpressions()) {
      if (r.operator() == NodeSelectorOperator.In
          && (r.key().equals(TopologyLabels.ZONE) || r.key().equals(TopologyLabels.BETA_ZONE))) {
        return new LinkedHashSet<>(List.copyOf(r.values()));
      }
    }
    return Set.of();
  }
}
