package io.fleetkit.api.core;

/** Which of Kubernetes' three container states a container is in. */
public enum ContainerStateType {
  Waiting,
  Running,
  Terminated
}
