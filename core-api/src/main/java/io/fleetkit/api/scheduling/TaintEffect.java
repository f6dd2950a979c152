package io.fleetkit.api.scheduling;

/** Taint effects, spelled as in Kubernetes. */
public enum TaintEffect {
  NoSchedule,
  PreferNoSchedule,
  NoExecute
}
