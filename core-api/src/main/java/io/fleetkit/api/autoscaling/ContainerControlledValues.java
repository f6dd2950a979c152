package io.fleetkit.api.autoscaling;

/** What a VPA sets on a container, spelled as in {@code autoscaling.k8s.io/v1}. */
public enum ContainerControlledValues {
  /** Requests, and limits scaled in proportion (the default). */
  RequestsAndLimits,
  /** Requests only; limits stay as written. */
  RequestsOnly
}
