package io.fleetkit.api.scheduling;

/** Toleration operators, spelled as in Kubernetes. */
public enum TolerationOperator {
  Equal,
  Exists
}
