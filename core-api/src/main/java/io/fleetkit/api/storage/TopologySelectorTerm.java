package io.fleetkit.api.storage;

import java.util.List;
import java.util.Map;

/** Requirements ANDed together; the terms of {@code allowedTopologies} are ORed. */
public record TopologySelectorTerm(List<TopologySelectorLabelRequirement> matchLabelExpressions) {
  public TopologySelectorTerm {
    matchLabelExpressions = List.copyOf(matchLabelExpressions);
  }

  public static TopologySelectorTerm of(TopologySelectorLabelRequirement... requirements) {
    return new TopologySelectorTerm(List.of(requirements));
  }

  /** Whether a node with {@code labels} satisfies every requirement of this term. */
  public boolean matches(Map<String, String> labels) {
    for (TopologySelectorLabelRequirement r : matchLabelExpressions) {
      String value = labels.get(r.key());
      if (value == null || !r.values().contains(value)) {
        return false;
      }
    }
    return true;
  }
}
