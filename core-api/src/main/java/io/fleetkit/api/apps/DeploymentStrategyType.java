package io.fleetkit.api.apps;

/** How a deployment replaces old pods with new ones. */
public enum DeploymentStrategyType {
  /** Kill all old pods before creating new ones. */
  Recreate,
  /** Replace gradually within {@code maxSurge} and {@code maxUnavailable}; the default. */
  RollingUpdate
}
