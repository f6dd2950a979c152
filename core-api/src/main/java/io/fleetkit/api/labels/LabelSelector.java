package io.fleetkit.api.labels;

import io.fleetkit.api.Violation;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * A Kubernetes label selector: {@code matchLabels} and {@code matchExpressions}, all ANDed. An empty selector
 * matches everything (a {@code null} selector, where a field allows one, matches nothing).
 *
 * <p>For repeated matching compile it once with {@link #toSelector()}; {@link #matches} evaluates the record
 * directly and is fine for occasional use.
 */
public record LabelSelector(Map<String, String> matchLabels, List<LabelSelectorRequirement> matchExpressions) {
  public static final LabelSelector EVERYTHING = new LabelSelector(Map.of(), List.of());

  public LabelSelector {
    matchLabels = Map.copyOf(matchLabels);
    matchExpressions = List.copyOf(matchExpressions);
  }

  /**
   * Whether {@code labels} satisfy this selector, with upstream semantics: every {@code matchLabels} pair must be
   * present; In needs the key with one of the values; NotIn matches when the key is absent or has another value;
   * Exists and DoesNotExist test the key. Does not validate: an invalid selector (see {@link #validate}) is evaluated
   * leniently (In without values matches nothing, values of Exists are ignored), whereas {@link #toSelector()}
   * rejects it.
   */
  public boolean matches(Map<String, String> labels) {
    for (Map.Entry<String, String> e : matchLabels.entrySet()) {
      if (!e.getValue().equals(labels.get(e.getKey()))) {
        return false;
      }
    }
    for (int i = 0, n = matchExpressions.size(); i < n; i++) {
      LabelSelectorRequirement r = matchExpressions.get(i);
      boolean ok = switch (r.operator()) {
        case In -> {
          String v = labels.get(r.key());
          yield v != null && r.values().contains(v);
        }
        case NotIn -> {
          String v = labels.get(r.key());
          yield v == null || !r.values().contains(v);
        }
        case Exists -> labels.containsKey(r.key());
        case DoesNotExist -> !labels.containsKey(r.key());
      };
      if (!ok) {
        return false;
      }
    }
    return true;
  }

  /**
   * Compiles this selector (upstream {@code LabelSelectorAsSelector}); see {@link Selector#fromLabelSelector}.
   *
   * @throws IllegalArgumentException if the selector is invalid
   */
  public Selector toSelector() {
    return Selector.fromLabelSelector(this);
  }

  /** Upstream's canonical string form, e.g. {@code baz in (norf,qux),foo=bar}; {@code ""} for everything. */
  public String format() {
    return toSelector().toString();
  }

  public static LabelSelector of(Map<String, String> matchLabels) {
    return new LabelSelector(matchLabels, List.of());
  }

  /**
   * Validates a selector as upstream's {@code metav1validation.ValidateLabelSelector} (with invalid label values
   * rejected): {@code matchLabels} keys are qualified names and values label values; In and NotIn need values;
   * Exists and DoesNotExist must have none; expression keys are qualified names and values label values. A
   * {@code null} selector is valid. Violations name {@code fieldPath} sub-fields and leave the object {@code ""}.
   */
  public static List<Violation> validate(@Nullable LabelSelector selector, String fieldPath) {
    if (selector == null) {
      return List.of();
    }
    List<Violation> out = new ArrayList<>(Validation.validateLabels(selector.matchLabels(),
        fieldPath + ".matchLabels"));
    for (int i = 0; i < selector.matchExpressions().size(); i++) {
      LabelSelectorRequirement r = selector.matchExpressions().get(i);
      String path = fieldPath + ".matchExpressions[" + i + "]";
      switch (r.operator()) {
        case In, NotIn -> {
          if (r.values().isEmpty()) {
            out.add(new Violation("", path + ".values",
                "must be specified when `operator` is 'In' or 'NotIn'", null));
          }
        }
        case Exists, DoesNotExist -> {
          if (!r.values().isEmpty()) {
            out.add(new Violation("", path + ".values",
                "may not be specified when `operator` is 'Exists' or 'DoesNotExist'", null));
          }
        }
      }
      out.addAll(Validation.validateLabelName(r.key(), path + ".key"));
      for (int j = 0; j < r.values().size(); j++) {
        String v = r.values().get(j);
        for (String msg : Validation.isValidLabelValue(v)) {
          out.add(new Violation("", path + ".values[" + j + "]", msg, v));
        }
      }
    }
    return out;
  }
}
