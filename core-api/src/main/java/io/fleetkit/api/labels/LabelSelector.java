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

  /**
   * STUB (replaced by the full implementation in the labels work): whether {@code labels} satisfy this selector.
   */
  public boolean matches(Map<String, String> labels) {
    for (Map.Entry<String, String> e : matchLabels.entrySet()) {
      if (!e.getValue().equals(labels.get(e.getKey()))) {
        return false;
      }
    }
    for (LabelSelectorRequirement r : matchExpressions) {
      String v = labels.get(r.key());
      boolean ok = switch (r.operator()) {
        case In -> v != null && r.values().contains(v);
        case NotIn -> v == null || !r.values().contains(v);
        case Exists -> v != null;
        case DoesNotExist -> v == null;
      };
      if (!ok) {
        return false;
      }
    }
    return true;
  }

  public static LabelSelector of(Map<String, String> matchLabels) {
    return new LabelSelector(matchLabels, List.of());
  }
}
