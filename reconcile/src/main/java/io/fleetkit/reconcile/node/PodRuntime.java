package io.fleetkit.reconcile.node;

import io.fleetkit.api.core.Container;
import io.fleetkit.api.core.ContainerState;
import io.fleetkit.api.core.ContainerStateType;
import io.fleetkit.api.core.ContainerStatus;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.core.ProbeType;
import io.fleetkit.api.core.RestartPolicy;
import io.fleetkit.api.time.TimerClock;
import io.fleetkit.reconcile.probe.ContainerProbes;
import io.fleetkit.reconcile.probe.ContainerView;
import io.fleetkit.reconcile.probe.ProbeOutcome;
import io.fleetkit.reconcile.probe.ProbeResult;
import io.fleetkit.reconcile.probe.ProbeTarget;
import io.fleetkit.reconcile.probe.ProbeWorker;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The kubelet's view of one pod on a simulated node: its containers' runs, restarts, backoff and probes. Advanced
 * to an instant by {@link #advance}; each transition happens at the instant its script or probe tick says, in time
 * order per container, so processing late does not shift the timeline. Declared probes run through
 * {@link ContainerProbes} on their period grid (from the moment the pod was added, as the kubelet's workers do) and
 * are answered from the run's {@link ContainerScript}; ticks that cannot change anything (the worker is settled on
 * the answer until the answer next changes) are skipped. Not thread-safe: owned by one {@link NodeAgent}.
 */
final class PodRuntime {
  /** Container waiting reason while the kubelet holds a restart back. */
  static final String CRASH_LOOP_BACK_OFF = "CrashLoopBackOff";
  private static final ProbeTarget NO_TARGET = ProbeTarget.of("");

  final String key;
  Pod pod;
  final Instant startTime;
  final List<ContainerRun> containers = new ArrayList<>();
  TimerClock.@Nullable Timer timer;
  @Nullable Instant timerAt;

  PodRuntime(Pod pod, Instant now) {
    this.key = pod.metadata().key();
    this.pod = pod;
    this.startTime = now;
    for (Container c : pod.spec().containers()) {
      containers.add(new ContainerRun(c, now));
    }
  }

  /** One container: its current run, restart bookkeeping and probe workers. */
  static final class ContainerRun {
    final Container spec;
    final ContainerProbes probes;
    /** Workers settled for the rest of the current run: they tick again only on the next run. */
    final Set<ProbeType> parked = EnumSet.noneOf(ProbeType.class);
    int restartCount;
    ContainerScript script = ContainerScript.healthy();
    ContainerStateType state = ContainerStateType.Waiting;
    String reason = "ContainerCreating";
    @Nullable Instant startedAt;
    @Nullable Instant finishedAt;
    int exitCode;
    boolean done;
    @Nullable Instant backoffUntil;

    ContainerRun(Container spec, Instant podAdded) {
      this.spec = spec;
      this.probes = new ContainerProbes(spec, podAdded);
    }

    /** Identifies the current run, as a container ID does. */
    String containerId() {
      return spec.name() + "#" + restartCount;
    }

    boolean running() {
      return state == ContainerStateType.Running && startedAt != null;
    }

    @Nullable Instant exitAt() {
      return running() && script.exitAfter() != null ? startedAt.plus(script.exitAfter()) : null;
    }

    /** The exact kill of the liveness shorthand, for a container that declares no liveness probe. */
    @Nullable Instant killAt() {
      return running() && probes.worker(ProbeType.Liveness) == null && script.livenessFailsAfter() != null
          ? startedAt.plus(script.livenessFailsAfter()) : null;
    }

    @Nullable Instant tickAt() {
      if (!running()) {
        return null;
      }
      Instant next = null;
      for (ProbeType t : ProbeType.values()) {
        Instant at = parked.contains(t) ? null : probes.nextTick(t);
        if (at != null && (next == null || at.isBefore(next))) {
          next = at;
        }
      }
      return next;
    }

    /** When the readiness of a container without a readiness probe changes next (after {@code now}). */
    @Nullable Instant readinessChangeAt(Instant now) {
      if (!running() || probes.worker(ProbeType.Readiness) != null) {
        return null;
      }
      Duration next = script.readiness().nextChange(Duration.between(startedAt, now));
      return next == null ? null : startedAt.plus(next);
    }

    boolean started() {
      return probes.started(state, containerId());
    }

    boolean ready(Instant now) {
      if (!running() || !started()) {
        return false;
      }
      if (probes.worker(ProbeType.Readiness) != null) {
        return probes.ready(state, containerId());
      }
      return script.readiness().at(Duration.between(startedAt, now)) == ProbeResult.Success;
    }

    /** Skips the ticks of workers that cannot change anything before the script's answer next changes. */
    void settle() {
      for (ProbeType t : ProbeType.values()) {
        ProbeWorker w = probes.worker(t);
        Instant at = probes.nextTick(t);
        if (w == null || at == null || parked.contains(t) || !w.containerId().equals(containerId())) {
          continue;
        }
        Duration since = Duration.between(startedAt, at);
        if (since.isNegative() || !w.settledOn(script.answer(t).at(since))) {
          continue;
        }
        boolean waitsForStart = t != ProbeType.Startup && !started();
        if (w.onHold() || w.stopped() || (t == ProbeType.Startup && started())) {
          parked.add(t);
        } else if (!waitsForStart) {
          Duration change = script.answer(t).nextChange(since);
          if (change == null) {
            parked.add(t);
          } else {
            probes.skipTo(t, startedAt.plus(change));
          }
        }
      }
    }
  }

  /** Whether every container finished for good (the pod is Succeeded or Failed). */
  boolean finished() {
    for (ContainerRun c : containers) {
      if (!c.done) {
        return false;
      }
    }
    return !containers.isEmpty();
  }

  /** Runs every transition due at or before {@code now}. */
  void advance(Instant now, HealthSource health, RestartBackoff backoff) {
    boolean changed = true;
    while (changed) {
      changed = false;
      for (ContainerRun c : containers) {
        switch (c.state) {
          case Waiting -> {
            if (c.startedAt == null && !c.done) {
              start(c, now, health, false);
              changed = true;
            } else if (c.backoffUntil != null && !c.backoffUntil.isAfter(now)) {
              backoff.next(backoffKey(c), c.finishedAt != null ? c.finishedAt : now);
              start(c, now, health, true);
              changed = true;
            }
          }
          case Running -> changed |= step(c, now, health, backoff);
          case Terminated -> { }
        }
      }
    }
  }

  /** Runs the earliest event of a running container due at or before {@code now}; false when none is due. */
  private boolean step(ContainerRun c, Instant now, HealthSource health, RestartBackoff backoff) {
    c.settle();
    Instant exitAt = c.exitAt();
    Instant killAt = c.killAt();
    Instant tickAt = c.tickAt();
    Instant t = null;
    for (Instant i : new Instant[] {exitAt, killAt, tickAt}) {
      if (i != null && !i.isAfter(now) && (t == null || i.isBefore(t))) {
        t = i;
      }
    }
    if (t == null) {
      return false;
    }
    if (t.equals(exitAt)) {
      terminate(c, c.script.exitCode(), exitAt, now, health, backoff);
    } else if (t.equals(killAt)) {
      terminate(c, ContainerScript.KILLED_EXIT_CODE, killAt, now, health, backoff);
    } else {
      Instant at = t;
      ContainerView view = new ContainerView(PodPhase.Running, false, pod.spec().restartPolicy(), c.containerId(),
          ContainerStateType.Running, c.startedAt, false);
      c.probes.tick(at, view, (type, probe, target) -> answer(c, type, at), NO_TARGET);
      if (c.probes.killVerdict(c.containerId()) != null) {
        terminate(c, ContainerScript.KILLED_EXIT_CODE, at, now, health, backoff);
      }
    }
    return true;
  }

  private static ProbeOutcome answer(ContainerRun c, ProbeType type, Instant at) {
    ProbeResult r = c.script.answer(type).at(Duration.between(c.startedAt, at));
    return r == ProbeResult.Success ? ProbeOutcome.success() : ProbeOutcome.failure();
  }

  private void start(ContainerRun c, Instant now, HealthSource health, boolean restart) {
    if (restart) {
      c.restartCount++;
    }
    c.script = health.script(pod, c.spec, c.restartCount);
    c.state = ContainerStateType.Running;
    c.reason = "";
    c.startedAt = now;
    c.backoffUntil = null;
    c.parked.clear();
    for (ProbeType t : ProbeType.values()) {
      c.probes.skipTo(t, now);
    }
  }

  private void terminate(ContainerRun c, int code, Instant at, Instant now, HealthSource health,
      RestartBackoff backoff) {
    c.state = ContainerStateType.Terminated;
    c.exitCode = code;
    c.finishedAt = at;
    c.reason = code == 0 ? "Completed" : "Error";
    RestartPolicy policy = pod.spec().restartPolicy();
    boolean restart = policy == RestartPolicy.Always || (policy == RestartPolicy.OnFailure && code != 0);
    if (!restart) {
      c.done = true;
      return;
    }
    String id = backoffKey(c);
    if (backoff.isInBackOffSince(id, at)) {
      c.state = ContainerStateType.Waiting;
      c.reason = CRASH_LOOP_BACK_OFF;
      c.backoffUntil = backoff.backoffEnd(id, at);
    } else {
      backoff.next(id, at);
      start(c, now, health, true);
    }
  }

  String backoffKey(ContainerRun c) {
    return pod.metadata().uid() + "/" + c.spec.name();
  }

  /** The earliest future instant at which something changes, or {@code null}. */
  @Nullable Instant nextEvent(Instant now) {
    Instant next = null;
    for (ContainerRun c : containers) {
      if (c.running()) {
        c.settle();
      }
      for (Instant t : new Instant[] {c.exitAt(), c.killAt(), c.tickAt(), c.readinessChangeAt(now),
          c.backoffUntil}) {
        if (t != null && t.isAfter(now) && (next == null || t.isBefore(next))) {
          next = t;
        }
      }
    }
    return next;
  }

  PodPhase phase() {
    if (finished()) {
      for (ContainerRun c : containers) {
        if (c.exitCode != 0) {
          return PodPhase.Failed;
        }
      }
      return PodPhase.Succeeded;
    }
    for (ContainerRun c : containers) {
      if (c.startedAt != null) {
        return PodPhase.Running;
      }
    }
    return PodPhase.Pending;
  }

  boolean containersReady(Instant now) {
    for (ContainerRun c : containers) {
      if (!c.ready(now)) {
        return false;
      }
    }
    return !containers.isEmpty();
  }

  List<ContainerStatus> containerStatuses(Instant now) {
    List<ContainerStatus> out = new ArrayList<>(containers.size());
    for (ContainerRun c : containers) {
      ContainerState st = switch (c.state) {
        case Running -> ContainerState.running(c.startedAt);
        case Terminated -> ContainerState.terminated(c.exitCode, c.reason, c.finishedAt);
        case Waiting -> new ContainerState(ContainerStateType.Waiting, c.reason, null, null, null);
      };
      out.add(new ContainerStatus(c.spec.name(), c.ready(now), c.restartCount, st, c.started()));
    }
    return out;
  }
}
