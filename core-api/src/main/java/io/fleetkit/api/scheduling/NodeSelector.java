package io.fleetkit.api.scheduling;

import java.util.List;

/** Terms ORed together ({@code requiredDuringSchedulingIgnoredDuringExecution}). */
public record NodeSelector(List<NodeSelectorTerm> nodeSelectorTerms) {
  public NodeSelector {
    nodeSelectorTerms = List.copyOf(nodeSelectorTerms);
  }
}
