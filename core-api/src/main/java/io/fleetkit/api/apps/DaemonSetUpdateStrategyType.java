package io.fleetkit.api.apps;

/** How a DaemonSet updates its pods when the template changes. */
public enum DaemonSetUpdateStrategyType {
  /** Replace pods node by node within {@code maxUnavailable} or {@code maxSurge}; the default. */
  RollingUpdate,
  /** Replace a pod only when the user deletes it. */
  OnDelete
}
