package io.fleetkit.api.core;

/** Session affinity of a Service ({@code spec.sessionAffinity}), spelled as in Kubernetes. Defaults to None. */
public enum SessionAffinity {
  None,
  ClientIP
}
