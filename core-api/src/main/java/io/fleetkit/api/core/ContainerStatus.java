package io.fleetkit.api.core;

import java.util.Objects;

/**
 * The observed status of one container of a pod.
 *
 * @param ready whether the container passes its readiness probe (or has none and has started)
 * @param started whether the container passed its startup probe (or has none and is running)
 */
public record ContainerStatus(String name, boolean ready, int restartCount, ContainerState state, boolean started) {
  public ContainerStatus {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(state, "state");
  }

  /** A status whose {@code started} flag is whether the container runs (right for containers without probes). */
  public ContainerStatus(String name, boolean ready, int restartCount, ContainerState state) {
    this(name, ready, restartCount, state, state.type() == ContainerStateType.Running);
  }
}
