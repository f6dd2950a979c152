package io.fleetkit.reconcile.node;

import io.fleetkit.api.core.Container;
import io.fleetkit.api.core.ContainerState;
import io.fleetkit.api.core.ContainerStateType;
import io.fleetkit.api.core.ContainerStatus;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.core.RestartPolicy;
import io.fleetkit.api.time.TimerClock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The kubelet's view of one pod on a simulated node: its containers' runs, restarts and backoff. Advanced to an
 * instant by {@link #advance}; each transition happens at the instant its script says, so processing late does not
 * shift the timeline. Not thread-safe: owned by one {@link NodeAgent}.
 */
final class PodRuntime {
  /** Container waiting reason while the kubelet holds a restart back. */
  static final String CRASH_LOOP_BACK_OFF = "CrashLoopBackOff";

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
      containers.add(new ContainerRun(c));
    }
  }

  /** One container: its current run and restart bookkeeping. */
  static final class ContainerRun {
    final Container spec;
    int restartCount;
    ContainerScript script = ContainerScript.healthy();
    ContainerStateType state = ContainerStateType.Waiting;
    String reason = "ContainerCreating";
    @Nullable Instant startedAt;
    @Nullable Instant finishedAt;
    int exitCode;
    boolean done;
    @Nullable Instant backoffUntil;

    ContainerRun(Container spec) {
      this.spec = spec;
    }

    @Nullable Instant exitAt() {
      return state == ContainerStateType.Running && script.exitAfter() != null && startedAt != null
          ? startedAt.plus(script.exitAfter()) : null;
    }

    @Nullable Instant killAt() {
      return state == ContainerStateType.Running && script.livenessFailsAfter() != null && startedAt != null
          ? startedAt.plus(script.livenessFailsAfter()) : null;
    }

    @Nullable Instant readyAt() {
      return state == ContainerStateType.Running && script.readyAfter() != null && startedAt != null
          ? startedAt.plus(script.readyAfter()) : null;
    }

    boolean ready(Instant now) {
      Instant r = readyAt();
      return r != null && !r.isAfter(now);
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
          case Running -> {
            Instant exitAt = c.exitAt();
            Instant killAt = c.killAt();
            if (killAt != null && !killAt.isAfter(now) && (exitAt == null || killAt.isBefore(exitAt))) {
              terminate(c, ContainerScript.KILLED_EXIT_CODE, killAt, now, health, backoff);
              changed = true;
            } else if (exitAt != null && !exitAt.isAfter(now)) {
              terminate(c, c.script.exitCode(), exitAt, now, health, backoff);
              changed = true;
            }
          }
          case Terminated -> { }
        }
      }
    }
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
      for (Instant t : new Instant[] {c.exitAt(), c.killAt(), c.readyAt(), c.backoffUntil}) {
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
      out.add(new ContainerStatus(c.spec.name(), c.ready(now), c.restartCount, st));
    }
    return out;
  }
}
