package io.fleetkit.api.apps;

/** How a StatefulSet creates and deletes its pods. */
public enum PodManagementPolicy {
  /** One at a time, in ordinal order, each waiting for the previous to be ready; the default. */
  OrderedReady,
  /** All at once. */
  Parallel
}
