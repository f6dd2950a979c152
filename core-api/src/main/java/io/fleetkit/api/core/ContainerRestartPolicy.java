package io.fleetkit.api.core;

/**
 * A container-level restart policy. Only {@link #Always}, and only on init containers, where it makes the init
 * container a sidecar that keeps running beside the regular containers.
 */
public enum ContainerRestartPolicy {
  Always
}
