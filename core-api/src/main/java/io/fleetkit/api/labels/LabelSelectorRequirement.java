package io.fleetkit.api.labels;

import java.util.List;
import java.util.Objects;

/** One {@code matchExpressions} entry: {@code key operator (values)}. */
public record LabelSelectorRequirement(String key, LabelSelectorOperator operator, List<String> values) {
  public LabelSelectorRequirement {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(operator, "operator");
    values = List.copyOf(values);
  }
}
