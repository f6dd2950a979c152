package io.fleetkit.reconcile.probe;

import io.fleetkit.api.core.ContainerStateType;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.core.RestartPolicy;
import java.time.Instant;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What a probe worker reads about its container before each attempt: the pod's phase, whether it is being deleted,
 * its restart policy, and the container's current instance (kubelet reads these from its status manager).
 *
 * @param containerId identifies the container instance; a new id (a restart) resets the worker. Empty while the
 *     container has not been created
 * @param startedAt when the current instance started running; {@code null} unless running
 * @param started whether the container passed its startup probe (or has none)
 */
public record ContainerView(PodPhase podPhase, boolean deleting, RestartPolicy restartPolicy, String containerId,
    ContainerStateType state, @Nullable Instant startedAt, boolean started) {
  public ContainerView {
    Objects.requireNonNull(podPhase, "podPhase");
    Objects.requireNonNull(restartPolicy, "restartPolicy");
    Objects.requireNonNull(containerId, "containerId");
    Objects.requireNonNull(state, "state");
  }

  /** A running, not deleted container of a running pod with restart policy Always. */
  public static ContainerView running(String containerId, Instant startedAt, boolean started) {
    return new ContainerView(PodPhase.Running, false, RestartPolicy.Always, containerId, ContainerStateType.Running,
        startedAt, started);
  }

  public ContainerView withStarted(boolean v) {
    return new ContainerView(podPhase, deleting, restartPolicy, containerId, state, startedAt, v);
  }

  public ContainerView withContainerId(String v) {
    return new ContainerView(podPhase, deleting, restartPolicy, v, state, startedAt, started);
  }
}
