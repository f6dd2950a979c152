package io.fleetkit.reconcile.node;

import io.fleetkit.api.core.RestartPolicy;
import io.fleetkit.reconcile.probe.ProbeResult;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What the kubelet does next with a pod that has init containers, from a snapshot of its containers (kubelet's
 * {@code computeInitContainerActions} and the part of {@code computePodActions} that follows it, in
 * {@code pkg/kubelet/kuberuntime}): which init containers to start (the next one in order; sidecars that exited or
 * are missing after initialization; a sidecar killed for a failed startup or liveness probe or a changed
 * definition), whether the pod is initialized (every regular init container exited 0 and every sidecar started, or
 * a regular container already ran), which regular containers to start once it is, and whether the pod is to be
 * killed (a failed init container under {@code restartPolicy: Never}, or no regular container left to run).
 * The init containers are read from the last one backwards, as upstream does, so that completed init containers
 * the runtime has forgotten are not run again. The pod's sandbox comes first, as in {@code computePodActions}: when
 * it is missing or not ready a new one is created and the pod starts over from its first init container, unless the
 * pod is done (a {@code restartPolicy: Never} pod whose containers the runtime still shows, or one whose regular
 * containers have nothing left to run), which is only killed. Several sandboxes, a changed network namespace,
 * container hashes beyond a "changed" flag and in-place resize are not modelled. Stateless.
 */
final class InitContainerActions {
  private InitContainerActions() {}

  /** A container's state as the runtime reports it (kubelet's {@code kubecontainer.State}). */
  enum RuntimeState {
    Created,
    Running,
    Exited,
    Unknown
  }

  /**
   * What the runtime reports of a container: its state and, when exited, its exit code.
   */
  record Observed(RuntimeState state, int exitCode) {
    Observed {
      Objects.requireNonNull(state, "state");
    }

    static Observed running() {
      return new Observed(RuntimeState.Running, 0);
    }

    static Observed exited(int code) {
      return new Observed(RuntimeState.Exited, code);
    }
  }

  /**
   * The pod's latest sandbox as the runtime reports it.
   *
   * @param ready whether it is ready ({@code SANDBOX_READY}, with an IP when the pod is not on the host network)
   * @param attempt its attempt number, 0 for the pod's first sandbox
   */
  record Sandbox(boolean ready, int attempt) {
    /** A ready first sandbox. */
    static final Sandbox READY = new Sandbox(true, 0);

    Sandbox {
      if (attempt < 0) {
        throw new IllegalArgumentException("sandbox: attempt " + attempt + " must not be negative");
      }
    }

    /**
     * The sandbox the runtime reports in state {@code SANDBOX_READY} ({@code stateReady}) or not, with the IP of its
     * network status ({@code null}: none reported, as for a pod on the host network): it counts as ready only in
     * that state and, when it reports a network, with an IP ({@code podSandboxChanged}).
     */
    static Sandbox reported(boolean stateReady, @Nullable String ip, int attempt) {
      return new Sandbox(stateReady && (ip == null || !ip.isEmpty()), attempt);
    }
  }

  /**
   * One init container.
   *
   * @param restartable a sidecar ({@code restartPolicy: Always})
   * @param startupProbe whether it declares a startup probe
   * @param livenessProbe whether it declares a liveness probe
   * @param observed what the runtime reports; {@code null} when it has no container of that name
   * @param startup the startup probe's cached result for the running instance; {@code null} when there is none yet
   * @param liveness likewise for the liveness probe
   * @param changed whether its definition changed since the running instance was created
   */
  record Init(boolean restartable, boolean startupProbe, boolean livenessProbe, @Nullable Observed observed,
      @Nullable ProbeResult startup, @Nullable ProbeResult liveness, boolean changed) {
    /** A regular init container as the runtime reports it. */
    static Init regular(@Nullable Observed observed) {
      return new Init(false, false, false, observed, null, null, false);
    }
  }

