package io.fleetkit.api.core;

import java.util.Objects;

/** The observed status of one container of a pod. */
public record ContainerStatus(String name, boolean ready, int restartCount, ContainerState state) {
  public ContainerStatus {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(state, "state");
  }
}
