package io.fleetkit.api.scheduling;

import java.util.List;
import java.util.Objects;

/** {@code key operator values} against a node's labels ({@code matchExpressions}) or fields ({@code matchFields}). */
public record NodeSelectorRequirement(String key, NodeSelectorOperator operator, List<String> values) {
  public NodeSelectorRequirement {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(operator, "operator");
    values = List.copyOf(values);
  }
}
