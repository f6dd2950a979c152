package io.fleetkit.scheduler.internal;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.framework.ClusterEvent;
import io.fleetkit.api.framework.QueueSortPlugin;
import io.fleetkit.api.framework.Status;
import io.fleetkit.scheduler.PendingPod;
import io.fleetkit.scheduler.plugins.prioritysort.PrioritySortPlugin;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * kube-scheduler's {@code PriorityQueue}: activeQ (a heap ordered by the profile's QueueSort, ties by arrival),
 * backoffQ (a heap by backoff expiry; backoff is {@code initial × 2^(attempts-1)} capped at {@code max}), and the
 * unschedulable and gated pods (maps in arrival order). A pod is in exactly one of them, or in flight (popped for a
 * cycle), or waiting on Permit: never lost. Time is passed in; nothing here reads a clock. Confined to the
 * scheduler's lock.
 *
 * <p>A rejected pod is parked as unschedulable unless something during its attempt may have made it schedulable
 * (kube's in-flight events with queueing hints on): the queue records the cluster events it receives while some pod
 * is in flight, and the updates of a pod in flight as {@code TARGET_POD_*} events aimed at it; a pod whose rejecting
 * plugins would have been moved by one of the events after its pop goes to backoffQ instead (activeQ for a pending
 * plugin's Queue). A pod failed by an error, or rejected with no rejecting plugin, always backs off.
 */
public final class SchedulingQueue {
  private final long initialBackoffNanos;
  private final long maxBackoffNanos;
  private final long maxInUnschedulableNanos;
  private final PodHeap active;
  private final PodHeap backoff;
  private final LinkedHashMap<String, QueuedPod> unschedulable = new LinkedHashMap<>();
  private final LinkedHashMap<String, QueuedPod> gated = new LinkedHashMap<>();
  private final Map<String, QueuedPod> all = new HashMap<>();
  private long seq;
  private long schedulingCycle;
  /** Cluster events received while some pod was in flight, oldest first: kube's {@code inFlightEvents}. */
  private final ArrayDeque<InFlightEvent> inFlightEvents = new ArrayDeque<>();
  /** The in-flight pods counted by their {@link QueuedPod#inFlightSince}; empty when none is in flight. */
  private final TreeMap<Long, Integer> inFlightSince = new TreeMap<>();
  private long eventSeq;

  /**
   * An event recorded during some pod's flight; {@code event} null is a wildcard (it may help every pod, or only the
   * pod {@code newObject} when that is one: an activation).
   */
  record InFlightEvent(long seq, @Nullable ClusterEvent event, boolean hinted, @Nullable Object oldObject,
      @Nullable Object newObject) {}

  public SchedulingQueue(QueueSortPlugin sort, long initialBackoffNanos, long maxBackoffNanos,
      long maxInUnschedulableNanos) {
    this.initialBackoffNanos = initialBackoffNanos;
    this.maxBackoffNanos = maxBackoffNanos;
    this.maxInUnschedulableNanos = maxInUnschedulableNanos;
    if (sort instanceof PrioritySortPlugin) {
      // PrioritySort's order, copied into the heap: higher priority first, then earlier timestamp, then arrival.
      this.active = new PodHeap((p, keys, at) -> {
        keys[at] = -(long) p.sortPriority;
        keys[at + 1] = p.sortTimestampNanos;
        keys[at + 2] = p.seq;
      });
    } else {
      // A QueueSort plugin's order over the entries' records, ties by arrival.
      this.active = new PodHeap(sort::compare, (p, keys, at) -> {
        keys[at] = p.seq;
        keys[at + 1] = 0;
        keys[at + 2] = 0;
      });
    }
    this.backoff = new PodHeap((p, keys, at) -> {
      keys[at] = p.backoffExpiryNanos;
      keys[at + 1] = p.seq;
      keys[at + 2] = 0;
    });
  }

  /** Metrics hooks; {@code null} when none are recorded. */
  private @Nullable SchedulerInstruments obs;

  void observe(@Nullable SchedulerInstruments instruments) {
    this.obs = instruments != null && instruments.metricsOn() ? instruments : null;
  }

  /** Records that {@code p} entered the queue it is now in because of {@code event}. */
  private void incoming(QueuedPod p, String event) {
    if (obs != null) {
      obs.incoming(p.where, event);
    }
  }

  /** Counts {@code p} under {@code plugin} in {@code scheduler_unschedulable_pods}, once (kube's set semantics). */
  private void countUnder(QueuedPod p, @Nullable String plugin) {
    if (obs == null || plugin == null || p.countedUnder.contains(plugin)) {
      return;
    }
    if (p.countedUnder.isEmpty()) {
      p.countedUnder = new java.util.HashSet<>(4);
    }
    p.countedUnder.add(plugin);
    obs.unschedulablePlugin(plugin, p.framework.schedulerName(), 1);
  }

  /** {@code p} no longer counts as unschedulable (popped for an attempt, deleted or bound). */
  private void uncount(QueuedPod p) {
    if (obs == null || p.countedUnder.isEmpty()) {
      return;
    }
    for (String plugin : p.countedUnder) {
      obs.unschedulablePlugin(plugin, p.framework.schedulerName(), -1);
    }
    p.countedUnder = Set.of();
  }

  /** Adds a new pending pod: to activeQ, or gated if a PreEnqueue plugin says no. */
  void add(QueuedPod p) {
    if (all.putIfAbsent(p.key(), p) != null) {
      throw new IllegalStateException("scheduling queue: pod " + p.key() + " is already queued");
    }
    toActiveOrGated(p, p.timestampNanos);
    incoming(p, "PodAdd");
  }

  @Nullable QueuedPod get(String key) {
    return all.get(key);
  }

  boolean contains(String key) {
    return all.containsKey(key);
  }

  /**
   * Replaces a queued pod's object, as kube's {@code Update} with queueing hints: the update is turned into
   * {@code TARGET_POD_*} events ({@link PodChanges}). A pod in activeQ or backoffQ stays there with its new object. A
   * pod parked as unschedulable, or gated, leaves only when one of its rejecting plugins (for a gated pod, the
   * PreEnqueue plugin gating it too) registered one of the events and its hint says yes: the strongest answer over
   * the events decides ({@link Framework#requeueStrategy}; a gated pod then runs PreEnqueue again), else the pod stays
   * where it was, in its place. For a pod in flight or waiting on Permit the events are recorded, aimed at that pod:
   * if its attempt fails they count as any event received during it. An unchanged object is no event.
   */
  void update(QueuedPod p, EnginePodInfo info, long nowNanos) {
    Pod before = p.info.pod();
    Pod after = info.pod();
    p.info = info;
    p.refresh();
    switch (p.where) {
      case ACTIVE -> active.fix(p);
      case UNSCHEDULABLE, GATED -> {
        List<ClusterEvent> events = PodChanges.targetPodEvents(before, after);
        if (events.isEmpty()) {
          return;
        }
        Set<String> rejectors = p.where == QueuedPod.Where.GATED ? gatedRejectors(p) : p.rejectors;
        int strategy = Framework.REQUEUE_SKIP;
        ClusterEvent decided = events.get(0);
        for (ClusterEvent e : events) {
          int s = p.framework.requeueStrategy(rejectors, p.pending, e, true, after, before, after);
          if (s > strategy) {
            strategy = s;
            decided = e;
          }
          if (s == Framework.REQUEUE_IMMEDIATELY || (s == Framework.REQUEUE_AFTER_BACKOFF && p.pending.isEmpty())) {
            break;
          }
        }
        if (strategy == Framework.REQUEUE_SKIP) {
          return;
        }
        detach(p);
        p.where = QueuedPod.Where.NONE;
        if (strategy == Framework.REQUEUE_IMMEDIATELY) {
          toActiveOrGated(p, nowNanos);
        } else {
          toBackoffOrActive(p, nowNanos);
        }
        if (p.where != QueuedPod.Where.GATED) {
          incoming(p, SchedulerInstruments.eventLabel(decided));
        }
      }
      case IN_FLIGHT, WAITING -> {
        if (p.inFlightSince >= 0) {
          for (ClusterEvent e : PodChanges.targetPodEvents(before, after)) {
            recordInFlight(e, true, before, after);
          }
        }
      }
      default -> { }
    }
  }

  /** Removes a pod wherever it is (in flight and waiting included). */
  @Nullable QueuedPod remove(String key) {
    QueuedPod p = all.remove(key);
    if (p == null) {
      return null;
    }
    detach(p);
    leaveFlight(p);
    p.where = QueuedPod.Where.NONE;
    uncount(p);
    return p;
  }

  private void detach(QueuedPod p) {
    switch (p.where) {
      case ACTIVE -> active.remove(p);
      case BACKOFF -> backoff.remove(p);
      case UNSCHEDULABLE -> unschedulable.remove(p.key());
      case GATED -> gated.remove(p.key());
      default -> { }
    }
  }

  /**
   * The next pod to schedule (moving pods whose backoff ended to activeQ first), or {@code null}. As kube's
   * {@code Pop}, the popped pod carries no rejecting plugins from its last attempt: the new attempt records its own.
   */
  @Nullable QueuedPod pop(long nowNanos) {
    flushBackoffCompleted(nowNanos);
    QueuedPod p = active.poll();
    if (p == null) {
      return null;
    }
    p.where = QueuedPod.Where.IN_FLIGHT;
    p.rejectors = Set.of();
    p.pending = Set.of();
    uncount(p);
    p.attempts++;
    p.cycle = ++schedulingCycle;
    p.inFlightSince = eventSeq;
    inFlightSince.merge(eventSeq, 1, Integer::sum);
    return p;
  }

  /** {@code p} is no longer in flight: events no in-flight pod needs are dropped. */
  private void leaveFlight(QueuedPod p) {
    long since = p.inFlightSince;
    if (since < 0) {
      return;
    }
    p.inFlightSince = -1;
    inFlightSince.merge(since, -1, (a, b) -> a + b == 0 ? null : a + b);
    if (inFlightSince.isEmpty()) {
      inFlightEvents.clear();
      return;
    }
    long oldest = inFlightSince.firstKey();
    while (!inFlightEvents.isEmpty() && inFlightEvents.peekFirst().seq() <= oldest) {
      inFlightEvents.pollFirst();
    }
  }

  /** Records an event for the pods in flight, if any. */
  private void recordInFlight(@Nullable ClusterEvent event, boolean hinted, @Nullable Object oldObject,
      @Nullable Object newObject) {
    if (!inFlightSince.isEmpty()) {
      inFlightEvents.addLast(new InFlightEvent(++eventSeq, event, hinted, oldObject, newObject));
    }
  }

  /**
   * Where the events received during {@code p}'s flight send it, rejected by {@code rejectors} of which
   * {@code pending} answered PENDING: kube's {@code determineSchedulingHintForInFlightPod}, the strongest answer of
   * any event ({@link Framework#REQUEUE_IMMEDIATELY} over {@link Framework#REQUEUE_AFTER_BACKOFF} over
   * {@link Framework#REQUEUE_SKIP}).
   */
  private int inFlightStrategy(QueuedPod p, Set<String> rejectors, Set<String> pending) {
    if (p.inFlightSince < 0) {
      return Framework.REQUEUE_SKIP;
    }
    int strategy = Framework.REQUEUE_SKIP;
    for (InFlightEvent e : inFlightEvents) {
      if (e.seq() <= p.inFlightSince) {
        continue;
      }
      int s;
      if (e.event() == null) {
        // a wildcard; one aimed at a pod (an activation) helps that pod only
        s = !(e.newObject() instanceof Pod target) || target.metadata().key().equals(p.key())
            ? Framework.REQUEUE_AFTER_BACKOFF : Framework.REQUEUE_SKIP;
      } else if (e.event().isTargetPodUpdate()
          && !(e.newObject() instanceof Pod target && target.metadata().key().equals(p.key()))) {
        continue; // an update of another pod in flight
      } else {
        s = p.framework.requeueStrategy(rejectors, pending, e.event(), e.hinted(), p.info.pod(), e.oldObject(),
            e.newObject());
      }
      if (s == Framework.REQUEUE_IMMEDIATELY) {
        return s;
      }
      if (s == Framework.REQUEUE_AFTER_BACKOFF) {
        if (pending.isEmpty()) {
          return s; // only a pending plugin could answer more
        }
        strategy = s;
      }
    }
    return strategy;
  }

  /**
   * kube's {@code Activate}: each pod parked as unschedulable, gated or backing off moves to activeQ at once, backoff
   * skipped (a gated pod only if PreEnqueue now admits it). A pod in flight (being scheduled, or waiting on Permit)
   * gets a wildcard event aimed at it alone, kube's {@code ForceActivate}: if its attempt fails it backs off rather
   * than being parked. Pods in activeQ and keys the queue does not hold are left alone. Returns how many pods moved
   * to activeQ.
   */
  int activate(Collection<String> keys, long nowNanos) {
    int moved = 0;
    for (String key : keys) {
      QueuedPod p = all.get(key);
      if (p == null) {
        continue;
      }
      switch (p.where) {
        case UNSCHEDULABLE, GATED, BACKOFF -> {
          detach(p);
          p.where = QueuedPod.Where.NONE;
          toActiveOrGated(p, nowNanos);
          if (p.where == QueuedPod.Where.ACTIVE) {
            incoming(p, "ForceActivate");
            moved++;
          }
        }
        case IN_FLIGHT, WAITING -> {
          if (p.inFlightSince >= 0) {
            recordInFlight(null, false, null, p.info.pod());
          }
        }
        default -> { }
      }
    }
    return moved;
  }

  /** Marks an in-flight pod as held by Permit. */
  void markWaiting(QueuedPod p) {
    p.where = QueuedPod.Where.WAITING;
  }

  /** The pod was bound (or deleted): it leaves the queue. */
  void done(QueuedPod p) {
    if (all.get(p.key()) == p) {
      all.remove(p.key());
    }
    detach(p);
    leaveFlight(p);
    p.where = QueuedPod.Where.NONE;
    uncount(p);
  }

  /**
   * Re-queues a pod whose cycle failed, as kube's {@code AddUnschedulableIfNotPresent} with queueing hints: an error,
   * a rejection naming no plugin, and a rejection after which an event during the attempt may help (one the rejecting
   * plugins registered and their hints accept, a wildcard, or an update of the pod) go to backoffQ (activeQ once the
   * backoff is over); any other rejection parks the pod as unschedulable.
   */
  void requeueAfterFailure(QueuedPod p, Status.Code code, String message, Set<String> rejectors,
      long nowNanos) {
    requeueAfterFailure(p, code, message, rejectors, Set.of(), nowNanos);
  }

  /**
   * {@link #requeueAfterFailure(QueuedPod, Status.Code, String, Set, long)} for a rejection some of whose plugins,
   * {@code pending} (a subset of {@code rejectors}), answered PENDING: an event during the attempt that one of those
   * plugins' hints queues sends the pod straight to activeQ, as kube's {@code queueImmediately}.
   */
  void requeueAfterFailure(QueuedPod p, Status.Code code, String message, Set<String> rejectors,
      Set<String> pending, long nowNanos) {
    if (all.get(p.key()) != p) {
      leaveFlight(p);
      return; // deleted meanwhile
    }
    int strategy = code == Status.Code.ERROR || rejectors.isEmpty()
        ? Framework.REQUEUE_AFTER_BACKOFF : inFlightStrategy(p, rejectors, pending);
    leaveFlight(p);
    p.message = message;
    p.rejectors = rejectors;
    p.pending = pending;
    for (String plugin : rejectors) {
      countUnder(p, plugin);
    }
    p.timestampNanos = nowNanos;
    p.backoffExpiryNanos = nowNanos + backoffDuration(p.attempts);
    p.refresh();
    p.where = QueuedPod.Where.NONE;
    if (strategy == Framework.REQUEUE_IMMEDIATELY) {
      toActiveOrGated(p, nowNanos);
    } else if (strategy == Framework.REQUEUE_AFTER_BACKOFF) {
      toBackoffOrActive(p, nowNanos);
    } else {
      p.where = QueuedPod.Where.UNSCHEDULABLE;
      unschedulable.put(p.key(), p);
    }
    incoming(p, "ScheduleAttemptFailure");
  }

  /** kube's backoff: {@code initial} doubled per earlier attempt, capped at {@code max}. */
  long backoffDuration(int attempts) {
    long d = initialBackoffNanos;
    for (int i = 1; i < attempts; i++) {
      if (d >= maxBackoffNanos / 2 + 1) {
        return maxBackoffNanos;
      }
      d *= 2;
    }
    return Math.min(d, maxBackoffNanos);
  }

  /**
   * A cluster event that may help parked pods: each unschedulable pod one of whose rejecting plugins registered
   * {@code event} moves to backoffQ (if still backing off) or activeQ; a gated pod whose gating PreEnqueue plugin
   * registered {@code event} is released to run PreEnqueue again ({@link #moveGated}). Returns how many pods moved.
   */
  int moveAllToActiveOrBackoff(ClusterEvent event, long nowNanos) {
    return moveAllToActiveOrBackoff(event, false, null, null, nowNanos);
  }

  /**
   * {@link #moveAllToActiveOrBackoff(ClusterEvent, long)} for an event about one object changing from
   * {@code oldObject} to {@code newObject}: the rejecting plugins' queueing hints decide per pod.
   */
  int moveAllToActiveOrBackoff(ClusterEvent event, @Nullable Object oldObject, @Nullable Object newObject,
      long nowNanos) {
    return moveAllToActiveOrBackoff(event, true, oldObject, newObject, nowNanos);
  }

  /**
   * A wildcard event, kube's {@code UnschedulableTimeout} move: every unschedulable pod moves to backoffQ (if still
   * backing off) or activeQ whatever rejected it, every gated pod is re-checked by PreEnqueue (whatever gates it),
   * and a pod in flight that is rejected next backs off. Returns how many pods moved.
   */
  int moveAllToActiveOrBackoff(long nowNanos) {
    return moveAllToActiveOrBackoff(null, false, null, null, null, nowNanos);
  }

  /**
   * kube's {@code MoveAllToActiveOrBackoffQueue} with a {@code PreEnqueueCheck}: as
   * {@link #moveAllToActiveOrBackoff(ClusterEvent, long)} ({@code event} null: the wildcard move), but only the parked
   * pods {@code preCheck} accepts move. {@code preCheck} is asked about an unschedulable pod only when the event may
   * help it (one of its rejecting plugins registered the event, or the event is the wildcard), so it never runs for
   * an event no plugin is interested in; for a gated pod, only when its gating plugin registered the event (or the
   * event is the wildcard). Returns how many pods moved.
   */
  int moveAllToActiveOrBackoff(@Nullable ClusterEvent event, Predicate<Pod> preCheck, long nowNanos) {
    return moveAllToActiveOrBackoff(event, false, null, null, preCheck, nowNanos);
  }

  private int moveAllToActiveOrBackoff(@Nullable ClusterEvent event, boolean hinted, @Nullable Object oldObject,
      @Nullable Object newObject, long nowNanos) {
    return moveAllToActiveOrBackoff(event, hinted, oldObject, newObject, null, nowNanos);
  }

  private int moveAllToActiveOrBackoff(@Nullable ClusterEvent event, boolean hinted, @Nullable Object oldObject,
      @Nullable Object newObject, @Nullable Predicate<Pod> preCheck, long nowNanos) {
    recordInFlight(event, hinted, oldObject, newObject);
    int moved = 0;
    if (!unschedulable.isEmpty()) {
      List<QueuedPod> ps = new ArrayList<>();
      List<QueuedPod> immediately = null;
      for (Iterator<QueuedPod> it = unschedulable.values().iterator(); it.hasNext(); ) {
        QueuedPod p = it.next();
        boolean moves;
        if (event != null && !p.pending.isEmpty()) {
          // a pending plugin's Queue skips backoff (kube's queueImmediately)
          int strategy = preCheck == null || p.framework.movesOn(p.rejectors, event) && preCheck.test(p.info.pod())
              ? p.framework.requeueStrategy(p.rejectors, p.pending, event, hinted, p.info.pod(), oldObject, newObject)
              : Framework.REQUEUE_SKIP;
          if (strategy == Framework.REQUEUE_IMMEDIATELY) {
            it.remove();
            if (immediately == null) {
              immediately = new ArrayList<>(2);
            }
            immediately.add(p);
            continue;
          }
          moves = strategy == Framework.REQUEUE_AFTER_BACKOFF;
        } else if (event == null) {
          moves = preCheck == null || preCheck.test(p.info.pod());
        } else if (preCheck != null) {
          // the registrations first: the check runs only for a pod the event may help, the hints only if it passes
          moves = p.framework.movesOn(p.rejectors, event) && preCheck.test(p.info.pod())
              && (!hinted || p.framework.movesOn(p.rejectors, event, p.info.pod(), oldObject, newObject));
        } else {
          moves = hinted ? p.framework.movesOn(p.rejectors, event, p.info.pod(), oldObject, newObject)
              : p.framework.movesOn(p.rejectors, event);
        }
        if (moves) {
          it.remove();
          ps.add(p);
        }
      }
      String label = event == null ? "UnschedulableTimeout" : SchedulerInstruments.eventLabel(event);
      for (QueuedPod p : ps) {
        p.where = QueuedPod.Where.NONE;
        moveOut(p, nowNanos);
        incoming(p, label);
        moved++;
      }
      if (immediately != null) {
        for (QueuedPod p : immediately) {
          p.where = QueuedPod.Where.NONE;
          toActiveOrGated(p, nowNanos);
          incoming(p, label);
          moved++;
        }
      }
    }
    if (!gated.isEmpty()) {
      moved += moveGated(event, hinted, oldObject, newObject, preCheck, nowNanos);
    }
    return moved;
  }

  /**
   * The gated pods an event may release, as upstream's {@code movePodsToActiveOrBackoffQueue} for pods in
   * unschedulablePods with a {@code GatingPlugin}: a specific event is looked at only for a pod whose gating plugin
   * registered it ({@code GatingPluginEvents}), then {@code preCheck}, then the hints of the gating plugin and of the
   * plugins that rejected the pod's last attempt decide as for an unschedulable pod. A wildcard event ({@code event}
   * null) re-checks every gated pod {@code preCheck} accepts. A released pod runs PreEnqueue again on entering activeQ
   * (at once for a pending plugin's Queue or when its backoff is over, else when its backoff ends), and stays gated
   * if PreEnqueue still says no. Returns how many pods entered activeQ or backoffQ.
   */
  private int moveGated(@Nullable ClusterEvent event, boolean hinted, @Nullable Object oldObject,
      @Nullable Object newObject, @Nullable Predicate<Pod> preCheck, long nowNanos) {
    List<QueuedPod> ps = null;
    List<Integer> strategies = null;
    for (Iterator<QueuedPod> it = gated.values().iterator(); it.hasNext(); ) {
      QueuedPod p = it.next();
      if (event != null && !p.framework.pluginRegisters(p.gatedBy, event)) {
        continue; // the gating plugin is not interested: the event cannot release the pod
      }
      if (preCheck != null && !preCheck.test(p.info.pod())) {
        continue;
      }
      int strategy = event == null ? Framework.REQUEUE_AFTER_BACKOFF
          : p.framework.requeueStrategy(gatedRejectors(p), p.pending, event, hinted, p.info.pod(), oldObject,
              newObject);
      if (strategy == Framework.REQUEUE_SKIP) {
        continue;
      }
      it.remove();
      if (ps == null) {
        ps = new ArrayList<>();
        strategies = new ArrayList<>();
      }
      ps.add(p);
      strategies.add(strategy);
    }
    if (ps == null) {
      return 0;
    }
    String label = event == null ? "UnschedulableTimeout" : SchedulerInstruments.eventLabel(event);
    int moved = 0;
    for (int i = 0; i < ps.size(); i++) {
      QueuedPod p = ps.get(i);
      p.where = QueuedPod.Where.NONE;
      if (strategies.get(i) == Framework.REQUEUE_IMMEDIATELY) {
        toActiveOrGated(p, nowNanos);
      } else {
        toBackoffOrActive(p, nowNanos);
      }
      if (p.where != QueuedPod.Where.GATED) {
        incoming(p, label);
        moved++;
      }
    }
    return moved;
  }

  /**
   * The plugins whose hints answer for gated {@code p}: upstream's {@code UnschedulablePlugins} of a gated pod, the
   * rejectors of its last attempt and the PreEnqueue plugin gating it.
   */
  private static Set<String> gatedRejectors(QueuedPod p) {
    if (p.gatedBy.isEmpty() || p.rejectors.contains(p.gatedBy)) {
      return p.rejectors;
    }
    if (p.rejectors.isEmpty()) {
      return Set.of(p.gatedBy);
    }
    Set<String> r = new java.util.HashSet<>(p.rejectors);
    r.add(p.gatedBy);
    return r;
  }

  /** Moves pods whose backoff has expired from backoffQ to activeQ. */
  void flushBackoffCompleted(long nowNanos) {
    QueuedPod p;
    while ((p = backoff.peek()) != null && p.backoffExpiryNanos - nowNanos <= 0) {
      backoff.poll();
      p.where = QueuedPod.Where.NONE;
      toActiveOrGated(p, nowNanos);
      incoming(p, "BackoffComplete");
    }
  }

  /** Moves pods parked as unschedulable for longer than the maximum (5 minutes by default). */
  void flushUnschedulableLeftover(long nowNanos) {
    if (unschedulable.isEmpty()) {
      return; // the common case: no iterator to allocate
    }
    for (Iterator<QueuedPod> it = unschedulable.values().iterator(); it.hasNext(); ) {
      QueuedPod p = it.next();
      if (nowNanos - p.timestampNanos < maxInUnschedulableNanos) {
        break; // arrival order = timestamp order
      }
      it.remove();
      p.where = QueuedPod.Where.NONE;
      moveOut(p, nowNanos);
      incoming(p, "UnschedulableTimeout");
    }
  }

  private void moveOut(QueuedPod p, long nowNanos) {
    toBackoffOrActive(p, nowNanos);
  }

  private void toBackoffOrActive(QueuedPod p, long nowNanos) {
    if (p.attempts > 0 && p.backoffExpiryNanos - nowNanos > 0) {
      p.seq = ++seq;
      p.where = QueuedPod.Where.BACKOFF;
      backoff.add(p);
    } else {
      toActiveOrGated(p, nowNanos);
    }
  }

  /**
   * Into activeQ if PreEnqueue admits {@code p}, else gated. The first entry into activeQ is the pod's initial attempt
   * timestamp, as kube's {@code moveToActiveQ} sets {@code InitialAttemptTimestamp}: time spent gated before it does
   * not count in the scheduling SLI, and a gang's queue time (Coscheduling's sort) starts there.
   */
  private void toActiveOrGated(QueuedPod p, long nowNanos) {
    Status s = p.framework.runPreEnqueue(p.info.pod());
    p.seq = ++seq;
    p.gatedBy = s.isSuccess() || s.plugin() == null ? "" : s.plugin();
    if (s.isSuccess()) {
      if (!p.everActive) {
        p.everActive = true;
        if (p.initialAttemptNanos != nowNanos) {
          p.initialAttemptNanos = nowNanos;
          p.refresh();
        }
      }
      p.where = QueuedPod.Where.ACTIVE;
      active.add(p);
    } else {
      p.message = s.message();
      countUnder(p, s.plugin());
      p.where = QueuedPod.Where.GATED;
      gated.put(p.key(), p);
    }
  }

  /** The events recorded for the pods in flight, oldest first (for tests). */
  List<InFlightEvent> inFlightEvents() {
    return List.copyOf(inFlightEvents);
  }

  /** The number of pods in activeQ. */
  public int activeSize() {
    return active.size();
  }

  public int backoffSize() {
    return backoff.size();
  }

  public int unschedulableSize() {
    return unschedulable.size();
  }

  public int gatedSize() {
    return gated.size();
  }

  /** Every pod the queue holds, in flight and waiting included. */
  public int size() {
    return all.size();
  }

  List<PendingPod> pending() {
    List<PendingPod> out = new ArrayList<>(all.size());
    for (QueuedPod p : all.values()) {
      if (p.where != QueuedPod.Where.IN_FLIGHT) {
        out.add(p.toPending());
      }
    }
    return out;
  }

  Iterable<QueuedPod> entries() {
    return all.values();
  }
}
