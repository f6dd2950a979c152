package io.fleetkit.api.apps;

/** How a StatefulSet updates its pods when the template changes. */
public enum StatefulSetUpdateStrategyType {
  /** Replace pods from the highest ordinal down to {@code partition}; the default. */
  RollingUpdate,
  /** Replace a pod only when the user deletes it. */
  OnDelete
}
