package io.fleetkit.api.core;

import java.time.Instant;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A container's state, flattened from Kubernetes' one-of {@code waiting/running/terminated}.
 *
 * @param reason e.g. {@code ContainerCreating}, {@code Completed}, {@code OOMKilled}; empty when none
 * @param exitCode set for {@code Terminated} only
 */
public record ContainerState(ContainerStateType type, String reason, @Nullable Integer exitCode,
    @Nullable Instant startedAt, @Nullable Instant finishedAt) {
  public static final ContainerState WAITING = new ContainerState(ContainerStateType.Waiting, "", null, null, null);

  public ContainerState {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(reason, "reason");
  }

  public static ContainerState running(@Nullable Instant startedAt) {
    return new ContainerState(ContainerStateType.Running, "", null, startedAt, null);
  }

  public static ContainerState terminated(int exitCode, String reason, @Nullable Instant finishedAt) {
    return new ContainerState(ContainerStateType.Terminated, reason, exitCode, null, finishedAt);
  }
}