  /**
   * What to do.
   *
   * @param initToStart indices of init containers to (re)start, in spec order
   * @param initToKill indices of running init containers to kill first (each is also in {@code initToStart})
   * @param containersToStart indices of regular containers to (re)start
   * @param killPod whether the pod is to be killed (it is done, or its sandbox is to be replaced)
   * @param initialized whether initialization is complete
   * @param createSandbox whether a new sandbox is to be created first
   * @param attempt the attempt number of the sandbox the actions are for (the new one's when one is created)
   */
  record Actions(List<Integer> initToStart, List<Integer> initToKill, List<Integer> containersToStart,
      boolean killPod, boolean initialized, boolean createSandbox, int attempt) {
    Actions {
      initToStart = List.copyOf(initToStart);
      initToKill = List.copyOf(initToKill);
      containersToStart = List.copyOf(containersToStart);
    }

    /** Actions in the current sandbox. */
    Actions(List<Integer> initToStart, List<Integer> initToKill, List<Integer> containersToStart, boolean killPod,
        boolean initialized) {
      this(initToStart, initToKill, containersToStart, killPod, initialized, false, 0);
    }
  }

  /**
   * The actions for a pod with {@code policy} in a ready first sandbox whose init containers are {@code inits} and
   * whose regular containers the runtime reports as {@code regular} ({@code null} entries: no container of that name).
   */
  static Actions compute(RestartPolicy policy, List<Init> inits, List<@Nullable Observed> regular) {
    return compute(policy, Sandbox.READY, inits, regular);
  }

  /**
   * The actions for a pod whose latest sandbox is {@code sandbox} ({@code null}: the runtime has none), as
   * {@link #compute(RestartPolicy, List, List)} otherwise.
   */
  static Actions compute(RestartPolicy policy, @Nullable Sandbox sandbox, List<Init> inits,
      List<@Nullable Observed> regular) {
    if (sandbox == null || !sandbox.ready()) {
      return sandboxChanged(policy, sandbox == null ? 0 : sandbox.attempt() + 1, inits, regular);
    }
    Actions a = inSandbox(policy, inits, regular);
    return sandbox.attempt() == 0 ? a : new Actions(a.initToStart(), a.initToKill(), a.containersToStart(),
        a.killPod(), a.initialized(), false, sandbox.attempt());
  }

  /**
   * {@code computePodActions} when the sandbox is to be replaced by attempt {@code attempt}: everything is killed and
   * started again from the first init container, unless the pod is done.
   */
  private static Actions sandboxChanged(RestartPolicy policy, int attempt, List<Init> inits,
      List<@Nullable Observed> regular) {
    boolean visible = false;
    for (Init c : inits) {
      visible |= c.observed() != null;
    }
    for (Observed o : regular) {
      visible |= o != null;
    }
    if (policy == RestartPolicy.Never && attempt != 0 && visible) {
      // a pod that is not restarted gets no new sandbox; with no container visible it never ran one, and is retried
      return new Actions(List.of(), List.of(), List.of(), true, false, false, attempt);
    }
    List<Integer> containers = new ArrayList<>();
    boolean created = false;
    for (int i = 0; i < regular.size(); i++) {
      Observed o = regular.get(i);
      created |= o != null && o.state() != RuntimeState.Unknown;
      if (policy == RestartPolicy.OnFailure && o != null && o.state() != RuntimeState.Running && o.exitCode() == 0) {
        continue; // containerSucceeded: not running, exit code 0; not run again
      }
      containers.add(i);
    }
    if (containers.isEmpty() && created) {
      // initialized (a regular container was created) and nothing left to run: only killed
      return new Actions(List.of(), List.of(), List.of(), true, true, false, attempt);
    }
    if (!inits.isEmpty()) {
      return new Actions(List.of(0), List.of(), List.of(), true, false, true, attempt);
    }
    return new Actions(List.of(), List.of(), containers, true, true, true, attempt);
  }

