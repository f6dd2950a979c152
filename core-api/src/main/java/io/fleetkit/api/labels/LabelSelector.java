package io.fleetkit.api.labels;

import java.util.List;
import java.util.Map;

/**
 * A Kubernetes label selector: {@code matchLabels} and {@code matchExpressions}, all ANDed. An empty selector
 * matches everything (a {@code null} selector, where a field allows one, matches nothing).
 */
public record LabelSelector(Map<String, String> matchLabels, List<LabelSelectorRequirement> matchExpressions) {
  public static final LabelSelector EVERYTHING = new LabelSelector(Map.of(), List.of());

  public LabelSelector {
    matchLabels = Map.copyOf(matchLabels);
    matchExpressions = List.copyOf(matchExpressions);
  }

  public static LabelSelector of(Map<String, String> matchLabels) {
    return new LabelSelector(matchLabels, List.of());
  }
}
