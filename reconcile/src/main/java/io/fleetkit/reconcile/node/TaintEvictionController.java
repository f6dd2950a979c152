package io.fleetkit.reconcile.node;

import io.fleetkit.api.NotFoundException;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.events.Event;
import io.fleetkit.api.events.EventRecorder;
import io.fleetkit.api.events.ObjectReference;
import io.fleetkit.api.core.PodCondition;
import io.fleetkit.api.core.PodStatus;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.scheduling.Taint;
import io.fleetkit.api.scheduling.Taints;
import io.fleetkit.api.scheduling.Toleration;
import io.fleetkit.api.store.ListResult;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.store.Watch;
import io.fleetkit.api.store.WatchEventType;
import io.fleetkit.api.time.TimerClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Deletes pods from nodes with NoExecute taints they do not tolerate, as kube's taint-eviction controller
 * ({@code pkg/controller/tainteviction}): a pod that does not tolerate every NoExecute taint of its node is deleted
 * at once; a pod whose tolerations all carry {@code tolerationSeconds} is deleted when the smallest of them has
 * passed since the controller first scheduled it (a later, longer toleration does not postpone a scheduled
 * eviction); a pod that tolerates them all forever stays. Removing the taints cancels scheduled evictions. Before
 * deleting, the pod gets {@code DisruptionTarget=True} (reason {@value #REASON}). Pod tolerations are read as stored:
 * kube's default tolerations are added by the store's DefaultTolerationSeconds admission, as by kube's API server.
 *
 * <p>Work is event driven: node and pod watch events schedule evictions on the clock, {@link #sync} carries out
 * the due ones. As upstream, a pod is looked at again only when it appears, or its node or its tolerations change
 * ({@code PodUpdated}): status writes do not reschedule it. An eviction carried out is remembered until the pod is
 * gone or its eviction is cancelled (upstream's {@code TimedWorkerQueue} keeps the key of a fired worker), so a pod
 * that stays Terminating (its node's kubelet is down) is deleted once, not again at every toleration period; the
 * condition is written only when it changes ({@code UpdatePodCondition}). Not thread-safe: made for single-threaded
 * simulations.
 */
public final class TaintEvictionController implements AutoCloseable {
  /** The DisruptionTarget reason kube's taint manager sets. */
  public static final String REASON = "DeletionByTaintManager";

  private final ObjectStore store;
  private final TimerClock clock;
  private final Map<String, List<Taint>> taintedNodes = new HashMap<>();
  /** Scheduled evictions by pod key, and {@link #FIRED} for those carried out (upstream's nil worker). */
  private final Map<String, Work> work = new HashMap<>();
  /**
   * The node and tolerations of the pods on tainted nodes, by key, as last looked at: what upstream's
   * {@code PodUpdated} compares. A pod on an untainted node needs none (upstream's {@code handlePodUpdate} returns for
   * it); its node's tainting looks at it and records it.
   */
  private final Map<String, Placement> seen = new HashMap<>();
  private final Set<String> due = new LinkedHashSet<>();
  private final List<Watch> watches = new ArrayList<>();
  private long evicted;

  /** A scheduled eviction (upstream {@code TimedWorker}). */
  private record Work(Instant createdAt, Instant fireAt, TimerClock.@Nullable Timer timer) {}

  /** An eviction carried out: its key stays until cancelled, so that it is not scheduled again. */
  private static final Work FIRED = new Work(Instant.EPOCH, Instant.EPOCH, null);

  /** Where a pod is bound and what it tolerates. */
  private record Placement(String nodeName, List<Toleration> tolerations) {}

  private final EventRecorder events;

  private TaintEvictionController(ObjectStore store, TimerClock clock, EventRecorder events) {
    this.store = Objects.requireNonNull(store, "store");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.events = EventRecorder.bestEffort(Objects.requireNonNull(events, "events"));
  }

  /**
   * A controller reading pod tolerations as stored; kube's default not-ready/unreachable tolerations are the
   * store's DefaultTolerationSeconds admission's to add.
   */
  public static TaintEvictionController create(ObjectStore store, TimerClock clock) {
    return create(store, clock, EventRecorder.NOOP);
  }

  /**
   * {@link #create(ObjectStore, TimerClock)}, recording upstream's {@value EventRecorder#TAINT_MANAGER_EVICTION} events
   * on the pods ({@code emitPodDeletionEvent}, {@code emitCancelPodDeletionEvent}): {@code Marking for deletion Pod
   * ns/name} when a pod's eviction comes due, {@code Cancelling deletion of Pod ns/name} when a scheduled eviction is
   * cancelled (the taint went away or became tolerated, a shorter toleration replaced it, the pod was deleted).
   * What {@code events} throws is logged at DEBUG and ignored ({@link EventRecorder#bestEffort}).
   */
  public static TaintEvictionController create(ObjectStore store, TimerClock clock, EventRecorder events) {
    return new TaintEvictionController(store, clock, events);
  }

  /**
   * Lists and watches nodes and pods.
   *
   * @throws IllegalStateException if started twice
   */
  public void start() {
    if (!watches.isEmpty()) {
      throw new IllegalStateException("taint eviction controller: already started");
    }
    ListResult<Node> nodes = store.list(Node.class);
    ListResult<Pod> pods = store.list(Pod.class);
    for (Node n : nodes.items()) {
      nodeUpdated(n);
    }
    watches.add(store.watch(Node.class, nodes.resourceVersion(), e -> {
      if (e.type() == WatchEventType.DELETED) {
        taintedNodes.remove(e.object().name());
      } else {
        nodeUpdated(e.object());
      }
    }));
    watches.add(store.watch(Pod.class, pods.resourceVersion(), e -> {
      if (e.type() == WatchEventType.DELETED) {
        if (!seen.isEmpty() || !work.isEmpty()) {
          String key = e.object().metadata().key();
          seen.remove(key);
          cancelWithEvent(key);
        }
      } else {
        podUpdated(e.object());
      }
    }));
  }

  private void nodeUpdated(Node node) {
    List<Taint> taints = noExecute(node.spec().taints());
    List<Taint> old = taintedNodes.get(node.name());
    if (Objects.equals(old == null ? List.of() : old, taints)) {
      return;
    }
    if (taints.isEmpty()) {
      taintedNodes.remove(node.name());
    } else {
      taintedNodes.put(node.name(), taints);
    }
    for (Pod p : store.list(Pod.class, "", (Pod p) -> p.spec().nodeName().equals(node.name())).items()) {
      if (taints.isEmpty()) {
        seen.remove(p.metadata().key());
      } else {
        record(p);
      }
      processPod(p, taints);
    }
  }

  /**
   * Records where {@code pod} is bound and what it tolerates.
   *
   * @return whether that changed since the last record (or none was made)
   */
  private boolean record(Pod pod) {
    String key = pod.metadata().key();
    Placement was = seen.get(key);
    if (was != null && was.nodeName().equals(pod.spec().nodeName())
        && (was.tolerations() == pod.spec().tolerations() || was.tolerations().equals(pod.spec().tolerations()))) {
      return false;
    }
    seen.put(key, new Placement(pod.spec().nodeName(), pod.spec().tolerations()));
    return true;
  }

  /**
   * Upstream {@code PodUpdated} and {@code handlePodUpdate}: a bound pod on a tainted node is looked at again when it
   * is new there or its tolerations changed.
   */
  private void podUpdated(Pod pod) {
    if (!pod.isBound()) {
      return;
    }
    List<Taint> taints = taintedNodes.get(pod.spec().nodeName());
    if (taints != null && record(pod)) {
      processPod(pod, taints);
    }
  }

  /**
   * Upstream {@code processPodOnNode}. A terminal pod is evicted as any other, as upstream: a finished Job pod keeps
   * its completion through the Job's tracking finalizer, which holds it until the Job controller has counted it.
   */
  private void processPod(Pod pod, List<Taint> taints) {
    String key = pod.metadata().key();
    if (taints.isEmpty()) {
      cancelWithEvent(key);
      return;
    }
    Optional<List<Toleration>> used = Taints.matchingTolerations(taints, pod.spec().tolerations());
    Instant now = clock.now();
    if (used.isEmpty()) {
      cancelWithEvent(key);
      add(key, now, now);
      return;
    }
    long min = Taints.minTolerationSeconds(used.get());
    if (min < 0) {
      cancelWithEvent(key);
      return;
    }
    Instant start = now;
    Instant trigger = now.plusSeconds(min);
    Work existing = work.get(key);
    if (existing != null && existing != FIRED) {
      start = existing.createdAt();
      if (start.plusSeconds(min).isBefore(trigger)) {
        return;
      }
      cancelWithEvent(key);
    }
    add(key, start, start.plusSeconds(min));
  }

  private void add(String key, Instant createdAt, Instant fireAt) {
    if (work.containsKey(key)) {
      return;
    }
    Duration delay = Duration.between(clock.now(), fireAt);
    TimerClock.Timer t = clock.schedule(delay.isNegative() ? Duration.ZERO : delay, () -> due.add(key));
    work.put(key, new Work(createdAt, fireAt, t));
    if (!fireAt.isAfter(clock.now())) {
      due.add(key);
    }
  }

  /** Cancels the eviction of {@code key}; whether a scheduled one (not one carried out) was cancelled. */
  private boolean cancel(String key) {
    Work w = work.remove(key);
    boolean scheduled = w != null && w != FIRED;
    if (w != null && w.timer() != null) {
      w.timer().cancel();
    }
    due.remove(key);
    return scheduled;
  }

  /** Upstream's {@code cancelWorkWithEvent}: the event only when a scheduled eviction was cancelled. */
  private void cancelWithEvent(String key) {
    if (cancel(key) && events != EventRecorder.NOOP) {
      podEvent(key, "Cancel", "Cancelling deletion of Pod " + key);
    }
  }

  private void podEvent(String key, String action, String note) {
    int slash = key.indexOf('/');
    events.event(new ObjectReference("v1", Pod.KIND, key.substring(0, slash), key.substring(slash + 1), "", ""),
        null, Event.NORMAL, EventRecorder.TAINT_MANAGER_EVICTION, action, note);
  }

  /** When the eviction of pod {@code namespace/name} is scheduled, if it is. */
  public Optional<Instant> scheduledEviction(String podKey) {
    Work w = work.get(podKey);
    return w == null || w == FIRED ? Optional.empty() : Optional.of(w.fireAt());
  }

  /**
   * Deletes the pods whose eviction came due.
   *
   * @return how many pods it deleted
   */
  public int sync() {
    int n = 0;
    while (!due.isEmpty()) {
      String key = due.iterator().next();
      due.remove(key);
      Work w = work.get(key);
      if (w == null || w == FIRED) {
        continue;
      }
      work.put(key, FIRED);
      int slash = key.indexOf('/');
      String ns = key.substring(0, slash);
      String name = key.substring(slash + 1);
      try {
        Pod pod = store.require(Pod.class, ns, name);
        if (events != EventRecorder.NOOP) { // upstream's emitPodDeletionEvent, before the deletion
          podEvent(key, "Delete", "Marking for deletion Pod " + key);
        }
        PodCondition target = PodCondition.of(PodCondition.DISRUPTION_TARGET, ConditionStatus.True, REASON,
            "Taint manager: deleting due to NoExecute taint", clock.now());
        PodStatus status = pod.status().withConditionUpdated(target);
        if (status != pod.status()) {
          store.updateStatus(pod.withStatus(status));
        }
        store.delete(Pod.class, ns, name);
        evicted++;
        n++;
      } catch (NotFoundException e) {
        work.remove(key); // already gone (upstream: a failed worker's key is dropped)
      }
    }
    return n;
  }

  /** How many pods this controller deleted. */
  public long evictedCount() {
    return evicted;
  }

  private static List<Taint> noExecute(List<Taint> taints) {
    List<Taint> out = new ArrayList<>(0);
    for (Taint t : taints) {
      if (Taints.NO_EXECUTE.test(t)) {
        out.add(new Taint(t.key(), t.value(), t.effect(), null));
      }
    }
    return out;
  }

  /** Stops watching and cancels every scheduled eviction. Idempotent. */
  @Override
  public void close() {
    for (Watch w : watches) {
      w.close();
    }
    watches.clear();
    for (Work w : work.values()) {
      if (w.timer() != null) {
        w.timer().cancel();
      }
    }
    work.clear();
    due.clear();
    seen.clear();
  }
}