  private static Actions inSandbox(RestartPolicy policy, List<Init> inits, List<@Nullable Observed> regular) {
    List<Integer> start = new ArrayList<>();
    List<Integer> kill = new ArrayList<>();
    boolean initialized = inits.isEmpty();
    if (!initialized) {
      // a regular container created or running means the init containers ran before, even if the runtime no longer
      // has them; one that exited does not count (after a node reboot every container has exited)
      boolean podHasInitialized = false;
      for (Observed o : regular) {
        if (o != null && (o.state() == RuntimeState.Created || o.state() == RuntimeState.Running)) {
          podHasInitialized = true;
          break;
        }
      }
      boolean previouslyInitialized = podHasInitialized;
      boolean restartOnFailure = policy != RestartPolicy.Never;
      int last = inits.size() - 1;
      for (int i = last; i >= 0; i--) {
        Init c = inits.get(i);
        Observed o = c.observed();
        if (o == null) {
          if (previouslyInitialized && c.restartable()) {
            start.add(i); // a sidecar of an initialized pod that the runtime lost
          }
          continue;
        }
        if (previouslyInitialized && !c.restartable()) {
          continue; // after initialization only sidecars are kept running
        }
        switch (o.state()) {
          case Created -> start.add(i); // the runtime failed to start it: start it again
          case Running -> {
            if (!c.restartable()) {
              break; // wait for it to finish
            }
            if (c.startupProbe()) {
              if (c.startup() == null) {
                break; // its startup probe has not run yet
              }
              if (c.startup() != ProbeResult.Success) {
                if (c.startup() == ProbeResult.Failure) {
                  kill.add(i);
                  start.add(i);
                }
                break;
              }
            }
            if (i == last) {
              podHasInitialized = true;
            } else if (!previouslyInitialized) {
              start.add(i + 1); // started for the first time: start the next one
            }
            if (c.changed()) {
              kill.add(i);
              start.add(i);
              break;
            }
            // a sidecar's liveness does not hold back the next init container
            if (c.livenessProbe() && c.liveness() == ProbeResult.Failure) {
              kill.add(i);
              start.add(i);
            }
          }
          case Exited -> {
            if (c.restartable()) {
              start.add(i);
            } else if (o.exitCode() != 0) {
              if (!restartOnFailure) {
                return new Actions(List.of(), kill, List.of(), true, false);
              }
              start.add(i);
            } else if (i == last) {
              podHasInitialized = true;
            } else {
              start.add(i + 1);
            }
          }
          case Unknown -> {
            if (!c.restartable() && !restartOnFailure) {
              return new Actions(List.of(), kill, List.of(), true, false);
            }
            kill.add(i);
            start.add(i);
          }
        }
        previouslyInitialized = true;
      }
      if (!previouslyInitialized) {
        start.add(0); // nothing has run yet
      }
      Collections.reverse(start);
      Collections.reverse(kill);
      initialized = podHasInitialized;
    }
    if (!initialized) {
      return new Actions(start, kill, List.of(), false, false);
    }
    List<Integer> containers = new ArrayList<>();
    int keep = 0;
    for (int i = 0; i < regular.size(); i++) {
      Observed o = regular.get(i);
      if (o != null && o.state() == RuntimeState.Running) {
        keep++;
      } else if (shouldRestart(policy, o)) {
        containers.add(i);
      }
    }
    if (keep == 0 && containers.isEmpty()) {
      // nothing left to run: the pod is done, and its sidecars are not restarted to keep it alive
      return new Actions(List.of(), kill, List.of(), true, true);
    }
    return new Actions(start, kill, containers, false, true);
  }

  /** kubelet's {@code ShouldContainerBeRestarted} for a container that is not running. */
  private static boolean shouldRestart(RestartPolicy policy, @Nullable Observed o) {
    if (o == null || o.state() == RuntimeState.Unknown || o.state() == RuntimeState.Created) {
      return true;
    }
    return switch (policy) {
      case Never -> false;
      case OnFailure -> o.exitCode() != 0;
      case Always -> true;
    };
  }
}
