package io.fleetkit.api.labels;

/** Operators of a {@link LabelSelectorRequirement}, spelled as in Kubernetes. */
public enum LabelSelectorOperator {
  In,
  NotIn,
  Exists,
  DoesNotExist
}
