package io.fleetkit.reconcile.probe;

import io.fleetkit.api.core.Container;
import io.fleetkit.api.core.ContainerStateType;
import io.fleetkit.api.core.Probe;
import io.fleetkit.api.core.ProbeType;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The probe workers of one container and what they decide (kubelet's {@code prober_manager.go}): one
 * {@link ProbeWorker} per declared probe, each ticking on its own {@code periodSeconds} grid from the moment the pod
 * was added (the first attempt at once); {@link #started} and {@link #ready} as the manager's
 * {@code UpdatePodStatus} computes them; and {@link #killVerdict}, the probe whose Failure means the container must
 * be killed and restarted. Not thread-safe.
 */
public final class ContainerProbes {
  private final String containerName;
  private final Map<ProbeType, ProbeWorker> workers = new EnumMap<>(ProbeType.class);
  private final Map<ProbeType, Instant> nextTick = new EnumMap<>(ProbeType.class);

  /**
   * Workers for the probes {@code container} declares, whose first tick is at {@code origin}.
   */
  public ContainerProbes(Container container, Instant origin) {
    Objects.requireNonNull(container, "container");
    Objects.requireNonNull(origin, "origin");
    this.containerName = container.name();
    for (ProbeType t : ProbeType.values()) {
      Probe p = container.probe(t);
      if (p != null) {
        workers.put(t, new ProbeWorker(t, p));
        nextTick.put(t, origin);
      }
    }
  }

  public String containerName() {
    return containerName;
  }

  /** Whether the container declares any probe. */
  public boolean isEmpty() {
    return workers.isEmpty();
  }

  /** The worker of the {@code type} probe, or {@code null} when the container declares none. */
  public @Nullable ProbeWorker worker(ProbeType type) {
    return workers.get(type);
  }

  private @Nullable ProbeResult current(ProbeType type, String containerId) {
    ProbeWorker w = workers.get(type);
    return w == null || !w.containerId().equals(containerId) ? null : w.result();
  }

  /**
   * kubelet's {@code started}: false unless running; the startup result is Success; or, without a result for
   * this instance, true exactly when there is no startup probe.
   */
  public boolean started(ContainerStateType state, String containerId) {
    if (state != ContainerStateType.Running) {
      return false;
    }
    ProbeResult r = current(ProbeType.Startup, containerId);
    return r != null ? r == ProbeResult.Success : !workers.containsKey(ProbeType.Startup);
  }

  /**
   * kubelet's {@code ready}: false unless running and started; the readiness result is Success; or, without a
   * result for this instance, true exactly when there is no readiness probe.
   */
  public boolean ready(ContainerStateType state, String containerId) {
    if (!started(state, containerId)) {
      return false;
    }
    ProbeResult r = current(ProbeType.Readiness, containerId);
    return r != null ? r == ProbeResult.Success : !workers.containsKey(ProbeType.Readiness);
  }

  /**
   * kubelet's readiness of a regular (not restartable) init container: it exited with code 0. Its probes play no
   * part (validation gives it none).
   */
  public static boolean initContainerReady(ContainerStateType state, @Nullable Integer exitCode) {
    return state == ContainerStateType.Terminated && exitCode != null && exitCode == 0;
  }

  /** Whether a worker of {@code type} has cached a result for instance {@code containerId}. */
  public boolean hasResult(ProbeType type, String containerId) {
    return current(type, containerId) != null;
  }

  /**
   * The result the {@code type} worker cached for instance {@code containerId} (kubelet's results manager
   * {@code Get}); {@code null} when there is no worker or no result for that instance yet.
   */
  public @Nullable ProbeResult result(ProbeType type, String containerId) {
    return current(type, containerId);
  }

  /**
   * The probe whose verdict is Failure for instance {@code containerId} and so asks for a kill: liveness, or a
   * startup probe that ran out of attempts; {@code null} when none.
   */
  public @Nullable ProbeType killVerdict(String containerId) {
    if (current(ProbeType.Startup, containerId) == ProbeResult.Failure) {
      return ProbeType.Startup;
    }
    return current(ProbeType.Liveness, containerId) == ProbeResult.Failure ? ProbeType.Liveness : null;
  }

  /** When the next worker ticks; {@code null} when every worker has exited. */
  public @Nullable Instant nextTick() {
    Instant next = null;
    for (Map.Entry<ProbeType, Instant> e : nextTick.entrySet()) {
      if (!workers.get(e.getKey()).stopped() && (next == null || e.getValue().isBefore(next))) {
        next = e.getValue();
      }
    }
    return next;
  }

  /** When the {@code type} worker ticks next; {@code null} when it has exited or there is none. */
  public @Nullable Instant nextTick(ProbeType type) {
    ProbeWorker w = workers.get(type);
    return w == null || w.stopped() ? null : nextTick.get(type);
  }

  /**
   * Shifts the {@code type} worker's grid by {@code d}: its next tick and every later one come {@code d} later (the
   * kubelet's random wait before a worker's first probe when the kubelet has just started).
   *
   * @throws IllegalArgumentException if {@code d} is negative
   */
  public void delay(ProbeType type, java.time.Duration d) {
    if (d.isNegative()) {
      throw new IllegalArgumentException("container " + containerName + ": probe delay " + d
          + " must not be negative");
    }
    Instant t = nextTick.get(type);
    if (t != null) {
      nextTick.put(type, t.plus(d));
    }
  }

  /**
   * Moves the {@code type} worker's next tick to the first point of its grid at or after {@code notBefore}, for
   * callers that know the ticks in between cannot change anything ({@link ProbeWorker#settledOn}).
   */
  public void skipTo(ProbeType type, Instant notBefore) {
    Instant t = nextTick.get(type);
    if (t == null || !t.isBefore(notBefore)) {
      return;
    }
    long period = workers.get(type).probe().period().toNanos();
    long gap = java.time.Duration.between(t, notBefore).toNanos();
    long steps = (gap + period - 1) / period;
    nextTick.put(type, t.plusNanos(steps * period));
  }

  /**
   * Moves the {@code type} worker's next tick to the first point of its grid at or after {@code notBefore}, earlier or
   * later than it is now: for a caller that skipped ticks ({@link #skipTo}) or stopped looking at the worker, and
   * finds that the ticks from {@code notBefore} on matter again.
   */
  public void resumeFrom(ProbeType type, Instant notBefore) {
    Instant t = nextTick.get(type);
    if (t == null) {
      return;
    }
    long period = workers.get(type).probe().period().toNanos();
    long gap = java.time.Duration.between(notBefore, t).toNanos(); // positive: t is later
    long steps = gap >= 0 ? -(gap / period) : (-gap + period - 1) / period;
    nextTick.put(type, t.plusNanos(steps * period));
  }

  /**
   * The prober manager's {@code StopLivenessAndStartup}, which the kubelet calls when it starts terminating the pod
   * ({@code SyncTerminatingPod}, before it kills the containers): the liveness and startup workers exit, the
   * readiness worker goes on probing while the container runs. The liveness worker's result goes with it, so no
   * probe asks for a kill any more. The startup worker's result is kept: the kubelet generated the status it
   * terminates with before it stopped the workers, and does not generate another until the containers stopped, so
   * {@link #started} stays what it was (a container that had not started does not start, and its readiness is not
   * probed).
   */
  public void stopLivenessAndStartup() {
    ProbeWorker liveness = workers.get(ProbeType.Liveness);
    if (liveness != null) {
      liveness.stop();
      liveness.clear();
    }
    ProbeWorker startup = workers.get(ProbeType.Startup);
    if (startup != null) {
      startup.stop();
    }
  }

  /**
   * Runs every worker whose tick is due at {@code at} (all see the same {@code view}, whose {@code started} flag is
   * replaced by {@link #started}), then moves those workers to their next tick.
   *
   * @return the probe types that ticked
   */
  public List<ProbeType> tick(Instant at, ContainerView view, ProbeRunner runner, ProbeTarget target) {
    ContainerView v = view.withStarted(started(view.state(), view.containerId()));
    List<ProbeType> ticked = new ArrayList<>(3);
    for (Map.Entry<ProbeType, ProbeWorker> e : workers.entrySet()) {
      ProbeType type = e.getKey();
      ProbeWorker w = e.getValue();
      Instant t = nextTick.get(type);
      if (w.stopped() || t.isAfter(at)) {
        continue;
      }
      w.doProbe(v, at, () -> runner.run(type, w.probe(), target));
      nextTick.put(type, t.plus(w.probe().period()));
      ticked.add(type);
    }
    return ticked;
  }
}
