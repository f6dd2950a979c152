package io.fleetkit.api.core;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A container's lifecycle hooks and stop signal (Kubernetes' {@code core/v1 Lifecycle}). The kubelet runs
 * {@code postStart} right after the container started, and its sync of the pod waits for it (a failure kills the
 * container, which is then restarted per its restart policy); {@code preStop} before it stops the container for any
 * reason (deletion, a failed liveness or startup probe, the end of a sidecar): the hook's time counts against the
 * grace period, the stop signal follows it, and a failure is only recorded as an event. {@code stopSignal} replaces
 * SIGTERM as the signal that stops the container (KEP-4960); it needs the pod's {@code spec.os}. Hooks are allowed on
 * regular containers and sidecars, not on regular init containers.
 *
 * @param postStart run after the container starts; {@code null} when none
 * @param preStop run before the container is stopped; {@code null} when none
 * @param stopSignal the name of the signal ({@link Signal#signalName()}) that stops the container; {@code null} for
 *     the runtime's default, SIGTERM. Validated with the pod: a name {@link Signal} lists, and on Windows only
 *     {@code SIGTERM} or {@code SIGKILL}
 */
public record Lifecycle(@Nullable LifecycleHandler postStart, @Nullable LifecycleHandler preStop,
    @Nullable String stopSignal) {
  /** Hooks without a stop signal. */
  public Lifecycle(@Nullable LifecycleHandler postStart, @Nullable LifecycleHandler preStop) {
    this(postStart, preStop, null);
  }

  /** Only a {@code preStop} hook. */
  public static Lifecycle preStop(LifecycleHandler handler) {
    return new Lifecycle(null, Objects.requireNonNull(handler, "handler"));
  }

  /** Only a {@code postStart} hook. */
  public static Lifecycle postStart(LifecycleHandler handler) {
    return new Lifecycle(Objects.requireNonNull(handler, "handler"), null);
  }

  /** Only a stop signal. */
  public static Lifecycle stopSignal(Signal signal) {
    return new Lifecycle(null, null, signal.signalName());
  }

  /** These hooks with stop signal {@code name} ({@code null}: none). */
  public Lifecycle withStopSignal(@Nullable String name) {
    return new Lifecycle(postStart, preStop, name);
  }

  /** The stop signal, when {@code stopSignal} names one; {@code null} otherwise. */
  public @Nullable Signal signal() {
    return stopSignal == null ? null : Signal.of(stopSignal);
  }
}
