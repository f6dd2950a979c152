package io.fleetkit.reconcile.node;

import io.fleetkit.api.core.Container;
import io.fleetkit.api.core.ContainerState;
import io.fleetkit.api.core.ContainerStateType;
import io.fleetkit.api.core.ContainerStatus;
import io.fleetkit.api.core.Lifecycle;
import io.fleetkit.api.core.LifecycleHandler;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.core.Probe;
import io.fleetkit.api.core.ProbeHandler;
import io.fleetkit.api.core.ProbeType;
import io.fleetkit.api.core.RestartPolicy;
import io.fleetkit.api.core.Signal;
import io.fleetkit.api.events.EventRecorder;
import io.fleetkit.api.time.TimerClock;
import io.fleetkit.reconcile.node.InitContainerActions.Observed;
import io.fleetkit.reconcile.probe.ContainerProbes;
import io.fleetkit.reconcile.probe.ContainerView;
import io.fleetkit.reconcile.probe.KubeletRestart;
import io.fleetkit.reconcile.probe.ProbeOutcome;
import io.fleetkit.reconcile.probe.ProbeResult;
import io.fleetkit.reconcile.probe.ProbeTarget;
import io.fleetkit.reconcile.probe.ProbeWorker;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The kubelet's view of one pod on a simulated node: its containers' runs, restarts, backoff and probes. Advanced
 * to an instant by {@link #advance}; each transition happens at the instant its script or probe tick says, in time
 * order per container, so processing late does not shift the timeline. Declared probes run through
 * {@link ContainerProbes} on their period grid (from the moment the pod was added, as the kubelet's workers do) and
 * are answered from the run's {@link ContainerScript}; ticks that cannot change anything (the worker is settled on
 * the answer until the answer next changes) are skipped.
 *
 * <p>Init containers (only for a pod that has them: a pod without costs nothing here) run as the kubelet runs them
 * ({@link InitContainerActions}): one at a time in spec order; a regular init container must exit 0 before the next
 * one starts, a sidecar (restartable init container) must have started (its startup probe passed, or it has none);
 * the regular containers start once the last one has. A failed regular init container fails the pod under
 * {@code restartPolicy: Never} and is restarted with CrashLoopBackOff otherwise; a sidecar is restarted whenever it
 * exits, whatever the policy, and is stopped (SIGTERM, then SIGKILL when the grace period runs out, in reverse spec
 * order: {@link #stopSidecars}) when the regular containers are all done. A kubelet restart
 * ({@link #kubeletRestarted}) keeps the containers running and rebuilds the kubelet's memory: new probe workers,
 * whose results the readiness of survivors inherits until they have their own ({@link KubeletRestart}), and no
 * restart backoff. Every stop of a running container goes through {@link #scheduleStop} (the kubelet's
 * {@code killContainer}), which runs the container's {@code preStop} hook first; {@code postStart} runs after each
 * start; hook failures are kept for the agent to report ({@link #drainHookFailures}). A run being stopped keeps its
 * readiness probe until its process exits; what the application answers after the stop signal is its script's
 * ({@link ContainerScript#readinessFailsAfterStop()}). Not thread-safe: owned by one {@link NodeAgent}.
 */
final class PodRuntime {
  /** Container waiting reason while the kubelet holds a restart back. */
  static final String CRASH_LOOP_BACK_OFF = "CrashLoopBackOff";
  /** Container waiting reason before the first start, for a pod without init containers. */
  static final String CONTAINER_CREATING = "ContainerCreating";
  /** Container waiting reason before the first start, for a pod with init containers (init containers included). */
  static final String POD_INITIALIZING = "PodInitializing";
  /** The reason of {@code Initialized=False}. */
  static final String CONTAINERS_NOT_INITIALIZED = PodConditions.CONTAINERS_NOT_INITIALIZED;
  /** The reason of a container that exited with a code other than 0, or was killed. */
  static final String REASON_ERROR = "Error";
  /**
   * The reason the status manager gives a container of a finished pod that has no terminated state of its own
   * ({@code kubecontainer.ContainerReasonStatusUnknown}).
   */
  static final String CONTAINER_STATUS_UNKNOWN = "ContainerStatusUnknown";
  /** The reason of a container the kernel's OOM killer ended: its memory usage exceeded its limit. */
  static final String OOM_KILLED = "OOMKilled";
  /** The reason of {@code Initialized=True} of a pod with init containers that succeeded. */
  static final String POD_COMPLETED = PodConditions.POD_COMPLETED;
  private static final ProbeTarget NO_TARGET = ProbeTarget.of("");
  /** Finds nothing. */
  static final ConfigReferences.Lookup NO_OBJECTS = new ConfigReferences.Lookup() {
    @Override
    public io.fleetkit.api.core.@Nullable ConfigMap configMap(String namespace, String name) {
      return null;
    }

    @Override
    public io.fleetkit.api.core.@Nullable Secret secret(String namespace, String name) {
      return null;
    }
  };
  /**
   * The wait before the pod worker syncs a pod again after a sync that failed ({@code backOffPeriod} of the kubelet,
   * without its jitter): how often a container in {@code CreateContainerConfigError} is tried again.
   */
  static final Duration CONFIG_RETRY = Duration.ofSeconds(10);
  /** The first wait before a failed volume set-up is tried again ({@code initialDurationBeforeRetry}). */
  static final Duration MOUNT_BACKOFF_INITIAL = Duration.ofMillis(500);
  /** The longest such wait ({@code maxDurationBeforeRetry}, 2 m 2 s); it doubles up to it. */
  static final Duration MOUNT_BACKOFF_MAX = Duration.ofSeconds(122);
  /** The shortest stop the kubelet gives a container ({@code minimumGracePeriodInSeconds}). */
  static final long MINIMUM_GRACE_PERIOD_SECONDS = 2;

  final String key;
  Pod pod;
  final Instant startTime;
  final List<ContainerRun> containers = new ArrayList<>();
  /** The init containers' runs in spec order; the shared empty list for a pod without. */
  final List<ContainerRun> inits;
  /** Whether initialization is complete (at once for a pod without init containers). */
  private boolean initialized;
  /** Whether a regular init container failed under {@code restartPolicy: Never}: the pod failed. */
  private boolean initFailed;
  /** Whether the pod, under {@code restartPolicy: Never}, lost a running container to a reboot: it failed. */
  private boolean lost;
  private boolean sidecarsStopped;
  /**
   * While the pod is being deleted: the grace period of the kill under way ({@link #killForDeletion}), in seconds;
   * {@code -1} otherwise. Nothing starts or restarts any more.
   */
  private long deletionGrace = -1;
  /**
   * The message of the kubelet's eviction of the pod under node pressure ({@link #evict}); {@code null} while it is not
   * evicted. An evicted pod is Failed with reason {@code Evicted} from the eviction on.
   */
  private @Nullable String evictionMessage;
  /** Whether the pod's sandbox is ready: created with the pod's first actions, torn down when the pod is done. */
  private boolean sandboxReady;
  /** When the current sandbox was created; {@code null} before. */
  private @Nullable Instant sandboxCreatedAt;
  TimerClock.@Nullable Timer timer;
  @Nullable Instant timerAt;
  /**
   * Finds the ConfigMaps and Secrets the pod refers to ({@link ConfigReferences}); the agent sets its store's. None
   * is found by default.
   */
  ConfigReferences.Lookup objects = NO_OBJECTS;
  /**
   * Whether the pod's config map, secret and projected volumes are set up (at once for a pod without any); until then
   * nothing starts, its sandbox included, and the containers wait in {@code ContainerCreating} ({@link #mountVolumes}).
   */
  private boolean volumesMounted;
  /** When the volume manager tries again to set up the volumes that failed; {@code null} when nothing waits. */
  private @Nullable Instant mountRetryAt;
  /** The wait before the next try after a failed one (the operation executor's exponential backoff). */
  private Duration mountBackoff = MOUNT_BACKOFF_INITIAL;
  /** The kubelet's Warning events on the pod not yet reported ({@link #drainWarnings}). */
  private final List<Warning> warnings = new ArrayList<>(0);
  /** Lifecycle hook failures not yet reported ({@link #drainHookFailures}). */
  private final List<HookFailure> hookFailures = new ArrayList<>(0);
  /** Whether a container or init container declares a {@code postStart} hook, which can hold the pod's sync. */
  private final boolean hasPostStartHooks;
  /**
   * While the kubelet's sync of the pod waits for a {@code startContainer} to return (its {@code postStart} hook, and
   * the kill after the hook failed): the instant it returns; {@code null} otherwise. See {@link #syncBlocked()}.
   */
  private @Nullable Instant syncBlockedUntil;
  /** The run whose {@code startContainer} the sync waits for; {@code null} when it waits for none. */
  private @Nullable ContainerRun blockingRun;
  /** When the last such wait ended (the actions it held back happen then); {@code null} before any. */
  private @Nullable Instant syncResumedAt;
  /** When the sync that waits began: the runs it started are not in its status ({@link #hidden}). */
  private @Nullable Instant waitBegan;
  /** Whether the current wait is for the first start of a regular container (the sync may go on with the next). */
  private boolean waitingOnFirstStart;
  /** Whether a wait for a first start ended in this {@link #advance} call: the same sync goes on starting. */
  private boolean syncGoesOn;

  /**
   * A lifecycle hook that failed: the kubelet's Warning event on the container ({@code FailedPostStartHook} or
   * {@code FailedPreStopHook}).
   *
   * @param fieldPath the container, e.g. {@code spec.containers{web}}
   */
  record HookFailure(String fieldPath, String reason, String message) {}

  /**
   * A Warning event of the kubelet about the pod: {@code FailedMount} on the pod (empty {@code fieldPath}) or
   * {@code Failed} on a container it could not create ({@code spec.containers{web}}).
   */
  record Warning(String fieldPath, String reason, String action, String message) {}

  /** The Warning events since the last call, in the order they happened. */
  List<Warning> drainWarnings() {
    return drain(warnings);
  }

  private static <T> List<T> drain(List<T> pending) {
    if (pending.isEmpty()) {
      return List.of();
    }
    List<T> out = List.copyOf(pending);
    pending.clear();
    return out;
  }

  /** The hook failures since the last call, in the order they happened. */
  List<HookFailure> drainHookFailures() {
    return drain(hookFailures);
  }

  PodRuntime(Pod pod, Instant now) {
    this(pod, now, null);
  }

  /**
   * A pod's runtime; after a reboot, {@code reboot} holds what the node kept of the pod's runs before it (the
   * restart counts its status showed and its containers' log directories).
   */
  PodRuntime(Pod pod, Instant now, @Nullable Reboot reboot) {
    this.key = pod.metadata().key();
    this.pod = pod;
    this.startTime = now;
    this.hasPostStartHooks = hasPostStart(pod.spec().containers()) || hasPostStart(pod.spec().initContainers());
    this.volumesMounted = !ConfigReferences.hasConfigVolumes(pod);
    List<Container> initSpecs = pod.spec().initContainers();
    String waiting = initSpecs.isEmpty() ? CONTAINER_CREATING : POD_INITIALIZING;
    for (Container c : pod.spec().containers()) {
      containers.add(new ContainerRun(c, now, Kind.REGULAR, waiting));
    }
    if (initSpecs.isEmpty()) {
      inits = List.of();
      initialized = true;
    } else {
      inits = new ArrayList<>(initSpecs.size());
      for (Container c : initSpecs) {
        inits.add(new ContainerRun(c, now, c.isRestartable() ? Kind.SIDECAR : Kind.INIT, POD_INITIALIZING));
      }
    }
    if (reboot != null && reboot.uid().equals(pod.metadata().uid())) {
      reboot.restore(containers, reboot.containers(), reboot.keptContainers());
      reboot.restore(inits, reboot.inits(), reboot.keptInits());
      if (!inits.isEmpty() && inits.stream().allMatch(c -> c.done && c.state == ContainerStateType.Terminated)) {
        initialized = true; // every init container ran for good before the reboot: nothing to run again
      }
      if (pod.spec().restartPolicy() == RestartPolicy.Never && lostAtReboot(reboot)) {
        failLostContainers(reboot);
      } else if (!inits.isEmpty() && mainDone()) {
        loseSidecars(reboot); // the regular containers ended for good before it: the pod is done, not restarted
      }
    }
  }

  private static boolean hasPostStart(List<Container> specs) {
    for (Container c : specs) {
      if (c.lifecycle() != null && c.lifecycle().postStart() != null) {
        return true;
      }
    }
    return false;
  }

  /** Whether a container of the pod declares a {@code postStart} hook (only then can {@link #syncBlocked} hold). */
  boolean hasPostStartHooks() {
    return hasPostStartHooks;
  }

  /**
   * Whether the kubelet's sync of the pod is waiting for a {@code postStart} hook: {@code startContainer} runs the
   * hook synchronously after the runtime started the container (and, when the hook fails, the kill with its
   * {@code preStop} hook and grace period), so the sync that started it does nothing else until it returns. Meanwhile
   * no other container of the pod starts, restarts or is killed after a failed probe, and no sidecar is stopped:
   * what came due is done when the hook returns. The status shows the runs this sync started as the sync found
   * them before it started them (their previous state and restart count, not started, not ready: the status is
   * generated before the containers start), so the container is not seen running, its probes do not run, and the
   * pod does not become Running or Ready, until the hook returned. A deletion cancels the wait (the pod worker
   * cancels the sync's context), as does a kubelet restart.
   */
  boolean syncBlocked() {
    return syncBlockedUntil != null;
  }

  /**
   * Whether a {@code restartPolicy: Never} pod failed with the reboot, as the kubelet decides it before it would
   * compute any action ({@code SyncPod} returns early for a terminal phase): {@code convertToAPIContainerStatuses}
   * gives a container whose previous status was running and which the runtime no longer lists a last termination
   * state (137, {@code ContainerStatusUnknown}, "The container could not be located when the pod was deleted.  The
   * container used to be Running") and one more restart; {@code getPhase} then counts such a regular init container
   * as a failed initialization and such a regular container as stopped without success, and under {@code Never}
   * the pod is Failed when an init container failed, or when no regular container waits to start and none runs
   * while one stopped in failure. A sidecar's lost run does not count for the phase.
   */
  private boolean lostAtReboot(Reboot reboot) {
    for (int i = 0; i < inits.size(); i++) {
      if (inits.get(i).kind == Kind.INIT && reboot.runningInits()[i]) {
        return true;
      }
    }
    boolean anyLost = false;
    for (int i = 0; i < containers.size(); i++) {
      ContainerRun c = containers.get(i);
      if (reboot.runningContainers()[i]) {
        anyLost = true;
      } else if (!c.done) {
        return false; // never started: it waits, the pod is Pending and starts over in a new sandbox
      }
    }
    return anyLost;
  }

  /**
   * The statuses of a pod lost at a reboot once it is terminal (the status manager's {@code TerminatePod}): each run
   * that was running is reported terminated with 137, reason {@code ContainerStatusUnknown} and no finish time, its
   * restart count one more than its status showed; a sidecar held back in CrashLoopBackOff likewise, without the
   * extra restart; runs that never started keep waiting. No sandbox is created and nothing runs again.
   */
  private void failLostContainers(Reboot reboot) {
    lost = true;
    for (int i = 0; i < containers.size(); i++) {
      if (reboot.runningContainers()[i]) {
        lose(containers.get(i), true);
      }
    }
    for (int i = 0; i < inits.size(); i++) {
      if (inits.get(i).kind == Kind.INIT && reboot.runningInits()[i]) {
        lose(inits.get(i), true);
      }
    }
    loseSidecars(reboot);
  }

  /**
   * The sidecars of a pod that is done with the reboot: none starts again; one that was running, or had run, is
   * reported as {@link #failLostContainers} reports a lost run.
   */
  private void loseSidecars(Reboot reboot) {
    for (int i = 0; i < inits.size(); i++) {
      ContainerRun c = inits.get(i);
      if (c.kind != Kind.SIDECAR) {
        continue;
      }
      if (reboot.runningInits()[i]) {
        lose(c, true);
      } else if (reboot.inits()[2 * i + 1] >= 0) {
        lose(c, false); // it ran before; TerminatePod reports the evidence of a start as unknown
      } else {
        c.done = true; // never started: it stays waiting and never will
      }
    }
    sidecarsStopped = true;
  }

  private static void lose(ContainerRun c, boolean wasRunning) {
    c.state = ContainerStateType.Terminated;
    c.exitCode = ContainerScript.KILLED_EXIT_CODE;
    c.reason = CONTAINER_STATUS_UNKNOWN;
    c.finishedAt = null;
    if (wasRunning) {
      c.restartCount++;
    }
    c.done = true;
  }

  /**
   * What a reboot leaves of a pod's runs, per container in spec order: the restart count its status showed, and the
   * restart count of its last run that started (the number of its newest log file, {@code N.log}), -1 when none did.
   * The node is modelled as rebooting with a runtime that keeps no containers or sandboxes across it (the case
   * upstream's {@code calcRestartCountByLogDir} is for); the pod log directories survive.
   */
  record Reboot(String uid, int[] containers, int[] inits, List<@Nullable Kept> keptContainers,
      List<@Nullable Kept> keptInits, boolean[] runningContainers, boolean[] runningInits) {
    /** Per run, whether it was running when the node went down (its status showed it running). */
    static boolean[] running(List<ContainerRun> runs) {
      boolean[] out = new boolean[runs.size()];
      for (int i = 0; i < out.length; i++) {
        out[i] = runs.get(i).running();
      }
      return out;
    }

    /** Entries {@code 2 i} (shown restart count) and {@code 2 i + 1} (last log) per run. */
    static int[] of(List<ContainerRun> runs) {
      int[] out = new int[runs.size() * 2];
      for (int i = 0; i < runs.size(); i++) {
        out[2 * i] = runs.get(i).restartCount;
        out[2 * i + 1] = runs.get(i).lastLog;
      }
      return out;
    }

    /**
     * Per run, its terminated state when it ended for good under a restart policy other than Always (a container
     * that succeeded under OnFailure, any finished one under Never, an init container that succeeded), else
     * {@code null}: upstream's {@code computePodActions} does not start a succeeded container of an OnFailure pod in
     * a new sandbox, and the API server refuses a terminated container of such a pod that runs again.
     */
    static List<@Nullable Kept> kept(List<ContainerRun> runs, RestartPolicy policy) {
      List<@Nullable Kept> out = new ArrayList<>(runs.size());
      for (ContainerRun c : runs) {
        out.add(policy != RestartPolicy.Always && c.kind != Kind.SIDECAR && c.done
            && c.state == ContainerStateType.Terminated
            ? new Kept(c.exitCode, c.startedAt, c.finishedAt, c.reason) : null);
      }
      return out;
    }

    void restore(List<ContainerRun> runs, int[] from, List<@Nullable Kept> kept) {
      for (int i = 0; i < runs.size() && 2 * i + 1 < from.length; i++) {
        ContainerRun c = runs.get(i);
        c.restartCount = from[2 * i];
        c.lastLog = from[2 * i + 1];
        Kept k = i < kept.size() ? kept.get(i) : null;
        if (k != null) {
          c.state = ContainerStateType.Terminated;
          c.exitCode = k.exitCode();
          c.startedAt = k.startedAt();
          c.finishedAt = k.finishedAt();
          c.reason = k.reason();
          c.done = true;
        }
      }
    }
  }

  /** A run's terminated state, kept across a reboot. */
  record Kept(int exitCode, @Nullable Instant startedAt, @Nullable Instant finishedAt, String reason) {}

  /** What a reboot now would leave of this pod's runs. */
  Reboot reboot() {
    RestartPolicy policy = pod.spec().restartPolicy();
    return new Reboot(pod.metadata().uid(), Reboot.of(containers),
        inits.isEmpty() ? new int[0] : Reboot.of(inits), Reboot.kept(containers, policy), Reboot.kept(inits, policy),
        Reboot.running(containers), Reboot.running(inits));
  }

  /** What a container is to its pod. */
  enum Kind {
    REGULAR,
    /** A regular init container: runs to completion before the next one starts. */
    INIT,
    /** A restartable init container: started in the init sequence, then kept running beside the containers. */
    SIDECAR
  }

  /** One container: its current run, restart bookkeeping and probe workers. */
  static final class ContainerRun {
    final Container spec;
    final Kind kind;
    /** The signal {@code StopContainer} sends: the container's {@code lifecycle.stopSignal}, else SIGTERM. */
    final Signal stopSignal;
    ContainerProbes probes;
    /** Workers settled for the rest of the current run: they tick again only on the next run. */
    final Set<ProbeType> parked = EnumSet.noneOf(ProbeType.class);
    int restartCount;
    /** The restart count of the last run that started (its log file's number); -1 when none has. */
    int lastLog = -1;
    ContainerScript script = ContainerScript.healthy();
    ContainerStateType state = ContainerStateType.Waiting;
    String reason;
    @Nullable Instant startedAt;
    @Nullable Instant finishedAt;
    int exitCode;
    boolean done;
    /** The last run's termination ({@code lastState}), set when a run ends; {@code null} before any. */
    @Nullable ContainerState lastTerminated;
    /** The termination before {@link #lastTerminated}: the {@code lastState} while the last one is the state. */
    @Nullable ContainerState olderTerminated;
    @Nullable Instant backoffUntil;
    /** The waiting message of {@code CreateContainerConfigError}: why the configuration could not be made. */
    String message = "";
    /**
     * While the container waits in {@code CreateContainerConfigError}: when the kubelet tries to create it again;
     * {@code null} otherwise.
     */
    @Nullable Instant configRetryAt;
    /** Whether that try restarts a container that ran before (its restart count goes up when it starts). */
    boolean configRetryIsRestart;
    /** When the kubelet restarted while this run was running; {@code null} otherwise. */
    @Nullable Instant kubeletStart;
    /** While the kubelet stops this (sidecar) run: when it exits, on SIGTERM or SIGKILL; {@code null} otherwise. */
    @Nullable Instant stopExitAt;
    /** The exit code of that exit. */
    int stopExitCode;
    /**
     * While the kubelet stops this run: when it sent (or sends) the stop signal, once the {@code preStop} hook
     * returned; {@code null} otherwise. The script's readiness may answer it ({@link ContainerScript#answerAt}).
     */
    @Nullable Instant stopSignalAt;
    /** Whether that stop is a liveness kill: the run is restarted per policy afterwards. */
    boolean restartAfterStop;
    /**
     * When a lifecycle hook of this run fails ({@link #hookFailReason} says which); {@code null} when none is due. A
     * failed {@code postStart} kills the run, a failed {@code preStop} is only reported.
     */
    @Nullable Instant hookFailsAt;
    @Nullable String hookFailReason;
    @Nullable String hookFailMessage;
    /** A probe's kill verdict reached while the pod's sync waits ({@link #syncBlocked}); acted on when it resumes. */
    @Nullable ProbeType pendingKill;
    /** Whether this run exited while the pod's sync waits: the restart decision is taken when it resumes. */
    boolean restartPending;
    /**
     * How the status showed this container before its current run started (state, restart count, the start of the
     * run it showed); kept only for a pod with {@code postStart} hooks, whose sync can wait with this run hidden.
     */
    @Nullable ContainerState shownBefore;
    int restartsBefore;
    @Nullable Instant startedBefore;

    ContainerRun(Container spec, Instant podAdded, Kind kind, String waitingReason) {
      this.spec = spec;
      this.kind = kind;
      Signal named = spec.lifecycle() == null ? null : spec.lifecycle().signal();
      this.stopSignal = named == null ? Signal.SIGTERM : named;
      this.reason = waitingReason;
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
      return running() && stopExitAt == null && probes.worker(ProbeType.Liveness) == null
          && script.livenessFailsAfter() != null
          ? startedAt.plus(script.livenessFailsAfter()) : null;
    }

    /**
     * When a worker of this run ticks next. A run being stopped is probed on: readiness until the process exits (the
     * kubelet's readiness worker runs until the containers stopped), liveness and startup unless the pod's
     * termination stopped them ({@link ContainerProbes#stopLivenessAndStartup}); their kill verdicts no longer count.
     */
    @Nullable Instant tickAt() {
      if (!running() || pendingKill != null) {
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
      return answerChangeAfter(ProbeType.Readiness, now);
    }

    /** The script's answer to a probe of {@code type} at {@code at}, given the stop signal this run got. */
    ProbeResult answerAt(ProbeType type, Instant at) {
      return script.answerAt(type, Duration.between(startedAt, at), signalledAfter());
    }

    /** When the script's answer to a probe of {@code type} changes next after {@code at}; {@code null}: never. */
    @Nullable Instant answerChangeAfter(ProbeType type, Instant at) {
      Duration next = script.nextChange(type, Duration.between(startedAt, at), signalledAfter());
      return next == null ? null : startedAt.plus(next);
    }

    private @Nullable Duration signalledAfter() {
      return stopSignalAt == null ? null : Duration.between(startedAt, stopSignalAt);
    }

    boolean started() {
      return probes.started(state, containerId());
    }

    /** Readiness; {@code apiPod} is the pod as the API server has it (read only after a kubelet restart). */
    boolean ready(Instant now, Pod apiPod) {
      if (!running() || !started()) {
        return false;
      }
      if (probes.worker(ProbeType.Readiness) != null) {
        boolean ready = probes.ready(state, containerId());
        if (kubeletStart != null && !ready && !probes.hasResult(ProbeType.Readiness, containerId())) {
          ready = readyAfterKubeletRestart(apiPod);
        }
        return ready;
      }
      return answerAt(ProbeType.Readiness, now) == ProbeResult.Success;
    }

    /** The prober manager's rule for a survivor of a kubelet restart whose readiness probe has no result yet. */
    private boolean readyAfterKubeletRestart(Pod apiPod) {
      ContainerStatus api = apiStatus(apiPod, this);
      // FleetKit's container statuses carry no container ID: an instance is its name and restart count
      Map<String, String> apiIds = api == null ? Map.of() : Map.of(api.name(), api.name() + "#" + api.restartCount());
      boolean inherit = KubeletRestart.canInheritProbeState(apiIds, spec.name(), containerId());
      return KubeletRestart.ready(false, false, KubeletRestart.survived(startedAt, kubeletStart), inherit, true,
          apiPod.isReady());
    }

    /**
     * Skips the ticks of workers that cannot change anything before the script's answer next changes. A worker
     * waiting for a start that can no longer come (the startup worker was stopped first) is parked at once.
     */
    void settle() {
      boolean neverStarts = !started() && probes.worker(ProbeType.Startup) != null
          && probes.worker(ProbeType.Startup).stopped();
      for (ProbeType t : ProbeType.values()) {
        ProbeWorker w = probes.worker(t);
        Instant at = probes.nextTick(t);
        if (w == null || at == null || parked.contains(t)) {
          continue;
        }
        if (neverStarts && t != ProbeType.Startup) {
          parked.add(t); // liveness and readiness probe only a started container
          continue;
        }
        if (!w.containerId().equals(containerId())) {
          continue;
        }
        Duration since = Duration.between(startedAt, at);
        if (since.isNegative() || !w.settledOn(answerAt(t, at))) {
          continue;
        }
        boolean waitsForStart = t != ProbeType.Startup && !started();
        if (w.onHold() || w.stopped() || (t == ProbeType.Startup && started())) {
          parked.add(t);
        } else if (!waitsForStart) {
          Instant change = answerChangeAfter(t, at);
          if (change == null) {
            parked.add(t);
          } else {
            probes.skipTo(t, change);
          }
        }
      }
    }

    /**
     * The kubelet sends this run its stop signal at {@code signal}, in a stop decided at {@code processed}, when
     * every event of the run up to that instant was handled (its probe ticks at that instant included). When the
     * script's readiness answers the signal, the readiness ticks that settling skipped matter again from the moment
     * the answers fail: the worker is unparked and its next tick moved onto the first point of its grid at or after
     * that moment and after {@code processed}, as if it had ticked all along.
     */
    void signalledAt(Instant signal, Instant processed) {
      stopSignalAt = signal;
      Duration failsAfter = script.readinessFailsAfterStop();
      Instant next = probes.nextTick(ProbeType.Readiness);
      if (failsAfter == null || next == null) {
        return;
      }
      Instant failsFrom = signal.plus(failsAfter);
      Instant from = processed.isBefore(failsFrom) ? failsFrom : processed.plusNanos(1);
      if (parked.remove(ProbeType.Readiness) || next.isAfter(from)) {
        probes.resumeFrom(ProbeType.Readiness, from);
      }
    }
  }

  /**
   * Whether the pod is done (Succeeded or Failed, nothing runs any more): {@link #mainDone} and every sidecar
   * stopped.
   */
  boolean finished() {
    if (!mainDone()) {
      return false;
    }
    if (inits.isEmpty()) {
      return true;
    }
    if (!sidecarsStopped) {
      return false;
    }
    for (ContainerRun c : inits) {
      if ((c.kind == Kind.SIDECAR || deletionGrace >= 0) && !c.done) {
        return false; // still stopping
      }
    }
    return true;
  }

  /**
   * Whether every regular container finished for good, or an init container (or a reboot) failed the pod: the
   * kubelet then kills the pod, its sidecars included, rather than restart anything.
   */
  boolean mainDone() {
    if (initFailed || lost) {
      return true;
    }
    for (ContainerRun c : containers) {
      if (!c.done) {
        return false;
      }
    }
    return !containers.isEmpty();
  }

  /** Runs every transition due at or before {@code now}. */
  void advance(Instant now, HealthSource health, RestartBackoff backoff) {
    syncGoesOn = false;
    if (!volumesMounted && deletionGrace < 0 && !mountVolumes(now)) {
      return; // WaitForAttachAndMount: the sync goes no further, the containers wait in ContainerCreating
    }
    if (!sandboxReady && (inits.isEmpty() || initialized) && !mainDone()) {
      // computePodActions without init containers to run (none, or all done before a reboot): a new sandbox,
      // then every container
      createSandbox(now);
    }
    boolean changed = true;
    while (changed) {
      changed = resumeSync(now);
      if (!inits.isEmpty()) {
        changed |= advanceInits(now, health, backoff);
      }
      for (ContainerRun c : containers) {
        changed |= advance(c, now, health, backoff);
      }
      if (!inits.isEmpty() && mainDone() && !sidecarsStopped && syncBlockedUntil == null) {
        stopSidecars(now);
        changed = true; // a sidecar that SIGTERM ends at once exits now
      }
    }
    if (sandboxReady && finished()) {
      sandboxReady = false; // the pod is done: the kubelet kills it, its sandbox included
    }
    if (syncBlockedUntil == null) {
      waitBegan = null; // the sync that waited is over: the next status is generated afresh
    }
  }

  /**
   * Ends the sync's wait for a {@code startContainer} that returned by {@code now}. When its {@code postStart} hook
   * failed, the kubelet records {@code FailedPostStartHook} and kills the container before {@code startContainer}
   * returns, so the sync then waits for that kill too.
   *
   * @return whether something changed
   */
  private boolean resumeSync(Instant now) {
    if (syncBlockedUntil == null || syncBlockedUntil.isAfter(now)) {
      return false;
    }
    Instant end = syncBlockedUntil;
    ContainerRun c = blockingRun;
    syncBlockedUntil = null;
    blockingRun = null;
    if (c != null && c.running() && c.hookFailsAt != null
        && EventRecorder.FAILED_POST_START_HOOK.equals(c.hookFailReason)) {
      Instant killed = postStartFailed(c, c.hookFailsAt);
      // the sync goes on waiting with the runs it started left out of the status: no worker finds them
      Instant from = waitBegan != null ? waitBegan : c.startedAt;
      hideUntil(containers, from, killed);
      hideUntil(inits, from, killed);
      if (killed.isAfter(now)) {
        syncBlockedUntil = killed;
        return true;
      }
      end = killed.isAfter(end) ? killed : end;
    }
    syncResumedAt = end;
    syncGoesOn = waitingOnFirstStart; // SyncPod goes on with the next container to start, its status unchanged
    return true;
  }

  /** Whether the status leaves out {@code c}'s current run: the sync that started it waits for a postStart hook. */
  private boolean hidden(ContainerRun c) {
    return waitBegan != null && c.shownBefore != null && c.running() && !c.startedAt.isBefore(waitBegan);
  }

  /** When the actions held back by a wait for {@code postStart} happen: at {@code at}, or when the wait ended. */
  private Instant notBeforeResume(Instant at) {
    return syncResumedAt != null && syncResumedAt.isAfter(at) ? syncResumedAt : at;
  }

  /**
   * The volume manager's set-up of the pod's config map, secret and projected volumes, tried when due: once every one
   * can be set up ({@link ConfigReferences#mountFailures}) they stay mounted; a failure records a {@code FailedMount}
   * Warning per volume and is tried again after the operation executor's backoff (0.5 s, doubling up to 2 m 2 s).
   *
   * @return whether the volumes are mounted
   */
  private boolean mountVolumes(Instant now) {
    if (mountRetryAt != null && mountRetryAt.isAfter(now)) {
      return false;
    }
    List<ConfigReferences.MountFailure> failures = ConfigReferences.mountFailures(pod, objects);
    if (failures.isEmpty()) {
      volumesMounted = true;
      mountRetryAt = null;
      return true;
    }
    for (ConfigReferences.MountFailure f : failures) {
      warnings.add(new Warning("", ConfigReferences.FAILED_MOUNT, "MountVolume", f.message()));
    }
    mountRetryAt = now.plus(mountBackoff);
    Duration doubled = mountBackoff.multipliedBy(2);
    mountBackoff = doubled.compareTo(MOUNT_BACKOFF_MAX) > 0 ? MOUNT_BACKOFF_MAX : doubled;
    return false;
  }

  /**
   * Whether the kubelet can make the configuration of {@code c} at {@code now} ({@code generateContainerConfig}: its
   * environment, {@link ConfigReferences#envError}). When it cannot, the container waits in
   * {@code CreateContainerConfigError} with the error as message, a {@code Failed} Warning ({@code Error: ...}) is
   * recorded on it, and it is tried again after {@link #CONFIG_RETRY}.
   */
  private boolean configReady(ContainerRun c, Instant now, boolean restart) {
    if (c.spec.envFrom().isEmpty() && !hasValueFrom(c.spec)) {
      return true;
    }
    String error = ConfigReferences.envError(pod, c.spec, objects);
    if (error == null) {
      c.configRetryAt = null;
      return true;
    }
    c.state = ContainerStateType.Waiting;
    c.reason = ConfigReferences.CREATE_CONTAINER_CONFIG_ERROR;
    c.message = error;
    c.backoffUntil = null;
    c.configRetryAt = now.plus(CONFIG_RETRY);
    c.configRetryIsRestart = restart;
    warnings.add(new Warning(fieldPath(c), ConfigReferences.FAILED, "CreateContainer", "Error: " + error));
    return false;
  }

  private static boolean hasValueFrom(Container spec) {
    for (io.fleetkit.api.core.EnvVar e : spec.env()) {
      if (e.valueFrom() != null) {
        return true;
      }
    }
    return false;
  }

  /** Whether {@code c} waits in {@code CreateContainerConfigError} until a later instant than {@code now}. */
  private static boolean configRetryLater(ContainerRun c, Instant now) {
    return c.configRetryAt != null && c.configRetryAt.isAfter(now);
  }

  private void createSandbox(Instant now) {
    sandboxReady = true;
    sandboxCreatedAt = now;
  }

  /** Whether the pod's sandbox is ready (created and not yet torn down). */
  boolean sandboxReady() {
    return sandboxReady;
  }

  /** When the current sandbox was created; {@code null} before the first one. */
  @Nullable Instant sandboxCreatedAt() {
    return sandboxCreatedAt;
  }

  /** Runs the due transitions of one run; true when something happened. */
  private boolean advance(ContainerRun c, Instant now, HealthSource health, RestartBackoff backoff) {
    switch (c.state) {
      case Waiting -> {
        if (syncBlockedUntil != null) {
          return false; // the sync that would start it waits for a postStart hook
        }
        if (configRetryLater(c, now)) {
          return false; // the pod worker's next try
        }
        if (c.configRetryAt != null && c.configRetryIsRestart) {
          if (configReady(c, now, true)) {
            start(c, now, health, true);
          }
          return true;
        }
        if (c.startedAt == null && !c.done) {
          if (!initialized) {
            return false;
          }
          if (configReady(c, now, false)) {
            start(c, now, health, false);
          }
          return true;
        } else if (c.backoffUntil != null && !c.backoffUntil.isAfter(now)) {
          backoff.next(backoffKey(c), c.finishedAt != null ? c.finishedAt : now);
          if (configReady(c, now, true)) {
            start(c, now, health, true);
          }
          return true;
        }
        return false;
      }
      case Running -> {
        if (c.pendingKill != null && syncBlockedUntil == null) {
          ProbeType verdict = c.pendingKill;
          c.pendingKill = null;
          probeKill(c, verdict, notBeforeResume(now));
          return true;
        }
        return step(c, now, health, backoff);
      }
      default -> {
        if (c.restartPending && syncBlockedUntil == null) {
          c.restartPending = false;
          restartOrBackOff(c, c.finishedAt != null ? c.finishedAt : now, now, health, backoff);
          return true;
        }
        return false;
      }
    }
  }

  /**
   * Runs the init containers' due transitions and, until the pod is initialized, starts the init containers the
   * kubelet would start next ({@link InitContainerActions}).
   */
  private boolean advanceInits(Instant now, HealthSource health, RestartBackoff backoff) {
    boolean changed = false;
    // every due transition first: a run that exits the instant it starts is not seen running
    for (boolean stepped = true; stepped; ) {
      stepped = false;
      for (ContainerRun c : inits) {
        if (c.startedAt != null) {
          stepped |= advance(c, now, health, backoff);
        }
      }
      changed |= stepped;
    }
    if (initialized || mainDone() || syncBlockedUntil != null) {
      return changed;
    }
    List<InitContainerActions.Init> views = new ArrayList<>(inits.size());
    for (ContainerRun c : inits) {
      views.add(new InitContainerActions.Init(c.kind == Kind.SIDECAR,
          c.probes.worker(ProbeType.Startup) != null, c.probes.worker(ProbeType.Liveness) != null, observed(c),
          c.probes.result(ProbeType.Startup, c.containerId()), c.probes.result(ProbeType.Liveness, c.containerId()),
          false));
    }
    List<@Nullable Observed> regular = new ArrayList<>(containers.size());
    for (ContainerRun c : containers) {
      regular.add(observed(c));
    }
    InitContainerActions.Actions a = InitContainerActions.compute(pod.spec().restartPolicy(),
        sandboxReady ? InitContainerActions.Sandbox.READY : null, views, regular);
    if (a.createSandbox()) {
      createSandbox(now); // what the old sandbox ran is gone with it: the runs start from the first init container
      changed = true;
    } else if (a.killPod()) {
      initFailed = true;
      return true;
    }
    for (int i : a.initToStart()) {
      if (syncBlockedUntil != null) {
        break; // the start before waits for its postStart hook: the rest of this sync waits with it
      }
      ContainerRun c = inits.get(i);
      if (c.state == ContainerStateType.Waiting && c.startedAt == null && !c.done) {
        if (configRetryLater(c, now)) {
          break; // the pod worker's next try
        }
        changed = true;
        if (!configReady(c, now, false)) {
          break; // SyncPod returns when an init container cannot start
        }
        start(c, now, health, false); // the others restart through their backoff
      }
    }
    if (a.initialized()) {
      initialized = true;
      changed = true;
    }
    return changed;
  }

  /** What the runtime would report of a run: nothing before its first start; exited while held back. */
  private static @Nullable Observed observed(ContainerRun c) {
    return switch (c.state) {
      case Running -> Observed.running();
      case Terminated -> Observed.exited(c.exitCode);
      case Waiting -> c.startedAt == null ? null : Observed.exited(c.exitCode);
    };
  }

  /** Whether the kubelet is killing the pod because it is being deleted ({@link #killForDeletion}). */
  boolean deleting() {
    return deletionGrace >= 0;
  }

  /**
   * Kills the pod at {@code now} because it is being deleted, as the kubelet's pod worker does for a pod with a
   * {@code deletionTimestamp} ({@code killPod} with {@code calculateEffectiveGracePeriod}: the pod's
   * {@code deletionGracePeriodSeconds}, else its {@code terminationGracePeriodSeconds}, at least 1 s): nothing starts
   * or restarts any more; {@code SyncTerminatingPod} first stops the liveness and startup workers of every container
   * ({@link ContainerProbes#stopLivenessAndStartup}: no probe kills a container of a terminating pod, and one that
   * had not started does not start), while readiness is probed on until each container exited, so the pod's
   * {@code Ready} condition follows its readiness probes through the {@code preStop} hooks and the grace period;
   * then {@code killContainersWithSyncResult} stops every running container at once with that grace
   * period, the regular containers and init containers without waiting, the sidecars in the order of
   * {@code terminationOrdering} (each waits, within its grace period, for the regular containers and the next sidecar
   * in spec order: {@link #scheduleStop}); each gets SIGTERM and, when the grace period (at least 2 s) runs out first,
   * SIGKILL ({@link ContainerScript#stopAfter()}). A container that is not running (never started, or held back in
   * CrashLoopBackOff) is reported terminated with 137, reason {@code ContainerStatusUnknown}, as the status manager's
   * {@code TerminatePod} does. The pod is {@link #finished} once every container exited: Succeeded if every regular
   * container exited 0 ({@code getPhase} of a terminal pod), else Failed. A later call with a shorter grace period
   * kills again ({@code gracePeriodShortened}): a container still running gets SIGKILL at the new end unless it exits
   * before; a longer one changes nothing.
   */
  void killForDeletion(Instant now, long gracePeriodSeconds) {
    long grace = Math.max(gracePeriodSeconds, 1);
    if (deletionGrace >= 0) {
      if (grace < deletionGrace) {
        deletionGrace = grace;
        shortenKill(containers, now, grace);
        shortenKill(inits, now, grace);
      }
      return;
    }
    deletionGrace = grace;
    cancelSyncWait(); // the pod worker cancels the sync's context: a postStart hook under way is abandoned
    // SyncTerminatingPod stops the liveness and startup workers before it kills the containers; readiness goes on
    for (ContainerRun c : containers) {
      c.probes.stopLivenessAndStartup();
    }
    for (ContainerRun c : inits) {
      c.probes.stopLivenessAndStartup();
    }
    Instant regularEnd = null; // when the last running regular container exits; null when none runs
    for (ContainerRun c : containers) {
      if (c.running()) {
        Instant end = scheduleStop(c, now, grace, null, now);
        regularEnd = regularEnd == null || end.isAfter(regularEnd) ? end : regularEnd;
      } else {
        terminatedUnknown(c);
      }
    }
    Instant laterTerminated = regularEnd;
    for (int i = inits.size() - 1; i >= 0; i--) {
      ContainerRun c = inits.get(i);
      if (c.running()) {
        Instant end = scheduleStop(c, now, grace, c.kind == Kind.SIDECAR ? laterTerminated : null, now);
        if (c.kind == Kind.SIDECAR) {
          laterTerminated = end;
        }
      } else {
        terminatedUnknown(c);
      }
    }
    initialized = true; // nothing is left to initialize: no init container starts any more
    sidecarsStopped = true;
  }

  /**
   * The kubelet's eviction of the pod under node pressure at {@code now} ({@code killPodNow} from the eviction
   * manager): the pod is Failed with reason {@code Evicted} and {@code message} from now on ({@code SyncTerminatingPod}
   * applies the eviction's status before it kills), and it is killed as for a deletion with the eviction manager's
   * grace period of 1 s ({@link #killForDeletion}; each container gets the kubelet's 2 s minimum). Nothing restarts.
   * Does nothing for a pod already evicted or being deleted.
   */
  void evict(Instant now, String message) {
    if (evictionMessage != null || deletionGrace >= 0) {
      return;
    }
    evictionMessage = Objects.requireNonNull(message, "message");
    killForDeletion(now, EVICTION_GRACE_PERIOD_SECONDS);
  }

  /** The eviction manager's grace period for a hard threshold ({@code immediateEvictionGracePeriodSeconds}). */
  static final long EVICTION_GRACE_PERIOD_SECONDS = 1;

  /** The message of the pod's eviction ({@link #evict}), {@code null} when it was not evicted. */
  @Nullable String evictionMessage() {
    return evictionMessage;
  }

  /**
   * The kernel's OOM killer ends the run of container {@code container} at {@code now}: its memory usage exceeded its
   * limit. The run terminates at once (no {@code preStop} hook, no grace period) with exit code 137 and reason
   * {@code OOMKilled}, and is restarted per the restart policy with the CrashLoopBackOff of any exit; a run being
   * stopped ends too, and is not restarted when its stop was the pod's.
   *
   * @return whether a running run of that name was killed
   */
  boolean oomKill(String container, Instant now, HealthSource health, RestartBackoff backoff) {
    for (List<ContainerRun> runs : List.of(containers, inits)) {
      for (ContainerRun c : runs) {
        if (c.spec.name().equals(container) && c.running()) {
          terminate(c, ContainerScript.KILLED_EXIT_CODE, OOM_KILLED, now, now, health, backoff);
          return true;
        }
      }
    }
    return false;
  }

  /** Drops a wait for {@code postStart}: a failure of the hook is no longer acted on. */
  private void cancelSyncWait() {
    if (blockingRun != null && EventRecorder.FAILED_POST_START_HOOK.equals(blockingRun.hookFailReason)) {
      blockingRun.hookFailsAt = null;
    }
    syncBlockedUntil = null;
    blockingRun = null;
    waitBegan = null;
  }

  private static void shortenKill(List<ContainerRun> runs, Instant now, long grace) {
    Instant kill = now.plusSeconds(Math.max(grace, MINIMUM_GRACE_PERIOD_SECONDS));
    for (ContainerRun c : runs) {
      if (c.running() && c.stopExitAt != null && kill.isBefore(c.stopExitAt)) {
        c.stopExitAt = kill;
        c.stopExitCode = ContainerScript.KILLED_EXIT_CODE;
      }
    }
  }

  /** {@code TerminatePod} for a run that is not running: terminated with 137, reason ContainerStatusUnknown. */
  private static void terminatedUnknown(ContainerRun c) {
    if (c.state != ContainerStateType.Terminated) {
      c.state = ContainerStateType.Terminated;
      c.exitCode = ContainerScript.KILLED_EXIT_CODE;
      c.reason = CONTAINER_STATUS_UNKNOWN;
      c.finishedAt = null;
    }
    c.backoffUntil = null;
    c.done = true;
  }

  /**
   * Stops the sidecars once the regular containers are all done (or an init container failed the pod), as the
   * kubelet does: {@code computePodActions} then kills the pod rather than restart them, so a restartable init
   * container does not keep a finished pod alive. {@code killContainersWithSyncResult} stops every running container
   * at once, each with the pod's {@code terminationGracePeriodSeconds} ({@code setTerminationGracePeriod}), in the
   * sidecar order of {@code terminationOrdering}: a sidecar first waits, within its grace period, until the next
   * sidecar in spec order has terminated (the last one waits for nothing, the regular containers having exited), the
   * wait taken from its grace period in whole seconds ({@code waitForTurn}), at least 2 s left
   * ({@code minimumGracePeriodInSeconds}); then {@code StopContainer} sends SIGTERM and, when the grace period runs
   * out first, SIGKILL. So the sidecars stop in reverse spec order. How a process answers SIGTERM is its script's
   * ({@link ContainerScript#stopAfter()}, {@link ContainerScript#stopExitCode()}); killed, it reports 137. A sidecar
   * that exits by itself meanwhile is not restarted. While sidecars stop, the pod stays Running ({@code getPhase}
   * counts them running). A sidecar held back in CrashLoopBackOff is not running and has no terminated state of its
   * own: the status manager's {@code TerminatePod} reports it terminated with 137, reason
   * {@code ContainerStatusUnknown} and no finish time. Terminated sidecars do not count for the pod's phase
   * ({@code getPhase}): a pod whose regular containers all exited 0 is Succeeded. The stop starts when the last regular
   * container finished (the kubelet's sync on that exit), or now when an init container failed the pod.
   */
  private void stopSidecars(Instant now) {
    sidecarsStopped = true;
    Instant last = null;
    for (ContainerRun c : containers) {
      if (c.finishedAt != null && (last == null || c.finishedAt.isAfter(last))) {
        last = c.finishedAt;
      }
    }
    Instant start = notBeforeResume(last != null && !initFailed ? last : now);
    long grace = pod.spec().terminationGracePeriodSeconds();
    Instant laterTerminated = null; // when the next sidecar in spec order terminated; null: it was not running
    for (int i = inits.size() - 1; i >= 0; i--) {
      ContainerRun c = inits.get(i);
      if (c.kind != Kind.SIDECAR) {
        continue;
      }
      if (c.running()) {
        laterTerminated = scheduleStop(c, start, grace, laterTerminated, now);
        continue;
      }
      if (c.state == ContainerStateType.Waiting && c.startedAt != null) {
        c.state = ContainerStateType.Terminated;
        c.exitCode = ContainerScript.KILLED_EXIT_CODE;
        c.reason = CONTAINER_STATUS_UNKNOWN;
        c.finishedAt = null; // TerminatePod sets no finish time
      }
      c.backoffUntil = null;
      c.done = true;
      laterTerminated = null;
    }
  }

  /**
   * {@code killContainer} for a running container at {@code start} with a grace period of {@code grace} seconds;
   * returns when its kill returns (its termination ordering signal). A {@code preStop} hook runs first when the grace
   * period is positive ({@code executePreStopHook}): the kubelet waits for it at most the grace period, takes the
   * whole seconds it waited from the grace period, and records {@code FailedPreStopHook} when it fails within that
   * time; the kill goes on either way. Then a sidecar waits for its turn ({@code laterTerminated}: when the next
   * sidecar in spec order, or the last regular container, terminated; {@code null}: nothing to wait for), that wait
   * also taken from the grace period in whole seconds; what is left, at least 2 s
   * ({@code minimumGracePeriodInSeconds}), is the grace period of {@code StopContainer}: SIGTERM, then SIGKILL when it
   * runs out before the process exits ({@link ContainerScript#stopAfter()}). The run's readiness is probed on
   * meanwhile ({@link ContainerRun#signalledAt}); {@code decidedAt} is when the kubelet decided the stop (the
   * deletion's sync, or the probe tick that failed), every event of the run up to it handled.
   */
  private static Instant scheduleStop(ContainerRun c, Instant start, long grace, @Nullable Instant laterTerminated,
      Instant decidedAt) {
    long period = grace;
    Instant hookEnd = start;
    c.hookFailsAt = null; // a pending postStart failure no longer matters: the run is being stopped
    c.pendingKill = null;
    Lifecycle lifecycle = c.spec.lifecycle();
    LifecycleHandler preStop = lifecycle == null ? null : lifecycle.preStop();
    if (preStop != null && period > 0) {
      HookRun hook = hookRun(c, preStop, start);
      Duration limit = Duration.ofSeconds(period);
      Duration waitedForHook = hook.takes().compareTo(limit) < 0 ? hook.takes() : limit;
      if (hook.fails() && hook.takes().compareTo(limit) <= 0) {
        c.hookFailsAt = start.plus(hook.takes());
        c.hookFailReason = EventRecorder.FAILED_PRE_STOP_HOOK;
        c.hookFailMessage = "PreStopHook failed"; // the kubelet leaves the handler's message out (secrets)
      }
      period -= waitedForHook.getSeconds(); // int64(time.Since(start).Seconds()): whole seconds, truncated
      hookEnd = start.plus(waitedForHook);
    }
    Duration waited = Duration.ZERO;
    if (period > 0 && laterTerminated != null && laterTerminated.isAfter(hookEnd)) {
      Duration turn = Duration.between(hookEnd, laterTerminated);
      waited = turn.compareTo(Duration.ofSeconds(period)) < 0 ? turn : Duration.ofSeconds(period);
      period -= waited.getSeconds(); // the seconds waited, truncated downward
    }
    period = Math.max(period, MINIMUM_GRACE_PERIOD_SECONDS);
    Instant sigterm = hookEnd.plus(waited); // StopContainer sends the stop signal now
    c.signalledAt(sigterm, decidedAt);
    Duration stopAfter = stopAfter(c);
    if (c.stopSignal == Signal.SIGKILL) {
      c.stopExitAt = sigterm; // no process outlives it
      c.stopExitCode = ContainerScript.KILLED_EXIT_CODE;
    } else if (stopAfter != null && stopAfter.compareTo(Duration.ofSeconds(period)) < 0) {
      c.stopExitAt = sigterm.plus(stopAfter);
      c.stopExitCode = c.script.stopExitCode() == ContainerScript.SIGTERM_EXIT_CODE ? c.stopSignal.exitCode()
          : c.script.stopExitCode();
    } else {
      c.stopExitAt = sigterm.plusSeconds(period); // SIGKILL
      c.stopExitCode = ContainerScript.KILLED_EXIT_CODE;
    }
    Instant own = c.exitAt();
    Instant exit = own != null && own.isBefore(c.stopExitAt) ? own : c.stopExitAt;
    return exit.isBefore(sigterm) ? sigterm : exit;
  }

  /**
   * How long after the stop signal the process of {@code c} exits: its script's answer; a process without a handler
   * of its own (the default answer: at once) does not exit on a signal that does not end a process by default
   * ({@link Signal#terminatesByDefault()}); {@code null} when it does not exit before SIGKILL.
   */
  private static @Nullable Duration stopAfter(ContainerRun c) {
    Duration d = c.script.stopAfter();
    return d != null && d.isZero() && !c.stopSignal.terminatesByDefault() ? null : d;
  }

  /** How long a lifecycle hook takes and whether it fails. */
  record HookRun(Duration takes, boolean fails) {}

  /**
   * What running hook {@code h} of run {@code c} at {@code at} does ({@code handlerRunner.Run}): a {@code sleep}
   * takes its seconds and succeeds; {@code exec} and {@code httpGet} run for the script's
   * {@link ContainerScript#hookRunsFor()} and succeed when its {@link ContainerScript#hooks()} answer passes at
   * {@code at}; {@code tcpSocket} is no handler the kubelet runs: it fails at once ("invalid handler").
   */
  static HookRun hookRun(ContainerRun c, LifecycleHandler h, Instant at) {
    if (h instanceof LifecycleHandler.Sleep sleep) {
      return new HookRun(Duration.ofSeconds(Math.max(0, sleep.seconds())), false);
    }
    if (h instanceof ProbeHandler.TcpSocket) {
      return new HookRun(Duration.ZERO, true);
    }
    Duration since = c.startedAt == null ? Duration.ZERO : Duration.between(c.startedAt, at);
    return new HookRun(c.script.hookRunsFor(), c.script.hooks().at(since) != ProbeResult.Success);
  }

  /** Runs the earliest event of a running container due at or before {@code now}; false when none is due. */
  private boolean step(ContainerRun c, Instant now, HealthSource health, RestartBackoff backoff) {
    c.settle();
    Instant exitAt = c.exitAt();
    Instant killAt = syncBlockedUntil == null ? c.killAt() : null; // a kill waits for the sync, as a restart does
    Instant tickAt = c.tickAt();
    Instant stopAt = c.stopExitAt;
    // a failed postStart is acted on when startContainer returns (resumeSync); a failed preStop only reported
    Instant hookAt = EventRecorder.FAILED_PRE_STOP_HOOK.equals(c.hookFailReason) ? c.hookFailsAt : null;
    Instant t = null;
    for (Instant i : new Instant[] {hookAt, exitAt, killAt, tickAt, stopAt}) {
      if (i != null && !i.isAfter(now) && (t == null || i.isBefore(t))) {
        t = i;
      }
    }
    if (t == null) {
      return false;
    }
    if (t.equals(hookAt)) {
      hookFailed(c);
    } else if (t.equals(exitAt)) {
      terminate(c, c.script.exitCode(), exitAt, now, health, backoff);
    } else if (t.equals(killAt)) {
      terminate(c, ContainerScript.KILLED_EXIT_CODE, notBeforeResume(killAt), now, health, backoff);
    } else if (t.equals(stopAt)) {
      terminate(c, c.stopExitCode, stopAt, now, health, backoff);
    } else {
      Instant at = t;
      ContainerView view = new ContainerView(PodPhase.Running, deleting(), pod.spec().restartPolicy(),
          c.containerId(), ContainerStateType.Running, c.startedAt, false);
      c.probes.tick(at, view, (type, probe, target) -> answer(c, type, at), NO_TARGET);
      // a run being stopped is not killed again: a liveness worker that failed holds (the kill under way is its
      // own), and the kill of a pod or of its sidecars ends the run whatever a probe says
      ProbeType verdict = c.stopExitAt == null ? c.probes.killVerdict(c.containerId()) : null;
      if (verdict != null && syncBlockedUntil != null) {
        c.pendingKill = verdict; // the kill is the sync's: it waits for the postStart hook under way
      } else if (verdict != null) {
        probeKill(c, verdict, at);
      }
    }
    return true;
  }

  /**
   * The kubelet's kill of a run whose liveness or startup probe failed ({@code killContainer} with that probe's
   * {@code terminationGracePeriodSeconds}, else the pod's): SIGTERM at {@code at}, the exit the script's
   * {@link ContainerScript#stopAfter()} gives, or SIGKILL (137) when the grace period (at least 2 s) runs out first;
   * the run is then restarted per the restart policy.
   */
  private void probeKill(ContainerRun c, ProbeType probe, Instant at) {
    scheduleStop(c, at, terminationGracePeriod(pod, c.spec, probe), null, at);
    c.restartAfterStop = true;
  }

  /**
   * The grace period the kubelet kills a container with ({@code setTerminationGracePeriod}): the pod's
   * {@code deletionGracePeriodSeconds} when set; else, for a kill because the liveness or startup probe failed
   * ({@code reason}), that probe's {@code terminationGracePeriodSeconds} when set; else the pod's
   * {@code terminationGracePeriodSeconds}.
   *
   * @param reason the probe whose failure kills the container; {@code null} for any other reason
   */
  static long terminationGracePeriod(Pod pod, Container container, @Nullable ProbeType reason) {
    Long deletion = pod.metadata().deletionGracePeriodSeconds();
    if (deletion != null) {
      return deletion;
    }
    if (reason == ProbeType.Liveness || reason == ProbeType.Startup) {
      Probe p = container.probe(reason);
      if (p != null && p.terminationGracePeriodSeconds() != null) {
        return p.terminationGracePeriodSeconds();
      }
    }
    return pod.spec().terminationGracePeriodSeconds();
  }

  /** A {@code preStop} hook of {@code c} failed: the kubelet's Warning event; the kill goes on. */
  private void hookFailed(ContainerRun c) {
    hookFailures.add(new HookFailure(fieldPath(c), c.hookFailReason, c.hookFailMessage));
    c.hookFailsAt = null;
  }

  /**
   * The {@code postStart} hook of {@code c} failed at {@code at}: the kubelet's Warning event, then
   * {@code startContainer} kills the container ({@code killContainer} with the pod's grace period, its
   * {@code preStop} hook included) before it returns; the run is then restarted per the restart policy.
   *
   * @return when the kill returns
   */
  private Instant postStartFailed(ContainerRun c, Instant at) {
    hookFailures.add(new HookFailure(fieldPath(c), c.hookFailReason, c.hookFailMessage));
    c.hookFailsAt = null;
    Instant killed = scheduleStop(c, at, terminationGracePeriod(pod, c.spec, null), null, at);
    c.restartAfterStop = true;
    return killed;
  }

  private static String fieldPath(ContainerRun c) {
    return (c.kind == Kind.REGULAR ? "spec.containers{" : "spec.initContainers{") + c.spec.name() + "}";
  }

  private static ProbeOutcome answer(ContainerRun c, ProbeType type, Instant at) {
    return c.answerAt(type, at) == ProbeResult.Success ? ProbeOutcome.success() : ProbeOutcome.failure();
  }

  private void start(ContainerRun c, Instant now, HealthSource health, boolean restart) {
    if (hasPostStartHooks) {
      c.shownBefore = state(c);
      c.restartsBefore = c.restartCount;
      c.startedBefore = c.startedAt;
    }
    if (restart) {
      c.restartCount++;
    } else if (c.lastLog >= 0) {
      // the first start after a reboot: the runtime knows no earlier run, the kubelet counts from the log directory
      c.restartCount = c.lastLog + 1;
    }
    c.lastLog = c.restartCount;
    c.script = c.kind == Kind.REGULAR ? health.script(pod, c.spec, c.restartCount)
        : health.initScript(pod, c.spec, c.restartCount);
    c.kubeletStart = null;
    c.state = ContainerStateType.Running;
    c.reason = "";
    c.message = "";
    c.configRetryAt = null;
    c.startedAt = now;
    c.backoffUntil = null;
    c.parked.clear();
    for (ProbeType t : ProbeType.values()) {
      c.probes.skipTo(t, now);
    }
    c.pendingKill = null;
    c.restartPending = false;
    c.stopSignalAt = null;
    Lifecycle lifecycle = c.spec.lifecycle();
    c.hookFailsAt = null;
    c.hookFailReason = null;
    if (lifecycle != null && lifecycle.postStart() != null) {
      HookRun hook = hookRun(c, lifecycle.postStart(), now);
      Instant returns = now.plus(hook.takes());
      if (hook.fails()) {
        c.hookFailsAt = returns;
        c.hookFailReason = EventRecorder.FAILED_POST_START_HOOK;
        c.hookFailMessage = "PostStartHook failed"; // the kubelet leaves the handler's message out (secrets)
      }
      if (hook.fails() || returns.isAfter(now)) {
        waitForPostStart(c, now, returns, restart);
      }
    }
  }

  /**
   * The sync that started {@code c} at {@code now} waits until its {@code postStart} hook returns at
   * {@code returns} ({@link #syncBlocked}). The runs this sync started are not in the status it generated, so no
   * probe worker finds them before the next sync: their probes start on their grid from {@code returns}. When the
   * wait that just ended was for the first start of a regular container, and this is one too, it is the same sync
   * going on ({@code SyncPod} starts {@code ContainersToStart} one after the other): its status stays the one it
   * generated when it began.
   */
  private void waitForPostStart(ContainerRun c, Instant now, Instant returns, boolean restart) {
    boolean firstStart = c.kind == Kind.REGULAR && !restart;
    if (syncBlockedUntil == null && !(syncGoesOn && firstStart && waitBegan != null)) {
      waitBegan = now; // a new sync (a continuing one keeps the status it generated when it began)
    }
    waitingOnFirstStart = firstStart;
    syncBlockedUntil = returns;
    blockingRun = c;
    Instant from = waitBegan != null ? waitBegan : now;
    hideUntil(containers, from, returns);
    hideUntil(inits, from, returns);
  }

  /** Moves the probes of the runs started since {@code from} to their first tick at or after {@code until}. */
  private static void hideUntil(List<ContainerRun> runs, Instant from, Instant until) {
    for (ContainerRun r : runs) {
      if (r.running() && !r.startedAt.isBefore(from)) {
        for (ProbeType t : ProbeType.values()) {
          r.probes.skipTo(t, until);
        }
      }
    }
  }

  private void terminate(ContainerRun c, int code, Instant at, Instant now, HealthSource health,
      RestartBackoff backoff) {
    terminate(c, code, code == 0 ? "Completed" : REASON_ERROR, at, now, health, backoff);
  }

  private void terminate(ContainerRun c, int code, String reason, Instant at, Instant now, HealthSource health,
      RestartBackoff backoff) {
    c.state = ContainerStateType.Terminated;
    c.exitCode = code;
    c.finishedAt = at;
    c.hookFailsAt = null; // a hook still running fails with its container, unreported
    c.reason = reason;
    c.olderTerminated = c.lastTerminated;
    c.lastTerminated = new ContainerState(ContainerStateType.Terminated, reason, code, c.startedAt, at);
    RestartPolicy policy = pod.spec().restartPolicy();
    boolean restart = deletionGrace < 0 && switch (c.kind) {
      case REGULAR -> policy == RestartPolicy.Always || (policy == RestartPolicy.OnFailure && code != 0);
      case INIT -> policy != RestartPolicy.Never && code != 0; // one that exited 0 has done its part
      case SIDECAR -> c.stopExitAt == null || c.restartAfterStop; // whatever the policy, until the pod stops it
    };
    c.restartAfterStop = false;
    c.pendingKill = null;
    c.stopSignalAt = null;
    if (!restart) {
      c.done = true;
      c.stopExitAt = null;
      return;
    }
    c.stopExitAt = null; // a liveness kill's stop is over
    if (syncBlockedUntil != null) {
      c.restartPending = true; // the sync that restarts it waits for a postStart hook under way
      return;
    }
    restartOrBackOff(c, at, now, health, backoff);
  }

  /**
   * The kubelet's restart of a run that exited at {@code at}: held back in CrashLoopBackOff while its backoff runs
   * ({@code doBackOff}), else started at {@code now}.
   */
  private void restartOrBackOff(ContainerRun c, Instant at, Instant now, HealthSource health,
      RestartBackoff backoff) {
    String id = backoffKey(c);
    if (backoff.isInBackOffSince(id, at)) {
      c.state = ContainerStateType.Waiting;
      c.reason = CRASH_LOOP_BACK_OFF;
      c.backoffUntil = backoff.backoffEnd(id, at);
    } else {
      backoff.next(id, at);
      if (configReady(c, now, true)) {
        start(c, now, health, true);
      }
    }
  }

  String backoffKey(ContainerRun c) {
    return pod.metadata().uid() + "/" + c.spec.name();
  }

  /** The earliest future instant at which something changes, or {@code null}. */
  @Nullable Instant nextEvent(Instant now) {
    Instant next = syncBlockedUntil != null && syncBlockedUntil.isAfter(now) ? syncBlockedUntil : null;
    if (!volumesMounted && mountRetryAt != null && mountRetryAt.isAfter(now)
        && (next == null || mountRetryAt.isBefore(next))) {
      next = mountRetryAt;
    }
    for (ContainerRun c : containers) {
      next = nextEvent(c, now, next);
    }
    if (!inits.isEmpty()) {
      for (ContainerRun c : inits) {
        next = nextEvent(c, now, next);
      }
    }
    return next;
  }

  private static @Nullable Instant nextEvent(ContainerRun c, Instant now, @Nullable Instant next) {
    if (c.running()) {
      c.settle();
    }
    for (Instant t : new Instant[] {c.exitAt(), c.killAt(), c.tickAt(), c.readinessChangeAt(now), c.backoffUntil,
        c.stopExitAt, c.running() ? c.hookFailsAt : null, c.done ? null : c.configRetryAt}) {
      if (t != null && t.isAfter(now) && (next == null || t.isBefore(next))) {
        next = t;
      }
    }
    return next;
  }

  PodPhase phase() {
    if (initFailed || lost || evictionMessage != null) {
      return PodPhase.Failed;
    }
    // before the initialization check: after a reboot the regular containers may be done (kept) while the sidecars,
    // never started again, leave the pod uninitialized
    if (finished()) {
      for (ContainerRun c : containers) {
        if (c.exitCode != 0) {
          return PodPhase.Failed;
        }
      }
      return PodPhase.Succeeded;
    }
    if (mainDone()) {
      return PodPhase.Running; // getPhase counts the sidecars still stopping as running
    }
    if (!initialized) {
      return PodPhase.Pending;
    }
    for (ContainerRun c : containers) {
      if ((hidden(c) ? c.startedBefore : c.startedAt) != null) {
        return PodPhase.Running;
      }
    }
    return PodPhase.Pending;
  }

  List<ContainerStatus> containerStatuses(Instant now) {
    List<ContainerStatus> out = new ArrayList<>(containers.size());
    for (ContainerRun c : containers) {
      out.add(hidden(c) ? shownBefore(c) : new ContainerStatus(c.spec.name(), c.ready(now, pod), c.restartCount,
          state(c), c.started(), stopSignalShown(c, c.startedAt), lastState(c)));
    }
    return out;
  }

  /** Whether the pod has init containers. */
  boolean hasInitContainers() {
    return !inits.isEmpty();
  }

  /**
   * {@code status.initContainerStatuses}: a regular init container is ready once it exited 0; a sidecar is ready
   * as a regular container is.
   */
  List<ContainerStatus> initContainerStatuses(Instant now) {
    List<ContainerStatus> out = new ArrayList<>(inits.size());
    for (ContainerRun c : inits) {
      if (hidden(c)) {
        out.add(shownBefore(c));
        continue;
      }
      boolean ready = c.kind == Kind.SIDECAR ? c.ready(now, pod)
          : ContainerProbes.initContainerReady(c.state, c.state == ContainerStateType.Terminated ? c.exitCode : null);
      out.add(new ContainerStatus(c.spec.name(), ready, c.restartCount, state(c), c.started(),
          stopSignalShown(c, c.startedAt), lastState(c)));
    }
    return out;
  }

  /**
   * The stop signal the status reports for {@code c} ({@code containerStatuses[].stopSignal}, as the runtime reports
   * it for a container it has): none before the container first started ({@code startedAt} {@code null}).
   */
  private static @Nullable String stopSignalShown(ContainerRun c, @Nullable Instant startedAt) {
    return startedAt == null ? null : c.stopSignal.signalName();
  }

  /**
   * {@code lastState} ({@code lastTerminationState}): the last run's termination once the container is past it
   * (restarted, or waiting to), the one before it while the container shows that termination as its state.
   */
  private static @Nullable ContainerState lastState(ContainerRun c) {
    if (c.state == ContainerStateType.Terminated && c.lastTerminated != null
        && c.lastTerminated.exitCode() == c.exitCode && Objects.equals(c.lastTerminated.finishedAt(), c.finishedAt)) {
      return c.olderTerminated;
    }
    return c.lastTerminated;
  }

  /** The status of a hidden run: as the container was shown before the run started, neither started nor ready. */
  private static ContainerStatus shownBefore(ContainerRun c) {
    return new ContainerStatus(c.spec.name(), false, c.restartsBefore, c.shownBefore, false,
        stopSignalShown(c, c.startedBefore));
  }

  private static ContainerState state(ContainerRun c) {
    return switch (c.state) {
      case Running -> ContainerState.running(c.startedAt);
      case Terminated -> ContainerState.terminated(c.exitCode, c.reason, c.finishedAt);
      case Waiting -> ContainerState.waiting(c.reason,
          ConfigReferences.CREATE_CONTAINER_CONFIG_ERROR.equals(c.reason) ? c.message : "");
    };
  }

  /**
   * The kubelet restarted at {@code now}: the containers keep running, but the kubelet's memory is new. Every run
   * gets new probe workers, whose first attempt waits a fraction of their period ({@link #firstProbeDelay}); a run
   * that is running keeps, until its readiness probe has a result, the readiness the API server's status lets it
   * inherit, and its {@code started} flag when that status says the same instance started; the restart backoff is
   * forgotten, so a container held back restarts at once.
   */
  void kubeletRestarted(Instant now, RestartBackoff backoff) {
    cancelSyncWait(); // the hook ran in the old process: the new kubelet does not run it again
    kubeletRestarted(containers, now, backoff);
    if (!inits.isEmpty()) {
      kubeletRestarted(inits, now, backoff);
    }
  }

  private void kubeletRestarted(List<ContainerRun> runs, Instant now, RestartBackoff backoff) {
    for (ContainerRun c : runs) {
      backoff.reset(backoffKey(c));
      if (c.backoffUntil != null) {
        c.backoffUntil = now;
      }
      c.probes = new ContainerProbes(c.spec, now);
      if (deletionGrace >= 0) {
        c.probes.stopLivenessAndStartup(); // the pod is terminating: only readiness is probed
      }
      c.parked.clear();
      c.kubeletStart = null;
      c.pendingKill = null; // the new probe workers find it again
      if (!c.running()) {
        continue;
      }
      c.kubeletStart = now;
      for (ProbeType t : ProbeType.values()) {
        ProbeWorker w = c.probes.worker(t);
        if (w != null) {
          c.probes.delay(t, firstProbeDelay(pod, c.spec.name(), t, w.probe().period()));
        }
      }
      ContainerStatus api = apiStatus(pod, c);
      ProbeWorker startup = c.probes.worker(ProbeType.Startup);
      if (startup != null && api != null && api.started() && api.restartCount() == c.restartCount) {
        // the gate-off kubelet takes started=true from the status for a container without a startup result; its
        // startup worker then never probes this instance again
        startup.setResult(c.containerId(), ProbeResult.Success);
        c.parked.add(ProbeType.Startup);
      }
    }
  }

  /**
   * The wait before a worker's first attempt after a kubelet restart: upstream a random fraction of the period;
   * here whole seconds below the period, derived from the pod's uid, the container and the probe type, so that runs
   * are reproducible and the workers of a node do not all probe at once.
   */
  static Duration firstProbeDelay(Pod pod, String container, ProbeType type, Duration period) {
    long seconds = Math.max(1, period.getSeconds());
    return Duration.ofSeconds(Math.floorMod(Objects.hash(pod.metadata().uid(), container, type.name()), seconds));
  }

  /** The status the API server's copy of the pod holds for {@code c}'s container; {@code null} when none. */
  private static @Nullable ContainerStatus apiStatus(Pod apiPod, ContainerRun c) {
    List<ContainerStatus> list = c.kind == Kind.REGULAR ? apiPod.status().containerStatuses()
        : apiPod.status().initContainerStatuses();
    for (ContainerStatus s : list) {
      if (s.name().equals(c.spec.name())) {
        return s;
      }
    }
    return null;
  }
}
