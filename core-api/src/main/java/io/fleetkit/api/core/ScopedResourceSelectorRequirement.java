package io.fleetkit.api.core;

import java.util.List;
import java.util.Objects;

/**
 * One requirement of a quota's {@code scopeSelector}: {@code scopeName operator values}, e.g.
 * {@code PriorityClass In [high]}. Checked by {@link ResourceQuota}.
 */
public record ScopedResourceSelectorRequirement(ResourceQuotaScope scopeName, ScopeSelectorOperator operator,
    List<String> values) {
  public ScopedResourceSelectorRequirement {
    Objects.requireNonNull(scopeName, "scopeName");
    Objects.requireNonNull(operator, "operator");
    values = List.copyOf(values);
  }

  /** {@code {PriorityClass In [a b]}}, as Kubernetes prints a requirement in quota errors. */
  @Override
  public String toString() {
    return "{" + scopeName + " " + operator + " [" + String.join(" ", values) + "]}";
  }
}
