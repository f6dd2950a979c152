package io.fleetkit.api.scheduling;

/** Operators of a {@link NodeSelectorRequirement}, spelled as in Kubernetes. */
public enum NodeSelectorOperator {
  In,
  NotIn,
  Exists,
  DoesNotExist,
  Gt,
  Lt
}
