package io.fleetkit.api.core;

import java.time.Instant;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A container's state, flattened from Kubernetes' one-of {@code waiting/running/terminated}.
 *
 * @param reason e.g. {@code ContainerCreating}, {@code Completed}, {@code OOMKilled}; empty when none
 * @param exitCode set for {@code Terminated} only
 * @param message what the reason does not say, e.g. {@code configmap "app-config" not found} for a container
 *     waiting in {@code CreateContainerConfigError}; empty when none
 */
public record ContainerState(ContainerStateType type, String reason, @Nullable Integer exitCode,
    @Nullable Instant startedAt, @Nullable Instant finishedAt, String message) {
  public static final ContainerState WAITING = new ContainerState(ContainerStateType.Waiting, "", null, null, null);

  public ContainerState {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(reason, "reason");
    Objects.requireNonNull(message, "message");
  }

  /** A state without a message. */
  public ContainerState(ContainerStateType type, String reason, @Nullable Integer exitCode,
      @Nullable Instant startedAt, @Nullable Instant finishedAt) {
    this(type, reason, exitCode, startedAt, finishedAt, "");
  }

  /** Waiting for {@code reason}, with {@code message} (empty for none). */
  public static ContainerState waiting(String reason, String message) {
    return new ContainerState(ContainerStateType.Waiting, reason, null, null, null, message);
  }

  public static ContainerState running(@Nullable Instant startedAt) {
    return new ContainerState(ContainerStateType.Running, "", null, startedAt, null);
  }

  public static ContainerState terminated(int exitCode, String reason, @Nullable Instant finishedAt) {
    return new ContainerState(ContainerStateType.Terminated, reason, exitCode, null, finishedAt);
  }
}
