package io.fleetkit.reconcile.node;

import io.fleetkit.api.ConflictException;
import io.fleetkit.api.FleetKitException;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodCondition;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.core.PodStatus;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.metrics.MetricsRegistry;
import io.fleetkit.api.store.DeleteOptions;
import io.fleetkit.api.store.ListResult;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.store.Watch;
import io.fleetkit.api.store.WatchEventType;
import io.fleetkit.api.time.TimerClock;
import io.fleetkit.reconcile.metrics.PodGcMetrics;
import io.fleetkit.reconcile.node.internal.PodGcIndex;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Force-deletes pods nobody else will, as kube's pod garbage collector ({@code pkg/controller/podgc}). Every
 * {@code gcCheckPeriod} (20 s) one pass runs four checks over the pods and nodes as they are at its start:
 * <ol>
 *   <li><b>terminated</b>: when more than {@code terminatedPodThreshold} pods (12,500; 0 or less: off) are in phase
 *       Succeeded or Failed, the surplus is deleted, evicted pods (Failed, reason {@value PodGcIndex#EVICTED})
 *       first, then oldest by creation time, then by name;
 *   <li><b>out-of-service</b>: terminating pods (deletion timestamp set) on a node that is not ready and carries the
 *       {@value #TAINT_OUT_OF_SERVICE} taint (any effect) are deleted;
 *   <li><b>orphaned</b>: a node name that pods are bound to but that no node has is quarantined for
 *       {@code quarantineTime} (40 s) from the pass that first saw it missing; the first pass after that which
 *       still finds no such node deletes its pods, marking those not yet terminal with
 *       {@code DisruptionTarget=True} (reason {@value #REASON_DELETION_BY_POD_GC});
 *   <li><b>unscheduled terminating</b>: terminating pods bound to no node are deleted.
 * </ol>
 * Before deleting a pod that is neither Succeeded nor Failed, its status is written with phase Failed (and the
 * condition, for orphans): without a kubelet nothing else would end it (upstream {@code markFailedAndDeletePod}).
 * The deletion is a force deletion (grace period 0, as upstream's): a pod being deleted gracefully on a node
 * whose kubelet is gone is removed at once. A pod both
 * checks pick is tried twice, as upstream's checks share the pass's snapshot: the second attempt fails (not found)
 * and counts as an error. Attempts and failures are counted per namespace and check in {@link PodGcMetrics}.
 *
 * <p>Work is event driven: node and pod watch events keep a {@link PodGcIndex} of what the checks read, so a pass
 * costs what it finds rather than a visit of every pod, and decides as upstream's scan of every pod would at that
 * instant. Passes run on the grid of the period from {@link #start}; a pass that would find nothing is not
 * scheduled (it would change nothing), so an idle collector does not wake the clock.
 *
 * <p>Not thread-safe: made for single-threaded simulations; call {@link #sync} on the thread that advances the
 * clock, with a store that delivers watch events on the writing thread.
 */
public final class PodGcController implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(PodGcController.class);
  /** The taint that marks a node out of service (upstream {@code v1.TaintNodeOutOfService}). */
  public static final String TAINT_OUT_OF_SERVICE = "node.kubernetes.io/out-of-service";
  /** The DisruptionTarget reason the collector sets on the orphans it deletes. */
  public static final String REASON_DELETION_BY_POD_GC = "DeletionByPodGC";
  /** The DisruptionTarget message the collector sets on the orphans it deletes. */
  public static final String MESSAGE_ORPHANED = "PodGC: node no longer exists";
  /** Upstream {@code gcCheckPeriod}. */
  public static final Duration DEFAULT_GC_CHECK_PERIOD = Duration.ofSeconds(20);
  /** Upstream {@code quarantineTime}. */
  public static final Duration DEFAULT_QUARANTINE_TIME = Duration.ofSeconds(40);
  /** kube-controller-manager's {@code --terminated-pod-gc-threshold} default. */
  public static final int DEFAULT_TERMINATED_POD_THRESHOLD = 12_500;

  private final ObjectStore store;
  private final TimerClock clock;
  private final int terminatedPodThreshold;
  private final Duration gcCheckPeriod;
  private final Duration quarantineTime;
  private final MetricsRegistry metrics;
  private final PodGcIndex index = new PodGcIndex(TAINT_OUT_OF_SERVICE);
  /** Upstream {@code nodeQueue}'s waiting items: quarantined node names and when their quarantine ends. */
  private final Map<String, Instant> quarantine = new TreeMap<>();
  private final List<Watch> watches = new ArrayList<>();
  private @Nullable Instant origin;
  private TimerClock.@Nullable Timer timer;
  private boolean due;
  private long deleted;
  private long passes;

  private PodGcController(Builder b) {
    this.store = b.store;
    this.clock = b.clock;
    this.terminatedPodThreshold = b.terminatedPodThreshold;
    this.gcCheckPeriod = b.gcCheckPeriod;
    this.quarantineTime = b.quarantineTime;
    this.metrics = b.metrics;
  }

  /** A builder with upstream's defaults. */
  public static Builder builder(ObjectStore store, TimerClock clock) {
    return new Builder(store, clock);
  }

  /**
   * Lists and watches nodes and pods; the first pass runs at the next {@link #sync} (upstream's
   * {@code wait.Until} runs one at once), the later ones every period from now.
   *
   * @throws IllegalStateException if started twice
   */
  public void start() {
    if (origin != null) {
      throw new IllegalStateException("pod GC controller: already started");
    }
    origin = clock.now();
    ListResult<Node> nodes = store.list(Node.class);
    ListResult<Pod> pods = store.list(Pod.class);
    for (Node n : nodes.items()) {
      index.nodeChanged(n);
    }
    for (Pod p : pods.items()) {
      index.podChanged(p);
    }
    watches.add(store.watch(Node.class, nodes.resourceVersion(), e -> {
      if (e.type() == WatchEventType.DELETED) {
        index.nodeDeleted(e.object());
      } else {
        index.nodeChanged(e.object());
      }
    }));
    watches.add(store.watch(Pod.class, pods.resourceVersion(), e -> {
      if (e.type() == WatchEventType.DELETED) {
        index.podDeleted(e.object());
      } else {
        index.podChanged(e.object());
      }
    }));
    due = true;
  }

  /**
   * Runs the pass if one is due, then schedules the next one on the period's grid if the state calls for one.
   *
   * @return how many writes it made (status writes and deletions)
   */
  public int sync() {
    int writes = 0;
    if (due) {
      due = false;
      writes = gc();
    }
    if (timer == null && origin != null && hasWork()) {
      arm();
    }
    return writes;
  }

  /** Whether a pass now would do anything: delete a pod, or start or end a quarantine. */
  private boolean hasWork() {
    return (terminatedPodThreshold > 0 && index.terminatedCount() > terminatedPodThreshold)
        || !index.missingNodes().isEmpty() || !quarantine.isEmpty() || index.hasUnscheduledTerminating()
        || index.hasTerminatingOnOutOfServiceNodes();
  }

  /** Wakes the clock at the next multiple of the period since the start. */
  private void arm() {
    Instant now = clock.now();
    long period = gcCheckPeriod.toNanos();
    long since = Duration.between(Objects.requireNonNull(origin), now).toNanos();
    long next = (Math.floorDiv(since, period) + 1) * period;
    timer = clock.schedule(Duration.ofNanos(next - since), () -> {
      timer = null;
      due = true;
    });
  }

  /**
   * One pass (upstream {@code gc}) now, whatever the period; {@link #sync} runs it on the period.
   *
   * @return how many writes it made (status writes and deletions)
   */
  public int gc() {
    passes++;
    Instant now = clock.now();
    // every check decides on the state at the start of the pass, as upstream's share one list of pods and nodes
    List<Pod> terminated = List.of();
    if (terminatedPodThreshold > 0) {
      int surplus = index.terminatedCount() - terminatedPodThreshold;
      if (surplus > 0) {
        terminated = index.oldestTerminated(surplus);
      }
    }
    List<Pod> terminating = index.terminatingOnOutOfServiceNodes();
    List<Pod> orphaned = orphans(now);
    List<Pod> unscheduled = index.unscheduledTerminating();
    int writes = 0;
    if (!terminated.isEmpty()) {
      LOG.debug("pod GC: garbage collecting {} terminated pods", terminated.size());
    }
    for (Pod p : terminated) {
      writes += markFailedAndDelete(p, PodGcMetrics.REASON_TERMINATED, null);
    }
    for (Pod p : terminating) {
      writes += markFailedAndDelete(p, PodGcMetrics.REASON_OUT_OF_SERVICE, null);
    }
    PodCondition target = PodCondition.of(PodCondition.DISRUPTION_TARGET, ConditionStatus.True,
        REASON_DELETION_BY_POD_GC, MESSAGE_ORPHANED, now);
    for (Pod p : orphaned) {
      writes += markFailedAndDelete(p, PodGcMetrics.REASON_ORPHANED, target);
    }
    for (Pod p : unscheduled) {
      writes += markFailedAndDelete(p, PodGcMetrics.REASON_UNSCHEDULED, null);
    }
    return writes;
  }

  /**
   * Upstream gcOrphaned's choice: node names pods are bound to but no node has are quarantined (the earliest end
   * kept, as a delaying queue does); the quarantines that ended by now are taken, and the pods of those nodes that
   * are still missing are the orphans.
   */
  private List<Pod> orphans(Instant now) {
    Instant end = now.plus(quarantineTime);
    for (String node : index.missingNodes()) {
      quarantine.merge(node, end, (a, b) -> a.isBefore(b) ? a : b);
    }
    List<Pod> out = new ArrayList<>();
    for (Iterator<Map.Entry<String, Instant>> it = quarantine.entrySet().iterator(); it.hasNext(); ) {
      Map.Entry<String, Instant> e = it.next();
      if (e.getValue().isAfter(now)) {
        continue;
      }
      String node = e.getKey(); // before the removal: a TreeMap may reuse the removed entry for its successor
      it.remove();
      if (!index.nodeExists(node)) {
        out.addAll(index.podsOn(node));
      }
    }
    return out;
  }

  /**
   * Upstream markFailedAndDeletePodWithCondition: a pod neither Succeeded nor Failed first gets phase Failed (and
   * {@code condition}) written to its status, then it is deleted; a failure of either counts as an error.
   *
   * @return the writes made
   */
  private int markFailedAndDelete(Pod pod, String reason, @Nullable PodCondition condition) {
    String ns = pod.metadata().namespace();
    String name = pod.metadata().name();
    if (metrics.enabled()) {
      metrics.counter(PodGcMetrics.FORCE_DELETE_PODS, ns, reason).increment();
    }
    int writes = 0;
    try {
      if (!pod.status().phase().isTerminal()) {
        Pod current = store.require(Pod.class, ns, name);
        if (!current.metadata().uid().equals(pod.metadata().uid())) {
          throw new ConflictException("pod " + ns + "/" + name + ": uid " + current.metadata().uid()
              + " differs from the uid " + pod.metadata().uid() + " the pod GC saw");
        }
        PodStatus status = current.status().withPhase(PodPhase.Failed);
        if (condition != null) {
          status = status.withConditionUpdated(condition);
        }
        store.updateStatus(current.withStatus(status));
        writes++;
      }
      LOG.debug("pod GC: force deleting pod {}/{} ({})", ns, name, reason);
      store.delete(Pod.class, ns, name, DeleteOptions.gracePeriod(0));
      writes++;
      deleted++;
    } catch (FleetKitException e) {
      LOG.debug("pod GC: deleting pod {}/{} ({}) failed: {}", ns, name, reason, e.getMessage());
      if (metrics.enabled()) {
        metrics.counter(PodGcMetrics.FORCE_DELETE_POD_ERRORS, ns, reason).increment();
      }
    }
    return writes;
  }

  /** How many pods this controller deleted. */
  public long deletedCount() {
    return deleted;
  }

  /** How many passes ran. */
  public long passes() {
    return passes;
  }

  /** The node names in quarantine now (upstream's node queue), for tests. */
  List<String> quarantinedNodes() {
    return List.copyOf(quarantine.keySet());
  }

  /** The node names whose quarantine has ended by now (upstream's node queue length after the wait), for tests. */
  int quarantineEnded() {
    int n = 0;
    for (Instant end : quarantine.values()) {
      if (!end.isAfter(clock.now())) {
        n++;
      }
    }
    return n;
  }

  /** Stops watching and cancels the next pass. Idempotent. */
  @Override
  public void close() {
    for (Watch w : watches) {
      w.close();
    }
    watches.clear();
    if (timer != null) {
      timer.cancel();
      timer = null;
    }
    due = false;
  }

  /** Builder with upstream's defaults; not thread-safe. */
  public static final class Builder {
    private final ObjectStore store;
    private final TimerClock clock;
    private int terminatedPodThreshold = DEFAULT_TERMINATED_POD_THRESHOLD;
    private Duration gcCheckPeriod = DEFAULT_GC_CHECK_PERIOD;
    private Duration quarantineTime = DEFAULT_QUARANTINE_TIME;
    private MetricsRegistry metrics = MetricsRegistry.NOOP;

    private Builder(ObjectStore store, TimerClock clock) {
      this.store = Objects.requireNonNull(store, "store");
      this.clock = Objects.requireNonNull(clock, "clock");
    }

    /**
     * {@code --terminated-pod-gc-threshold}: how many terminated pods may exist before the oldest are deleted
     * (12,500); 0 or less turns the terminated check off.
     */
    public Builder terminatedPodThreshold(int v) {
      terminatedPodThreshold = v;
      return this;
    }

    /** How often a pass runs (20 s); at least a millisecond. */
    public Builder gcCheckPeriod(Duration v) {
      Objects.requireNonNull(v, "gcCheckPeriod");
      if (v.compareTo(Duration.ofMillis(1)) < 0) {
        throw new IllegalArgumentException("pod GC controller: gcCheckPeriod " + v + " must be at least 1ms");
      }
      gcCheckPeriod = v;
      return this;
    }

    /**
     * How long a missing node is quarantined before its pods count as orphans (40 s); negative or zero: the pass
     * that first finds it missing deletes them.
     */
    public Builder quarantineTime(Duration v) {
      quarantineTime = Objects.requireNonNull(v, "quarantineTime");
      return this;
    }

    /** Where the {@link PodGcMetrics} go (default: not measured). */
    public Builder metrics(MetricsRegistry v) {
      metrics = Objects.requireNonNull(v, "metrics");
      return this;
    }

    public PodGcController build() {
      return new PodGcController(this);
    }
  }
}
