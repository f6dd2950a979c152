package io.fleetkit.reconcile.node;

import io.fleetkit.api.ConflictException;
import io.fleetkit.api.NotFoundException;
import io.fleetkit.api.core.ContainerStatus;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.NodeAddress;
import io.fleetkit.api.core.NodeCondition;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodCondition;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.PodStatus;
import io.fleetkit.api.events.Event;
import io.fleetkit.api.events.EventRecorder;
import io.fleetkit.api.events.ObjectReference;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.store.DeleteOptions;
import io.fleetkit.api.store.DeletePreconditions;
import io.fleetkit.api.store.ListResult;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.store.Watch;
import io.fleetkit.api.store.WatchEvent;
import io.fleetkit.api.store.WatchEventType;
import io.fleetkit.api.time.TimerClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * A simulated kubelet for one node: it runs the pods bound to its node on a {@link TimerClock} (their init
 * containers one at a time first, sidecars kept running beside the containers), restarts their
 * containers per {@code restartPolicy} with CrashLoopBackOff ({@link RestartBackoff#kubelet}), takes readiness,
 * liveness and exits from a {@link HealthSource}, writes pod status (phase, the conditions the kubelet generates,
 * {@code PodReadyToStartContainers}, {@code Initialized}, {@code Ready}, {@code ContainersReady} and
 * {@code PodScheduled}, in its order and with its reasons ({@link PodConditions}), container and init container
 * statuses with restart counts and the {@code PodInitializing} and {@code CrashLoopBackOff} waiting reasons, and
 * {@code hostIP} and {@code hostIPs}: its node's IPs ({@link NodeAddress#hostIPs}, as the agent read its node at its
 * last status post; left as they are while the node has none)) and posts a heartbeat every {@code heartbeatPeriod}
 * (the node's {@code Ready=True} condition with a fresh {@code lastHeartbeatTime}; kube's
 * {@code nodeStatusUpdateFrequency}).
 * With {@linkplain Builder#leases node Leases} it renews its node's Lease every {@code heartbeatPeriod} instead and
 * posts the node's status every {@code statusReportPeriod} (kube's {@code nodeStatusReportFrequency}, 5 min), as a
 * kubelet does since node Leases (kube 1.17).
 * A {@linkplain #kill killed} agent stops heartbeating and stops running its pods: their statuses freeze, as when a
 * machine drops off the network; the node lifecycle controller then notices. Containers' lifecycle hooks run as the
 * kubelet runs them ({@code preStop} before every stop, within the grace period; {@code postStart} after every
 * start, a failure killing the container), their failures reported as Warning events to
 * {@linkplain Builder#events the agent's recorder}. References to ConfigMaps and Secrets are resolved against the
 * store as the kubelet resolves them ({@link ConfigReferences}): a pod whose config map, secret or projected volume
 * cannot be set up waits in {@code ContainerCreating} with a {@code FailedMount} Warning, tried again with the volume
 * manager's backoff; a container whose {@code env} or {@code envFrom} cannot be resolved waits in
 * {@code CreateContainerConfigError} with a {@code Failed} Warning, tried again every 10 s, and starts once the object
 * or key exists.
 *
 * <p>Work is event driven: pod watch events and the agent's own timers mark pods dirty, {@link #sync} processes
 * them. The event of the agent's own status write, at the instant it wrote, marks nothing: a sync of it would find
 * nothing to do. Not thread-safe: made for single-threaded simulations (a store in direct delivery mode and a
 * {@link io.fleetkit.api.time.ManualClock}); call {@link #sync} on the thread that advances the clock.
 */
public final class NodeAgent implements AutoCloseable {
  /** The reason of the node's Ready condition while the agent heartbeats. */
  public static final String REASON_KUBELET_READY = "KubeletReady";
  /**
   * How often an agent with a {@link MemoryUsage} checks its containers' memory and runs its eviction manager (the
   * kubelet's {@code housekeeping-interval} and the eviction manager's monitoring interval, 10 s).
   */
  public static final Duration HOUSEKEEPING_PERIOD = Duration.ofSeconds(10);

  private final ObjectStore store;
  private final TimerClock clock;
  private final String nodeName;
  private final HealthSource health;
  private final Duration heartbeatPeriod;
  private final @Nullable NodeLeases leases;
  private final Duration statusReportPeriod;
  private NodeLeases.@Nullable Lease lease;
  private final RestartBackoff backoff;
  private final boolean watchPods;
  private final @Nullable Runnable onWork;
  private final EventRecorder events;
  /** The containers' memory usage; {@code null}: none is modelled (no OOM kills, no eviction manager). */
  private final @Nullable MemoryUsage memoryUsage;
  /** The eviction manager's memory signal; non-null exactly when {@link #memoryUsage} is. */
  private final @Nullable MemoryPressureEviction eviction;
  private TimerClock.@Nullable Timer housekeeping;
  private boolean housekeepingDue;
  /** Containers (by pod key) the last housekeeping found above their memory limit: OOM-killed at the pod's sync. */
  private final Map<String, List<String>> oomDue = new LinkedHashMap<>();
  /** The pod (key) the last housekeeping chose to evict, with the message: evicted at its sync. */
  private final Map<String, String> evictDue = new LinkedHashMap<>();
  private final Map<String, PodRuntime> pods = new LinkedHashMap<>();
  /** The ConfigMaps and Secrets of the store, as the kubelet's config map and secret managers read them. */
  private final ConfigReferences.Lookup objects = new ConfigReferences.Lookup() {
    @Override
    public io.fleetkit.api.core.@Nullable ConfigMap configMap(String namespace, String name) {
      return store.get(io.fleetkit.api.core.ConfigMap.class, namespace, name).orElse(null);
    }

    @Override
    public io.fleetkit.api.core.@Nullable Secret secret(String namespace, String name) {
      return store.get(io.fleetkit.api.core.Secret.class, namespace, name).orElse(null);
    }
  };
  /** Pods to sync, in the order they were marked; a fresh set per pass (clearing a grown hash table costs its size). */
  private Set<String> dirty = new LinkedHashSet<>();
  /** What the last reboot left of the pods the agent ran, until each is synced again. */
  private final Map<String, PodRuntime.Reboot> rebooted = new LinkedHashMap<>();
  /**
   * The status the agent's last status write sent (the store keeps that instance), the spec of the pod it wrote, and
   * when: the agent's own write coming back through the watch at that instant needs no sync (see {@link #observe}).
   */
  private @Nullable PodStatus lastWritten;
  private @Nullable PodSpec lastWrittenSpec;
  private @Nullable Instant lastWrittenAt;
  private @Nullable Watch watch;
  /**
   * The node's host IPs ({@link NodeAddress#hostIPs}) as the agent last read its node (at each status post): what it
   * writes into its pods' {@code status.hostIP} and {@code status.hostIPs}; empty while the node has no IP.
   */
  private List<String> hostIPs = List.of();
  /** The node's address list {@link #hostIPs} was read from. */
  private @Nullable List<NodeAddress> hostIPsOf;
  private TimerClock.@Nullable Timer heartbeat;
  private boolean alive = true;
  private boolean heartbeatDue;
  private boolean closed;
  private boolean started;

  private NodeAgent(Builder b) {
    this.store = b.store;
    this.clock = b.clock;
    this.nodeName = b.nodeName;
    this.health = b.health;
    this.heartbeatPeriod = b.heartbeatPeriod;
    this.leases = b.leases;
    this.statusReportPeriod = b.statusReportPeriod;
    this.backoff = new RestartBackoff(b.backoffInitial, b.backoffMax, clock::now);
    this.watchPods = b.watchPods;
    this.onWork = b.onWork;
    this.events = EventRecorder.bestEffort(b.events);
    this.memoryUsage = b.memoryUsage;
    this.eviction = b.memoryUsage == null ? null
        : new MemoryPressureEviction(b.evictionHardBytes, b.pressureTransitionPeriod);
  }

  /** A builder for the agent of node {@code nodeName}. */
  public static Builder builder(ObjectStore store, TimerClock clock, String nodeName) {
    return new Builder(store, clock, nodeName);
  }

  /** The node this agent runs. */
  public String nodeName() {
    return nodeName;
  }

  /**
   * Lists the node's pods, starts watching pods and posts the first heartbeat (at the next {@link #sync}).
   *
   * @throws IllegalStateException if started twice or closed
   */
  public void start() {
    if (closed || started) {
      throw new IllegalStateException("node agent " + nodeName + ": " + (closed ? "closed" : "already started"));
    }
    started = true;
    ListResult<Pod> list = store.list(Pod.class, "", (Pod p) -> p.spec().nodeName().equals(nodeName));
    for (Pod p : list.items()) {
      markDirty(p.metadata().key());
    }
    if (watchPods) {
      watch = store.watch(Pod.class, list.resourceVersion(), this::observe);
    }
    markHeartbeatDue();
    scheduleHeartbeat();
    scheduleHousekeeping();
  }

  /** With a {@link MemoryUsage}: a housekeeping pass every {@link #HOUSEKEEPING_PERIOD} from now. */
  private void scheduleHousekeeping() {
    if (memoryUsage == null) {
      return;
    }
    housekeeping = clock.schedule(HOUSEKEEPING_PERIOD, () -> {
      housekeepingDue = true;
      if (onWork != null) {
        onWork.run();
      }
      scheduleHousekeeping();
    });
  }

  /**
   * Tells the agent of a pod watch event; pods of other nodes are ignored. The agent's own watch calls this; a caller
   * that runs many agents may instead build them with {@code watchPods(false)} and feed them from one shared pod
   * watch, which saves a watch per node on every pod write.
   */
  public void observe(WatchEvent<Pod> event) {
    Pod pod = event.object();
    if (event.type() != WatchEventType.DELETED && pod.status() == lastWritten && pod.spec() == lastWrittenSpec
        && pod.metadata().deletionTimestamp() == null && clock.now().equals(lastWrittenAt)) {
      // the pod as the agent's last status write left it (that status instance, the same spec, not being deleted),
      // at the instant of the write: a sync would find the runtime advanced to this instant with its timer set,
      // compute that same status and write nothing (a sync reads the pod afresh anyway). A deletion at that instant
      // carries the same status instance, but its sync forgets the pod's runtime, so it is never passed.
      return;
    }
    if (pod.spec().nodeName().equals(nodeName)) {
      markDirty(pod.metadata().key());
    }
  }

  private void markDirty(String key) {
    if (dirty.add(key) && onWork != null) {
      onWork.run();
    }
  }

  private void markHeartbeatDue() {
    heartbeatDue = true;
    if (onWork != null) {
      onWork.run();
    }
  }

  /** Whether the agent runs (not killed). */
  public boolean alive() {
    return alive;
  }

  /**
   * Kills the node: no more heartbeats, container timers stop, pod statuses freeze. Idempotent.
   */
  public void kill() {
    if (!alive) {
      return;
    }
    alive = false;
    if (lease != null) {
      lease.stop(clock.now());
    }
    if (heartbeat != null) {
      heartbeat.cancel();
      heartbeat = null;
    }
    if (housekeeping != null) {
      housekeeping.cancel();
      housekeeping = null;
    }
    housekeepingDue = false;
    for (PodRuntime r : pods.values()) {
      cancelTimer(r);
    }
  }

  /**
   * Brings a killed node back as after a reboot: it heartbeats again and starts its pods afresh. The node is
   * modelled as rebooting with a container runtime that keeps no containers or sandboxes across it, so each pod gets
   * a new sandbox and starts over from its first init container ({@code computePodActions} for a missing sandbox,
   * with no container visible); the pod log directories survive, so a container that ran before starts with its last
   * restart count plus one ({@code calcRestartCountByLogDir}), and until it starts its status keeps the count it
   * showed. A {@code restartPolicy: Never} pod that had a container or a regular init container running fails
   * instead (the kubelet's status conversion and {@code getPhase}, before any action is computed): its lost runs are
   * reported terminated with 137, reason {@code ContainerStatusUnknown}, one more restart each, and nothing runs
   * again. What the kubelet held in memory (the restart backoff) is gone. Idempotent.
   */
  public void revive() {
    if (alive) {
      return;
    }
    alive = true;
    for (PodRuntime r : pods.values()) {
      rebooted.put(r.key, r.reboot());
      for (PodRuntime.ContainerRun c : r.containers) {
        backoff.reset(r.backoffKey(c));
      }
      for (PodRuntime.ContainerRun c : r.inits) {
        backoff.reset(r.backoffKey(c));
      }
      markDirty(r.key);
    }
    pods.clear();
    markHeartbeatDue();
    scheduleHeartbeat();
    scheduleHousekeeping();
  }

  /**
   * Restarts the kubelet process at the clock's now, as after an upgrade or a crash of the kubelet alone: the
   * containers keep running (same instances, start times and restart counts) and the pods keep their statuses, but
   * what the kubelet held in memory is rebuilt: probe workers start afresh, each waiting a fraction of its period
   * before its first attempt, and until a survivor's readiness probe has a result its readiness is the prober
   * manager's kubelet-restart rule ({@link io.fleetkit.reconcile.probe.KubeletRestart}: a container that ran more
   * than 10 s before the restart stays ready when the pod is Ready and the API server knows that instance); the
   * restart backoff is forgotten (a container in CrashLoopBackOff restarts at once). The agent posts its node's
   * status at the next {@link #sync}. Does nothing while killed.
   */
  public void restartKubelet() {
    if (!alive || closed) {
      return;
    }
    Instant now = clock.now();
    for (PodRuntime r : pods.values()) {
      r.kubeletRestarted(now, backoff);
      cancelTimer(r);
      markDirty(r.key);
    }
    markHeartbeatDue();
  }

  /**
   * Processes what changed: posts a due heartbeat, starts newly bound pods, advances containers whose timers came
   * due, forgets deleted pods, and writes the pod statuses that changed. Does nothing while killed.
   *
   * @return how many writes it made (0 when there was nothing to do)
   */
  public int sync() {
    if (!alive || closed) {
      return 0;
    }
    if (lease != null) {
      lease.ran(clock.now());
    }
    int writes = 0;
    if (heartbeatDue) {
      heartbeatDue = false;
      writes += postHeartbeat() ? 1 : 0;
    }
    if (housekeepingDue) {
      housekeepingDue = false;
      writes += housekeeping() ? 1 : 0;
    }
    while (!dirty.isEmpty()) {
      Set<String> keys = dirty;
      dirty = new LinkedHashSet<>();
      for (String key : keys) {
        writes += syncPod(key) ? 1 : 0;
      }
    }
    return writes;
  }

  private boolean syncPod(String key) {
    int slash = key.indexOf('/');
    Optional<Pod> current = store.get(Pod.class, key.substring(0, slash), key.substring(slash + 1));
    PodRuntime r = pods.get(key);
    if (current.isEmpty() || !current.get().spec().nodeName().equals(nodeName)
        || (r != null && !r.pod.metadata().uid().equals(current.get().metadata().uid()))) {
      if (r != null) {
        forget(r);
      }
      if (current.isEmpty() || !current.get().spec().nodeName().equals(nodeName)) {
        rebooted.remove(key);
        return false;
      }
      r = null;
    }
    Pod pod = current.get();
    Instant now = clock.now();
    boolean deleting = pod.metadata().deletionTimestamp() != null;
    if (r == null) {
      if (pod.isTerminal()) {
        rebooted.remove(key);
        return deleting && deleteTerminated(pod);
      }
      r = new PodRuntime(pod, now, rebooted.isEmpty() ? null : rebooted.remove(key));
      r.objects = objects;
      pods.put(key, r);
    }
    r.pod = pod;
    if (deleting) {
      r.killForDeletion(now, effectiveGracePeriod(pod));
    }
    if (!r.finished()) {
      r.advance(now, health, backoff);
    }
    if ((!oomDue.isEmpty() || !evictDue.isEmpty()) && applyHousekeeping(r, now) && !r.finished()) {
      r.advance(now, health, backoff); // a kill's exits at this instant (SIGTERM ends the default script at once)
    }
    recordHookFailures(r);
    for (PodRuntime.Warning w : r.drainWarnings()) {
      ObjectReference ref = ObjectReference.to(r.pod);
      events.event(w.fieldPath().isEmpty() ? ref : ref.withFieldPath(w.fieldPath()), null, Event.WARNING, w.reason(),
          w.action(), w.message());
    }
    schedule(r, now);
    boolean wrote = writeStatus(pod, r, now);
    if (deleting && r.finished()) {
      forget(r);
      return deleteTerminated(r.pod) || wrote;
    }
    return wrote;
  }

  /** Records the lifecycle hook failures of {@code r} as the kubelet's Warning events on the pod's containers. */
  private void recordHookFailures(PodRuntime r) {
    for (PodRuntime.HookFailure f : r.drainHookFailures()) {
      String action = f.reason().equals(EventRecorder.FAILED_PRE_STOP_HOOK) ? "PreStopHook" : "PostStartHook";
      events.event(ObjectReference.to(r.pod).withFieldPath(f.fieldPath()), null, Event.WARNING, f.reason(), action,
          f.message());
    }
  }

  /**
   * The grace period the kubelet kills a pod being deleted with ({@code calculateEffectiveGracePeriod}): the pod's
   * {@code deletionGracePeriodSeconds}, else its {@code terminationGracePeriodSeconds}; at least 1 s
   * ({@link PodRuntime#killForDeletion} applies the floor).
   */
  private static long effectiveGracePeriod(Pod pod) {
    Long deletion = pod.metadata().deletionGracePeriodSeconds();
    return deletion != null && deletion > 0 ? deletion : pod.spec().terminationGracePeriodSeconds();
  }

  /**
   * The status manager's final deletion of a pod being deleted whose containers all stopped and whose terminal
   * status is written ({@code canBeDeleted}, then a deletion with grace period 0 and the pod's uid as precondition,
   * so that a new pod of the same name is never hit). A pod still held by finalizers stays (marked with grace period
   * 0) until they go.
   *
   * @return whether the store changed
   */
  private boolean deleteTerminated(Pod pod) {
    ObjectMeta m = pod.metadata();
    try {
      Pod after = store.delete(Pod.class, m.namespace(), m.name(),
          DeleteOptions.gracePeriod(0).withPreconditions(DeletePreconditions.uid(m.uid())));
      return !after.metadata().resourceVersion().equals(m.resourceVersion())
          || store.get(Pod.class, m.namespace(), m.name()).isEmpty();
    } catch (NotFoundException | ConflictException e) {
      return false; // gone already, or another pod of that name
    }
  }

  private void forget(PodRuntime r) {
    cancelTimer(r);
    for (PodRuntime.ContainerRun c : r.containers) {
      backoff.reset(r.backoffKey(c));
    }
    for (PodRuntime.ContainerRun c : r.inits) {
      backoff.reset(r.backoffKey(c));
    }
    pods.remove(r.key);
  }

  private void schedule(PodRuntime r, Instant now) {
    Instant next = r.finished() ? null : r.nextEvent(now);
    if (Objects.equals(next, r.timerAt)) {
      return;
    }
    cancelTimer(r);
    if (next != null) {
      String key = r.key;
      r.timerAt = next;
      r.timer = clock.schedule(Duration.between(now, next), () -> markDirty(key));
    }
  }

  private static void cancelTimer(PodRuntime r) {
    if (r.timer != null) {
      r.timer.cancel();
      r.timer = null;
    }
    r.timerAt = null;
  }

  private boolean writeStatus(Pod pod, PodRuntime r, Instant now) {
    PodStatus old = pod.status();
    PodPhase phase = r.phase();
    List<ContainerStatus> containers = r.containerStatuses(now);
    List<ContainerStatus> inits = r.hasInitContainers() ? r.initContainerStatuses(now) : List.of();
    List<ContainerStatus> all = inits.isEmpty() ? containers : concat(inits, containers);
    // generateAPIPodStatus: the node's IPs as the host IPs when it has one (kept otherwise)
    boolean hostKnown = !hostIPs.isEmpty();
    String evicted = r.evictionMessage();
    PodStatus s = new PodStatus(phase, conditions(old, pod.spec(), all, phase, r, now), old.nominatedNodeName(),
        hostKnown ? hostIPs.get(0) : old.hostIP(), old.startTime() != null ? old.startTime() : r.startTime,
        containers, evicted != null ? MemoryPressureEviction.REASON_EVICTED : old.reason(),
        evicted != null ? evicted : old.message(), old.podIPs(),
        r.hasInitContainers() ? inits : old.initContainerStatuses(), old.resourceClaimStatuses(),
        hostKnown ? hostIPs : old.hostIPs());
    if (s.equals(old)) {
      return false;
    }
    try {
      lastWritten = s; // before the write: a store delivering directly calls observe before it returns
      lastWrittenSpec = pod.spec();
      lastWrittenAt = now;
      r.pod = store.updateStatus(pod.withStatus(s));
      return true;
    } catch (NotFoundException e) {
      forget(r);
      return false;
    }
  }

  /**
   * The pod's conditions as the kubelet writes them ({@code generateAPIPodStatus} and the status manager's merge):
   * the conditions it does not own as they are, then the ones it generates ({@link PodConditions}) in its order,
   * {@code PodReadyToStartContainers}, {@code Initialized}, {@code Ready}, {@code ContainersReady} and
   * {@code PodScheduled=True}; each keeps its transition time while its status stays. {@code Ready} also waits for
   * the pod's readiness gates: conditions of other types, which their controllers write into the pod's status and
   * which this rewrite keeps (a change of one comes back as a watch event and regenerates {@code Ready}).
   */
  private static List<PodCondition> conditions(PodStatus old, PodSpec spec, List<ContainerStatus> all,
      PodPhase phase, PodRuntime r, Instant now) {
    List<PodCondition> oldConditions = old.conditions();
    List<PodCondition> out = new ArrayList<>(oldConditions.size() + 6);
    for (int i = 0; i < oldConditions.size(); i++) {
      PodCondition c = oldConditions.get(i);
      if (!ownedByKubelet(c.type())) {
        out.add(c);
      }
    }
    String evicted = r.evictionMessage();
    if (evicted != null && old.condition(PodCondition.DISRUPTION_TARGET) == null) {
      // the eviction's status function: DisruptionTarget=True, the kubelet terminating the pod
      out.add(PodCondition.of(PodCondition.DISRUPTION_TARGET, ConditionStatus.True,
          MemoryPressureEviction.REASON_TERMINATION_BY_KUBELET, evicted, now));
    }
    PodCondition sandbox = transition(old, PodConditions.readyToStartContainers(
        r.sandboxReady() ? InitContainerActions.Sandbox.READY : null), now);
    Instant created = r.sandboxCreatedAt();
    if (sandbox.status() == ConditionStatus.True && created != null && sandbox.lastTransitionTime() != null
        && sandbox.lastTransitionTime().isBefore(created)) {
      // a new sandbox since (a reboot): the status manager saw the old one gone before this one was ready
      sandbox = PodCondition.of(sandbox.type(), sandbox.status(), "", "", created);
    }
    out.add(sandbox);
    out.add(transition(old, PodConditions.initialized(spec, all, phase), now));
    PodCondition containersReady = PodConditions.containersReady(spec, all, phase);
    // the readiness gates are read from what precedes Ready: the conditions other controllers wrote (kept above)
    out.add(transition(old, PodConditions.podReady(spec, out, containersReady), now));
    out.add(transition(old, containersReady, now));
    out.add(transition(old, SCHEDULED, now));
    return out;
  }

  private static final PodCondition SCHEDULED =
      PodCondition.of(PodCondition.POD_SCHEDULED, ConditionStatus.True, "", "", null);

  /** {@code kubetypes.PodConditionByKubelet}. */
  private static boolean ownedByKubelet(String type) {
    return switch (type) {
      case PodCondition.POD_SCHEDULED, PodCondition.READY, PodCondition.INITIALIZED, PodCondition.CONTAINERS_READY,
          PodCondition.POD_READY_TO_START_CONTAINERS -> true;
      default -> false;
    };
  }

  /**
   * {@code generated} with the status manager's transition time: the old condition's while the status stays (the old
   * instance itself when nothing else changed either), {@code now} when it flips.
   */
  private static PodCondition transition(PodStatus old, PodCondition generated, Instant now) {
    PodCondition prev = old.condition(generated.type());
    if (prev != null && prev.status() == generated.status()) {
      if (prev.reason().equals(generated.reason()) && prev.message().equals(generated.message())
          && prev.lastProbeTime() == null) {
        return prev;
      }
      return PodCondition.of(generated.type(), generated.status(), generated.reason(), generated.message(),
          prev.lastTransitionTime());
    }
    return PodCondition.of(generated.type(), generated.status(), generated.reason(), generated.message(), now);
  }

  private static List<ContainerStatus> concat(List<ContainerStatus> a, List<ContainerStatus> b) {
    List<ContainerStatus> out = new ArrayList<>(a.size() + b.size());
    out.addAll(a);
    out.addAll(b);
    return out;
  }

  /** Schedules the next status post; with Leases, starts renewing the Lease on a grid from now. */
  private void scheduleHeartbeat() {
    if (leases != null) {
      lease = leases.start(nodeName, clock.now(), heartbeatPeriod);
    }
    armHeartbeat();
  }

  private void armHeartbeat() {
    heartbeat = clock.schedule(leases != null ? statusReportPeriod : heartbeatPeriod, () -> {
      markHeartbeatDue();
      armHeartbeat();
    });
  }

  private boolean postHeartbeat() {
    Optional<Node> current = store.get(Node.class, "", nodeName);
    if (current.isEmpty()) {
      return false;
    }
    Node node = current.get();
    if (node.status().addresses() != hostIPsOf) { // status writes keep the list: parse it only when it changed
      hostIPsOf = node.status().addresses();
      hostIPs = NodeAddress.hostIPs(hostIPsOf);
    }
    Instant now = clock.now();
    NodeCondition prev = node.status().condition(NodeCondition.READY);
    Instant transition = prev != null && prev.status() == ConditionStatus.True && prev.lastTransitionTime() != null
        ? prev.lastTransitionTime() : now;
    NodeCondition ready = new NodeCondition(NodeCondition.READY, ConditionStatus.True, REASON_KUBELET_READY,
        "kubelet is posting ready status", now, transition);
    store.updateStatus(node.withStatus(node.status().withConditions(replaced(node, ready))));
    return true;
  }

  /** The node's conditions with {@code c} in place of the one of its type, or added after them. */
  private static List<NodeCondition> replaced(Node node, NodeCondition c) {
    List<NodeCondition> conditions = new ArrayList<>(node.status().conditions().size() + 1);
    boolean replaced = false;
    for (NodeCondition old : node.status().conditions()) {
      if (old.type().equals(c.type())) {
        conditions.add(c);
        replaced = true;
      } else {
        conditions.add(old);
      }
    }
    if (!replaced) {
      conditions.add(c);
    }
    return conditions;
  }

  /**
   * One housekeeping pass (with a {@link MemoryUsage} only): each running container whose working set exceeds its
   * memory limit is OOM-killed; the eviction manager observes {@code memory.available} (the node's memory capacity,
   * else its allocatable, less the working set of the containers left running), writes the node's
   * {@code MemoryPressure} condition when it changed, and while the hard threshold is met evicts one pod (the first
   * non-critical one in {@code rankMemoryPressure}'s order among the pods not terminating). The kills and the
   * eviction happen at the pods' syncs, right after this pass.
   *
   * @return whether the node's status was written
   */
  private boolean housekeeping() {
    MemoryUsage usage = Objects.requireNonNull(memoryUsage);
    MemoryPressureEviction manager = Objects.requireNonNull(eviction);
    oomDue.clear();
    evictDue.clear();
    Instant now = clock.now();
    long used = 0;
    List<MemoryPressureEviction.PodMemory> active = new ArrayList<>(pods.size());
    for (PodRuntime r : pods.values()) {
      if (r.finished()) {
        continue;
      }
      long podUsage = 0;
      Map<String, Long> containers = Map.of();
      for (List<PodRuntime.ContainerRun> runs : List.of(r.containers, r.inits)) {
        for (PodRuntime.ContainerRun c : runs) {
          if (!c.running()) {
            continue;
          }
          long bytes = usage.workingSetBytes(r.pod, c.spec.name());
          if (bytes <= 0) {
            continue;
          }
          long limit = c.spec.resources().limits().memoryBytes();
          if (limit > 0 && bytes > limit) {
            oomDue.computeIfAbsent(r.key, k -> new ArrayList<>(1)).add(c.spec.name());
            continue; // the kernel frees what it used before the eviction manager looks
          }
          podUsage += bytes;
          if (containers.isEmpty()) {
            containers = new LinkedHashMap<>();
          }
          containers.put(c.spec.name(), bytes);
        }
      }
      used += podUsage;
      if (!r.deleting()) {
        active.add(new MemoryPressureEviction.PodMemory(r.pod, podUsage, containers));
      }
    }
    for (String key : oomDue.keySet()) {
      markDirty(key);
    }
    Optional<Node> current = store.get(Node.class, "", nodeName);
    if (current.isEmpty()) {
      return false;
    }
    Node node = current.get();
    long capacity = node.status().capacity().memoryBytes();
    if (manager.observe(now, capacity > 0 ? capacity : node.allocatable().memoryBytes(), used)) {
      MemoryPressureEviction.PodMemory victim = manager.choose(active);
      if (victim != null) {
        String key = victim.pod().metadata().key();
        evictDue.put(key, manager.message(victim));
        markDirty(key);
      }
    }
    return writeMemoryPressure(node, manager.condition(now), now);
  }

  /** Writes the node's {@code MemoryPressure} condition when its status, reason or message differ from {@code want}. */
  private boolean writeMemoryPressure(Node node, NodeCondition want, Instant now) {
    NodeCondition have = node.status().condition(NodeCondition.MEMORY_PRESSURE);
    if (have != null && have.status() == want.status() && have.reason().equals(want.reason())
        && have.message().equals(want.message())) {
      return false;
    }
    Instant transition = have != null && have.status() == want.status() && have.lastTransitionTime() != null
        ? have.lastTransitionTime() : now;
    NodeCondition c = new NodeCondition(want.type(), want.status(), want.reason(), want.message(), now, transition);
    try {
      store.updateStatus(node.withStatus(node.status().withConditions(replaced(node, c))));
      return true;
    } catch (NotFoundException | ConflictException e) {
      return false; // gone, or written meanwhile: the next pass writes it
    }
  }

  /**
   * Carries out, at {@code r}'s sync, what the last housekeeping decided for it: the OOM kills of its containers and
   * its eviction (a Warning {@code Evicted} event with the message, as the eviction manager records).
   *
   * @return whether something was done
   */
  private boolean applyHousekeeping(PodRuntime r, Instant now) {
    boolean acted = false;
    List<String> oom = oomDue.remove(r.key);
    if (oom != null) {
      for (String container : oom) {
        acted |= r.oomKill(container, now, health, backoff);
      }
    }
    String message = evictDue.remove(r.key);
    if (message != null && !r.finished() && !r.deleting()) {
      r.evict(now, message);
      events.event(ObjectReference.to(r.pod), null, Event.WARNING, MemoryPressureEviction.REASON_EVICTED, "Evict",
          message);
      acted = true;
    }
    return acted;
  }

  /** How many pods the agent currently tracks (running, backing off or finished). */
  public int podCount() {
    return pods.size();
  }

  /** Stops watching and cancels the timers. Idempotent. */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    kill();
    if (leases != null && lease != null) {
      leases.remove(nodeName, lease);
    }
    if (watch != null) {
      watch.close();
    }
  }

  /** Builder; not thread-safe. */
  public static final class Builder {
    private final ObjectStore store;
    private final TimerClock clock;
    private final String nodeName;
    private HealthSource health = HealthSource.fromAnnotations();
    private Duration heartbeatPeriod = Duration.ofSeconds(10);
    private Duration backoffInitial = RestartBackoff.KUBELET_INITIAL;
    private Duration backoffMax = RestartBackoff.KUBELET_MAX;
    private boolean watchPods = true;
    private @Nullable NodeLeases leases;
    private Duration statusReportPeriod = Duration.ofMinutes(5);
    private @Nullable Runnable onWork;
    private EventRecorder events = EventRecorder.NOOP;
    private @Nullable MemoryUsage memoryUsage;
    private long evictionHardBytes = MemoryPressureEviction.DEFAULT_HARD_THRESHOLD_BYTES;
    private Duration pressureTransitionPeriod = MemoryPressureEviction.DEFAULT_PRESSURE_TRANSITION_PERIOD;

    private Builder(ObjectStore store, TimerClock clock, String nodeName) {
      this.store = Objects.requireNonNull(store, "store");
      this.clock = Objects.requireNonNull(clock, "clock");
      this.nodeName = Objects.requireNonNull(nodeName, "nodeName");
      if (nodeName.isEmpty()) {
        throw new IllegalArgumentException("node agent: nodeName must not be empty");
      }
    }

    /** Where container behaviour comes from; {@link HealthSource#fromAnnotations()} by default. */
    public Builder healthSource(HealthSource v) {
      health = Objects.requireNonNull(v, "healthSource");
      return this;
    }

    /**
     * How often the node's status is posted (kube's {@code nodeStatusUpdateFrequency}, 10 s).
     *
     * @throws IllegalArgumentException if not positive
     */
    public Builder heartbeatPeriod(Duration v) {
      Objects.requireNonNull(v, "heartbeatPeriod");
      if (v.isNegative() || v.isZero()) {
        throw new IllegalArgumentException("node agent " + nodeName + ": heartbeatPeriod " + v
            + " must be positive");
      }
      heartbeatPeriod = v;
      return this;
    }

    /** The container restart backoff (10 s doubling to 300 s by default). */
    public Builder restartBackoff(Duration initial, Duration max) {
      new RestartBackoff(initial, max, clock::now); // validates
      backoffInitial = initial;
      backoffMax = max;
      return this;
    }

    /**
     * Whether {@link #start} opens the agent's own pod watch (default true); with false the caller feeds pod events
     * through {@link #observe}.
     */
    public Builder watchPods(boolean v) {
      watchPods = v;
      return this;
    }

    /**
     * Renews the node's Lease in {@code v} every {@code heartbeatPeriod} (computed when the node lifecycle controller
     * reads it) and posts the node's status every {@link #statusReportPeriod} instead of every heartbeat.
     */
    public Builder leases(NodeLeases v) {
      leases = Objects.requireNonNull(v, "leases");
      return this;
    }

    /**
     * With {@link #leases}, how often the node's status is posted (kube's {@code nodeStatusReportFrequency}, 5 min).
     *
     * @throws IllegalArgumentException if not positive
     */
    public Builder statusReportPeriod(Duration v) {
      Objects.requireNonNull(v, "statusReportPeriod");
      if (v.isNegative() || v.isZero()) {
        throw new IllegalArgumentException("node agent " + nodeName + ": statusReportPeriod " + v
            + " must be positive");
      }
      statusReportPeriod = v;
      return this;
    }

    /**
     * Called (on the thread that causes it) whenever the agent gets something to do at its next {@link #sync}: a pod
     * marked for syncing, a status post due. A caller running many agents can then sync only those, provided it
     * tells their {@link NodeLeases} that the others ran too ({@link NodeLeases#ranAll}).
     */
    public Builder onWork(Runnable v) {
      onWork = Objects.requireNonNull(v, "onWork");
      return this;
    }

    /**
     * Where the kubelet's events go ({@value EventRecorder#FAILED_POST_START_HOOK},
     * {@value EventRecorder#FAILED_PRE_STOP_HOOK}); dropped by default.
     */
    public Builder events(EventRecorder v) {
      events = Objects.requireNonNull(v, "events");
      return this;
    }

    /**
     * Models the containers' memory: every {@link #HOUSEKEEPING_PERIOD} the agent OOM-kills a running container whose
     * working set exceeds its memory limit (reason {@code OOMKilled}, exit code 137, restarted per its policy with
     * CrashLoopBackOff) and runs the eviction manager's {@code memory.available} signal (node condition
     * {@code MemoryPressure}, one eviction per pass while the hard threshold is met). Without it (the default) none of
     * this runs and the node gets no {@code MemoryPressure} condition.
     */
    public Builder memoryUsage(MemoryUsage v) {
      memoryUsage = Objects.requireNonNull(v, "memoryUsage");
      return this;
    }

    /**
     * The hard eviction threshold of {@code memory.available} in bytes ({@code --eviction-hard}; 100 MiB by default,
     * 0 turns memory eviction off).
     *
     * @throws IllegalArgumentException if negative
     */
    public Builder evictionHard(long memoryAvailableBytes) {
      if (memoryAvailableBytes < 0) {
        throw new IllegalArgumentException("node agent " + nodeName + ": evictionHard memory.available "
            + memoryAvailableBytes + " must not be negative");
      }
      evictionHardBytes = memoryAvailableBytes;
      return this;
    }

    /**
     * How long {@code MemoryPressure} stays True after the threshold was last met
     * ({@code --eviction-pressure-transition-period}, 5 minutes).
     *
     * @throws IllegalArgumentException if negative
     */
    public Builder evictionPressureTransitionPeriod(Duration v) {
      Objects.requireNonNull(v, "evictionPressureTransitionPeriod");
      if (v.isNegative()) {
        throw new IllegalArgumentException("node agent " + nodeName + ": evictionPressureTransitionPeriod " + v
            + " must not be negative");
      }
      pressureTransitionPeriod = v;
      return this;
    }

    public NodeAgent build() {
      return new NodeAgent(this);
    }
  }
}
