package io.fleetkit.api.scheduling;

import java.util.List;

/** Requirements ANDed together; a term with no requirements matches nothing (as in Kubernetes). */
public record NodeSelectorTerm(List<NodeSelectorRequirement> matchExpressions,
    List<NodeSelectorRequirement> matchFields) {
  public NodeSelectorTerm {
    matchExpressions = List.copyOf(matchExpressions);
    matchFields = List.copyOf(matchFields);
  }
}
