package io.fleetkit.api.core;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A container's lifecycle hooks (Kubernetes' {@code core/v1 Lifecycle}). The kubelet runs {@code postStart} right
 * after the container started (a failure kills the container, which is then restarted per its restart policy) and
 * {@code preStop} before it stops the container for any reason (deletion, a failed liveness or startup probe, the end
 * of a sidecar): the hook's time counts against the grace period, SIGTERM follows it, and a failure is only
 * recorded as an event. Allowed on regular containers and sidecars, not on regular init containers.
 *
 * @param postStart run after the container starts; {@code null} when none
 * @param preStop run before the container is stopped; {@code null} when none
 */
public record Lifecycle(@Nullable LifecycleHandler postStart, @Nullable LifecycleHandler preStop) {
  /** Only a {@code preStop} hook. */
  public static Lifecycle preStop(LifecycleHandler handler) {
    return new Lifecycle(null, Objects.requireNonNull(handler, "handler"));
  }

  /** Only a {@code postStart} hook. */
  public static Lifecycle postStart(LifecycleHandler handler) {
    return new Lifecycle(Objects.requireNonNull(handler, "handler"), null);
  }
}
