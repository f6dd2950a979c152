package io.fleetkit.reconcile.probe;

import io.fleetkit.api.core.ContainerStateType;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.core.Probe;
import io.fleetkit.api.core.ProbeType;
import io.fleetkit.api.core.RestartPolicy;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * One probe of one container, with the kubelet's rules (kubernetes {@code pkg/kubelet/prober/worker.go},
 * {@code doProbe}): the cached result starts at Failure for readiness, Success for liveness and Unknown for startup
 * whenever a new container instance appears; nothing is probed during {@code initialDelaySeconds}; liveness and
 * readiness wait until the container has started and the startup probe stops once it has; a result replaces the
 * cached one only after {@code successThreshold} or {@code failureThreshold} equal results in a row; after a
 * liveness Failure, or any startup verdict, the worker holds (probes nothing) until the next container instance.
 * A pod being deleted makes liveness and startup record Success and stop (a quiet shutdown); readiness goes on
 * probing while the container runs. The manager can also stop a worker ({@link #stop}), as the kubelet's prober
 * manager stops the liveness and startup workers of a pod it starts terminating.
 *
 * <p>Who decides when to call {@link #doProbe}: {@link ContainerProbes} calls it on the probe's period grid. Not
 * thread-safe.
 */
public final class ProbeWorker {
  private final ProbeType type;
  private final Probe probe;
  private final ProbeResult initialValue;
  private String containerId = "";
  private @Nullable ProbeResult result;
  private ProbeResult lastResult = ProbeResult.Success; // kubelet's zero value
  private int resultRun;
  private boolean onHold;
  private boolean stopped;

  public ProbeWorker(ProbeType type, Probe probe) {
    this.type = Objects.requireNonNull(type, "type");
    this.probe = Objects.requireNonNull(probe, "probe");
    this.initialValue = switch (type) {
      case Readiness -> ProbeResult.Failure;
      case Liveness -> ProbeResult.Success;
      case Startup -> ProbeResult.Unknown;
    };
  }

  public ProbeType type() {
    return type;
  }

  public Probe probe() {
    return probe;
  }

  /**
   * Probes once if the container's state allows it and records the result.
   *
   * @param view the container as the status shows it; {@code null} when the pod has no status yet
   * @param now the current time (for the initial delay)
   * @param attempt performs one attempt; called only when a probe is due
   * @return whether the worker should keep running (false once the pod terminated, the container terminated for
   *     good, or the pod is being deleted and this is a liveness or startup probe)
   */
  public boolean doProbe(@Nullable ContainerView view, Instant now, Supplier<ProbeOutcome> attempt) {
    if (view == null) {
      return true;
    }
    if (view.podPhase() == PodPhase.Failed || view.podPhase() == PodPhase.Succeeded) {
      stopped = true;
      return false;
    }
    if (view.containerId().isEmpty()) {
      return true;
    }
    if (!view.containerId().equals(containerId)) {
      containerId = view.containerId();
      result = initialValue;
      onHold = false;
    }
    if (onHold) {
      return true;
    }
    if (view.state() != ContainerStateType.Running) {
      result = ProbeResult.Failure;
      boolean keepGoing = view.state() != ContainerStateType.Terminated
          || view.restartPolicy() != RestartPolicy.Never;
      stopped = !keepGoing;
      return keepGoing;
    }
    if (view.deleting() && type != ProbeType.Readiness) {
      result = ProbeResult.Success;
      stopped = true;
      return false;
    }
    Instant startedAt = view.startedAt() != null ? view.startedAt() : now;
    if (Duration.between(startedAt, now).getSeconds() < probe.initialDelaySeconds()) {
      return true;
    }
    if (view.started() ? type == ProbeType.Startup : type != ProbeType.Startup) {
      return true;
    }
    ProbeResult r = attempt.get().result();
    if (r == null) {
      return true; // a prober error: the attempt is thrown away
    }
    if (lastResult == r) {
      resultRun++;
    } else {
      lastResult = r;
      resultRun = 1;
    }
    if ((r == ProbeResult.Failure && resultRun < probe.failureThreshold())
        || (r == ProbeResult.Success && resultRun < probe.successThreshold())) {
      return true;
    }
    result = r;
    if ((type == ProbeType.Liveness && r == ProbeResult.Failure) || type == ProbeType.Startup) {
      onHold = true;
      resultRun = 0;
    }
    return true;
  }

  /** The cached result for the current container instance; {@code null} before the worker has seen one. */
  public @Nullable ProbeResult result() {
    return result;
  }

  /** Overrides the cached result (kubelet's results manager {@code Set}); for tests and restores. */
  public void setResult(String containerId, ProbeResult r) {
    this.containerId = Objects.requireNonNull(containerId, "containerId");
    this.result = Objects.requireNonNull(r, "result");
  }

  /** Forgets the cached result (kubelet's results manager {@code Remove}), as when the worker is cleaned up. */
  public void clear() {
    result = null;
    containerId = "";
  }

  /** The container instance the cached result belongs to; empty before the first. */
  public String containerId() {
    return containerId;
  }

  /** Whether the worker waits for a new container instance before probing again. */
  public boolean onHold() {
    return onHold;
  }

  /** How many equal results in a row the last attempts gave. */
  public int resultRun() {
    return resultRun;
  }

  /**
   * Stops the worker, as its manager's {@code worker.stop()} does: it probes no more. Its cached result stays until
   * {@link #clear}.
   */
  public void stop() {
    stopped = true;
  }

  /** Whether the worker has exited: {@link #doProbe} returned false, or it was {@linkplain #stop stopped}. */
  public boolean stopped() {
    return stopped;
  }

  /**
   * Whether more attempts answering {@code answer} cannot change anything: the worker holds, or its cached result
   * and its current run both are {@code answer}. A simulation uses this to skip the probe ticks in between.
   */
  public boolean settledOn(ProbeResult answer) {
    return onHold || stopped || (result == answer && lastResult == answer && resultRun > 0);
  }
}
