package io.fleetkit.api.core;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The observed status of one container of a pod.
 *
 * @param ready whether the container passes its readiness probe (or has none and has started)
 * @param started whether the container passed its startup probe (or has none and is running)
 * @param stopSignal the signal the runtime stops the container with ({@code status.containerStatuses[].stopSignal},
 *     KEP-4960): its {@code lifecycle.stopSignal}, else the runtime's default {@code SIGTERM}; {@code null} while
 *     the runtime has no container for it (it never started)
 * @param lastState the container's last termination ({@code lastState}, Kubernetes' {@code lastTerminationState}): a
 *     {@code Terminated} state with its exit code, reason (e.g. {@code OOMKilled}, {@code Error}) and times, for a
 *     container that ran before its current state; {@code null} when none is known
 * @throws IllegalArgumentException if {@code lastState} is not a {@code Terminated} state
 */
public record ContainerStatus(String name, boolean ready, int restartCount, ContainerState state, boolean started,
    @Nullable String stopSignal, @Nullable ContainerState lastState) {
  public ContainerStatus {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(state, "state");
    if (lastState != null && lastState.type() != ContainerStateType.Terminated) {
      throw new IllegalArgumentException("container status " + name + ": lastState must be Terminated, got "
          + lastState.type());
    }
  }

  /** A status without a last termination. */
  public ContainerStatus(String name, boolean ready, int restartCount, ContainerState state, boolean started,
      @Nullable String stopSignal) {
    this(name, ready, restartCount, state, started, stopSignal, null);
  }

  /** A status without a reported stop signal. */
  public ContainerStatus(String name, boolean ready, int restartCount, ContainerState state, boolean started) {
    this(name, ready, restartCount, state, started, null);
  }

  /** A status whose {@code started} flag is whether the container runs (right for containers without probes). */
  public ContainerStatus(String name, boolean ready, int restartCount, ContainerState state) {
    this(name, ready, restartCount, state, state.type() == ContainerStateType.Running);
  }
}
