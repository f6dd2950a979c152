package io.fleetkit.scheduler.internal;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.events.EventRecorder;
import io.fleetkit.api.metrics.MetricsRegistry;
import io.fleetkit.api.tracing.Tracing;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodCondition;
import io.fleetkit.api.framework.ClusterEvent;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.NodeToStatus;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.PostFilterResult;
import io.fleetkit.api.framework.Status;
import io.fleetkit.api.framework.WaitingPods;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.scheduler.PendingPod;
import io.fleetkit.scheduler.ScheduleResult;
import io.fleetkit.scheduler.Scheduler;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.LongSupplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.MDC;
import org.slf4j.LoggerFactory;

/**
 * The scheduler: the scheduling cycle of kube-scheduler's {@code schedule_one.go} over a queue, a cache and its
 * snapshot. One cycle: pop the next pod, refresh the snapshot, PreFilter and Filter ({@link FeasibleNodes}), PostFilter
 * when nothing fits, PreScore, Score and the host selection, then the binding cycle: assume, Reserve, Permit (holding
 * the pod in {@link WaitingPodsImpl} when a plugin waits), PreBind, Bind, PostBind. The {@link Framework} of the pod's
 * profile runs each extension point; cluster events are applied by {@link EventHandlers}. PreBind and Bind run
 * inline or, with a bind parallelism, on the {@link BindingCycle}'s threads while the next pod is scheduled.
 *
 * <p>Locking ({@link EngineLock}):
 *
 * <ul>
 *   <li>The <b>engine lock</b> guards all of the engine's state: the cache, the snapshot, the queue, the nominator,
 *       the cluster objects, the waiting pods, the frameworks' score buffers, {@link FeasibleNodes}' buffers and
 *       start offset, the random generator, the result collector and {@code closed}. It is held for a whole cycle
 *       ({@link #scheduleOne}, {@link #runUntilIdle}), by the introspection methods and by {@link #close}.
 *   <li>Cluster events ({@link #addNode} ... {@link #removeObject}) and Permit decisions
 *       ({@link WaitingPods#allow}, {@link WaitingPods#reject}) do not take the engine lock when another thread holds
 *       it: they go into the engine lock's inbox and return; the thread holding the lock applies them, in order, at
 *       the end of its cycle. When the lock is free (or the caller's own) they are applied before the call returns.
 *   <li>{@code nodeNames}' monitor guards the node names as the events submitted so far leave them, so that
 *       {@link #addNode} rejects a duplicate at once, in submission order, without the engine lock; it is held only
 *       to check and enqueue.
 *   <li>Outcomes of asynchronous bindings come back through the inbox like events; {@link #runUntilIdle} applies the
 *       inbox between cycles, and waits for the bindings it started before it returns.
 *   <li>During a cycle, Filter and Score run on the worker threads of the {@link ParallelRunner}; they read the
 *       snapshot, the cycle state and the nominator, which only the thread holding the engine lock writes, and never
 *       while a fan-out runs.
 * </ul>
 */
public final class SchedulerImpl implements Scheduler {
  private static final Logger LOG = LoggerFactory.getLogger(SchedulerImpl.class);
  /** The MDC key holding the pod ({@code namespace/name}) of the running scheduling attempt. */
  public static final String MDC_POD = "pod";
  /** MDC key holding the node the running attempt chose ({@code name}), from Reserve to the end of the attempt. */
  public static final String MDC_NODE = "node";

  private final SchedulerConfig config;
  private final LongSupplier nanos;
  /** Whether {@link #nanos} is {@link System#nanoTime()}, so one clock read serves the attempt's end and the SLI. */
  private final boolean systemNanos;
  private final EngineLock lock = new EngineLock();
  private final Set<String> nodeNames = new HashSet<>();
  private final Map<String, Framework> frameworks = new LinkedHashMap<>();
  private final SchedulerCache cache;
  private final ClusterSnapshot snapshot = new ClusterSnapshot();
  private final SchedulingQueue queue;
  private final Nominator nominator = new Nominator();
  private final WaitingPodsImpl waiting;
  private final EventHandlers handlers;
  private final ParallelRunner runner;
  private final FeasibleNodes feasibleNodes;
  private final HostSelection hostSelection;
  private final BindingCycle bindings;
  private final SplittableRandom random;
  private boolean closed;
  private @Nullable List<ScheduleResult> collector;
  /** Metrics, events and traces; {@code null} when none was asked for, and every hook below is skipped. */
  private final @Nullable SchedulerInstruments obs;
  /** {@link System#nanoTime()} at the start of the running attempt; -1 outside one. */
  private long attemptStartNanos = -1;
  /**
   * The clock read that ended the previous attempt when it ran in the same {@link #runUntilIdle()} loop as the next
   * one, with metrics on and the system clock; -1 otherwise. The next attempt's housekeeping and queue pop take it as
   * their time instead of reading the clock: they only compare it with deadlines (assumed pods' expiry, Permit
   * timeouts, backoff ends, the unschedulable pods' leftover flush) that kube-scheduler itself checks once a second
   * or less often, and the attempt's own clock still starts after the pop, as kube's does. It is at most the time the
   * loop spent between the two attempts (applying the events that arrived) behind the clock.
   */
  private long previousEndNanos = -1;
  /** Scheduling cycles run; every {@link #EVALUATION_FLUSH_CYCLES}th flushes the plugin evaluation counts. */
  private long cycles;
  private static final int EVALUATION_FLUSH_CYCLES = 256;
  /** Whether a cycle ran since the frameworks' plugin evaluation counts were last flushed. */
  private boolean evaluationsHeld;

  public SchedulerImpl(SchedulerConfig config) {
    this(config, MetricsRegistry.NOOP, EventRecorder.NOOP, Tracing.NOOP);
  }

  /**
   * A scheduler that records kube-scheduler's metrics into {@code metrics}, its events into {@code events} and a
   * span per scheduling attempt into {@code tracing}.
   */
  public SchedulerImpl(SchedulerConfig config, MetricsRegistry metrics, EventRecorder events, Tracing tracing) {
    this.config = config;
    this.obs = SchedulerInstruments.of(metrics, events, tracing, config.seed(),
        config.metricsSamplePercent());
    Clock clock;
    if (config.clock() != null) {
      Clock c = config.clock();
      clock = c;
      this.nanos = () -> {
        Instant i = c.instant();
        return i.getEpochSecond() * 1_000_000_000L + i.getNano();
      };
    } else if (config.ticker() != null) {
      LongSupplier t = config.ticker();
      this.nanos = t;
      clock = new TickerClock(t);
    } else {
      clock = Clock.systemUTC();
      this.nanos = System::nanoTime;
    }
    this.systemNanos = config.clock() == null && config.ticker() == null;
    this.cache = new SchedulerCache(config.assumedPodTtl().toNanos());
    this.waiting = new WaitingPodsImpl(lock, nanos);
    ClusterObjects objects = new ClusterObjects();
    for (var profile : config.profiles()) {
      frameworks.put(profile.schedulerName(),
          new Framework(profile, config.registry(), clock, snapshot, waiting, objects, config.binder()));
    }
    if (metrics.enabled()) {
      for (Framework fw : frameworks.values()) {
        fw.recordPluginDurations(metrics, obs.buffer());
        fw.countEvaluations(metrics);
      }
    }
    if (obs != null && obs.metricsOn()) {
      // batched counts and observations reach their series before every call returns (and, within runUntilIdle,
      // every EVALUATION_FLUSH_CYCLES cycles and when the queue runs empty), so a scrape between calls sees them all
      lock.beforeRelease(this::flushEvaluations);
    }
    Framework first = frameworks.values().iterator().next();
    for (Framework fw : frameworks.values()) {
      if (!fw.queueSortName().equals(first.queueSortName())) {
        throw new IllegalArgumentException("profile " + fw.schedulerName() + ": QueueSort plugin "
            + fw.queueSortName() + " differs from profile " + first.schedulerName() + "'s " + first.queueSortName()
            + "; all profiles must use the same QueueSort");
      }
    }
    this.queue = new SchedulingQueue(first.queueSort, config.initialBackoff().toNanos(),
        config.maxBackoff().toNanos(), config.maxInUnschedulable().toNanos());
    this.queue.observe(obs);
    for (Framework fw : frameworks.values()) {
      fw.activator(keys -> lock.submit("activate", keys, () -> queue.activate(keys, nanos.getAsLong())));
      fw.nominatedPods(nominator::forNode);
    }
    this.handlers = new EventHandlers(cache, queue, nominator, waiting, objects, frameworks, nanos);
    this.runner = new ParallelRunner(config.parallelism());
    this.bindings = new BindingCycle(lock, config.bindParallelism());
    this.random = new SplittableRandom(config.seed());
    this.feasibleNodes = new FeasibleNodes(snapshot, nominator, runner, config.inlineWork(),
        random.nextLong() & Long.MAX_VALUE);
    this.hostSelection = new HostSelection(snapshot, runner, config.inlineWork(), random);
    waiting.outcomes(new WaitingPodsImpl.Outcomes() {
      @Override
      public void allowed(WaitingPodsImpl.WaitingPod wp, long nowNanos) {
        if (obs != null) {
          obs.permitWait(Status.Code.SUCCESS, nowNanos - wp.sinceNanos);
        }
        bind(wp.qp, wp.fw, wp.state, wp.assumed, wp.nodeName, nowNanos);
      }

      @Override
      public void rejected(WaitingPodsImpl.WaitingPod wp, Status why, long nowNanos) {
        if (obs != null) {
          obs.permitWait(why.code(), nowNanos - wp.sinceNanos);
        }
        undo(wp.qp, wp.fw, wp.state, wp.assumed, wp.nodeName, why, false, nowNanos);
      }

      @Override
      public void dropped(WaitingPodsImpl.WaitingPod wp) {
        if (obs != null) {
          obs.permitWait(Status.Code.UNSCHEDULABLE, nanos.getAsLong() - wp.sinceNanos);
        }
        unreserve(wp.fw, wp.state, wp.assumed, wp.nodeName);
        cache.forget(wp.assumed.key());
      }
    });
  }

  // ------------------------------------------------------------------------------------------ cluster events

  @Override
  public void addNode(Node node) {
    Objects.requireNonNull(node, "node");
    EngineLock.Task task;
    synchronized (nodeNames) {
      if (!nodeNames.add(node.name())) {
        throw new IllegalArgumentException("scheduler: node " + node.name() + " already exists; use updateNode");
      }
      task = lock.post("add node", node.name(), () -> handlers.putNode(node));
    }
    lock.help(task);
  }

  @Override
  public void updateNode(Node node) {
    Objects.requireNonNull(node, "node");
    EngineLock.Task task;
    synchronized (nodeNames) {
      nodeNames.add(node.name());
      task = lock.post("update node", node.name(), () -> handlers.putNode(node));
    }
    lock.help(task);
  }

  @Override
  public void removeNode(String nodeName) {
    Objects.requireNonNull(nodeName, "nodeName");
    EngineLock.Task task;
    synchronized (nodeNames) {
      nodeNames.remove(nodeName);
      task = lock.post("remove node", nodeName, () -> handlers.removeNode(nodeName));
    }
    lock.help(task);
  }

  @Override
  public void addPod(Pod pod) {
    Objects.requireNonNull(pod, "pod");
    lock.submit("add pod", pod.metadata(), () -> handlers.putPod(pod));
  }

  @Override
  public void updatePod(Pod pod) {
    Objects.requireNonNull(pod, "pod");
    lock.submit("update pod", pod.metadata(), () -> handlers.putPod(pod));
  }

  @Override
  public void removePod(String podKey) {
    Objects.requireNonNull(podKey, "podKey");
    lock.submit("remove pod", podKey, () -> handlers.removePod(podKey));
  }

  @Override
  public void addObject(Object object) {
    Objects.requireNonNull(object, "object");
    lock.submit("add object", object.getClass().getSimpleName(), () -> handlers.addObject(object));
  }

  @Override
  public void removeObject(Object object) {
    Objects.requireNonNull(object, "object");
    lock.submit("remove object", object.getClass().getSimpleName(), () -> handlers.removeObject(object));
  }

  // ------------------------------------------------------------------------------------------- introspection

  @Override
  public List<PendingPod> pending() {
    return lock.call(queue::pending);
  }

  @Override
  public Optional<String> nodeOf(String podKey) {
    return lock.call(() -> Optional.ofNullable(cache.nodeOf(podKey)));
  }

  @Override
  public Optional<NodeInfo> nodeInfo(String nodeName) {
    return lock.call(() -> Optional.ofNullable(cache.nodeInfo(nodeName)));
  }

  @Override
  public WaitingPods waitingPods() {
    return waiting;
  }

  /** The cache, for tests and benchmarks in this module. */
  public SchedulerCache cache() {
    return cache;
  }

  /** The queue, for tests and benchmarks in this module. */
  public SchedulingQueue queue() {
    return queue;
  }

  // ------------------------------------------------------------------------------------------------ driving

  @Override
  public @Nullable ScheduleResult scheduleOne() {
    return lock.call(() -> scheduleOneLocked(false));
  }

  /**
   * One scheduling attempt; {@code chained}: the call follows an attempt of the same {@link #runUntilIdle()} loop,
   * so that attempt's end may stand for the clock ({@link #previousEndNanos}).
   */
  private @Nullable ScheduleResult scheduleOneLocked(boolean chained) {
    checkOpen();
    long now = chained && previousEndNanos >= 0 ? previousEndNanos : nanos.getAsLong();
    previousEndNanos = -1;
    housekeeping(now);
    QueuedPod qp = queue.pop(now);
    if (qp == null) {
      flushEvaluations();
      return null;
    }
    if (qp.info.pod().metadata().deletionTimestamp() != null) {
      return skipDeleting(qp);
    }
    if ((++cycles & (EVALUATION_FLUSH_CYCLES - 1)) == 0) {
      flushEvaluations();
    }
    evaluationsHeld = true;
    waiting.defer(true);
    attemptStartNanos = obs == null ? -1 : obs.attemptStart(qp.info.pod(), qp.framework.schedulerName(), qp.attempts);
    MDC.put(MDC_POD, qp.key());
    ScheduleResult r;
    try {
      r = schedulePod(qp, now);
    } finally {
      waiting.defer(false);
      attemptStartNanos = -1;
      MDC.remove(MDC_POD);
      MDC.remove(MDC_NODE);
      if (obs != null) {
        obs.attemptDone();
      }
    }
    waiting.processReady();
    return r;
  }

  /**
   * kube's {@code skipPodSchedule}: a pod being deleted (it has a {@code deletionTimestamp}) is not scheduled. It
   * leaves the queue without an attempt (kube's {@code Done}, no re-queue: a later update of the pod brings it back,
   * to be skipped again, until its deletion arrives), no status is written, and the result, code
   * {@link Status.Code#SKIP}, is recorded as kube's FailedScheduling event {@code skip schedule deleting pod: ns/name}.
   * kube's other case, an assumed pod popped again, cannot arise here: the queue holds an assumed pod until its binding
   * ends and ignores its updates meanwhile ({@link EventHandlers#putPod}).
   */
  private ScheduleResult skipDeleting(QueuedPod qp) {
    queue.done(qp);
    LOG.debug("skip schedule deleting pod {}", qp.key());
    return emit(new ScheduleResult(qp.key(), null, Status.Code.SKIP, "skip schedule deleting pod: " + qp.key(), null,
        List.of()), qp);
  }

  @Override
  public List<ScheduleResult> runUntilIdle() {
    return lock.call(() -> {
      checkOpen();
      List<ScheduleResult> out = new ArrayList<>();
      List<ScheduleResult> outer = collector;
      collector = out;
      try {
        boolean idle;
        do {
          boolean chained = false;
          while (scheduleOneLocked(chained) != null) {
            chained = true;
            lock.applyInbox(); // events and binding outcomes that arrived during the cycle; results go via emit()
          }
          // Asynchronous bindings: wait for them (failed ones are re-queued on the way), but go back to scheduling as
          // soon as a pod is active again (one that arrived meanwhile, or a re-queued one), so that the binding threads
          // are kept busy rather than drained before the next pods are scheduled.
          idle = bindings.awaitIdleOr(() -> queue.activeSize() > 0);
        } while (bindings.isAsync() && (!idle || queue.activeSize() > 0));
      } finally {
        collector = outer;
      }
      if (outer != null) {
        outer.addAll(out);
      }
      return out;
    });
  }

  private void checkOpen() {
    if (closed) {
      throw new IllegalStateException("scheduler is closed");
    }
  }

  private void housekeeping(long now) {
    List<String> expired = cache.cleanupExpired(now);
    for (int i = 0; i < expired.size(); i++) {
      LOG.debug("assumed pod {} expired before its binding was observed; forgotten", expired.get(i));
    }
    waiting.expire(now);
    waiting.processReady();
    queue.flushUnschedulableLeftover(now);
  }

  private ScheduleResult emit(ScheduleResult r, QueuedPod qp) {
    if (obs != null) {
      long end = System.nanoTime();
      if (systemNanos) {
        previousEndNanos = end;
      }
      obs.result(r, qp.info.pod(), qp.framework.schedulerName(), qp.attempts,
          attemptStartNanos < 0 ? -1 : end - attemptStartNanos,
          (systemNanos ? end : nanos.getAsLong()) - qp.initialAttemptNanos, qp.rejectors);
    }
    return emit(r);
  }

  private ScheduleResult emit(ScheduleResult r) {
    if (collector != null) {
      collector.add(r);
    }
    var l = config.listener();
    if (l != null) {
      try {
        l.accept(r);
      } catch (RuntimeException e) {
        LOG.warn("result listener failed for pod {}", r.podKey(), e);
      }
    }
    return r;
  }

  private void flushEvaluations() {
    if (obs != null && obs.metricsOn()) {
      obs.publishSizes(queue, cache);
      obs.flush();
      if (evaluationsHeld) { // plugins are evaluated only within cycles
        evaluationsHeld = false;
        for (Framework fw : frameworks.values()) {
          fw.flushEvaluations();
        }
      }
    }
  }

  @Override
  public void close() {
    lock.run(() -> {
      if (closed) {
        return;
      }
      closed = true;
      flushEvaluations();
      waiting.rejectAll("scheduler closed");
      bindings.close();
      runner.close();
    });
  }

  // ------------------------------------------------------------------------------------------ scheduling cycle

  private ScheduleResult schedulePod(QueuedPod qp, long now) {
    Framework fw = qp.framework;
    EnginePodInfo pod = qp.info;
    cache.updateSnapshot(snapshot);
    int numAll = snapshot.size();
    if (numAll == 0) {
      return failClearingNomination(qp, Status.Code.UNSCHEDULABLE, Diagnosis.NO_NODES_AVAILABLE, now);
    }
    ArrayCycleState state = new ArrayCycleState();
    state.recordPluginMetrics = obs != null && obs.samplePluginMetrics();

    long preFilterStart = obs == null ? 0 : obs.begin(SchedulerInstruments.PRE_FILTER, state, false);
    Framework.PreFilterOutcome pre = fw.runPreFilter(state, pod);
    Status preStatus = pre.status();
    if (obs != null) {
      obs.end(SchedulerInstruments.PRE_FILTER, preStatus.isRejected() || preStatus.code() == Status.Code.ERROR
          ? preStatus.code() : Status.Code.SUCCESS, fw.schedulerName(), preFilterStart, state, true);
    }
    if (preStatus.code() == Status.Code.ERROR) {
      return failClearingNomination(qp, Status.Code.ERROR, preStatus.message(), now);
    }
    if (preStatus.isRejected()) {
      return postFilterAndFail(qp, fw, state, Map.of(), preStatus.code(), numAll, preStatus.message(), Map.of(),
          preStatus.code() == Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE, pre.rejectors(), Set.of(), now);
    }

    long filterStart = obs == null ? 0 : obs.begin(SchedulerInstruments.FILTER, state, true);
    int found = feasibleNodes.find(fw, state, pod, pre.allowed());
    if (obs != null) {
      obs.end(SchedulerInstruments.FILTER, found < 0 ? Status.Code.ERROR : Status.Code.SUCCESS, fw.schedulerName(),
          filterStart, state, false);
    }
    if (found < 0) {
      return failClearingNomination(qp, Status.Code.ERROR, feasibleNodes.error().message(), now);
    }
    if (found == 0) {
      FeasibleNodes.Rejections why = feasibleNodes.rejections(fw, pre.narrowedBy());
      return postFilterAndFail(qp, fw, state, why.nodeStatuses(), Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE, numAll,
          null, why.reasons(), why.allUnresolvable(), why.rejectors(), why.pending(), now);
    }

    NodeInfo host;
    if (found == 1) {
      host = feasibleNodes.node(0);
    } else {
      long preScoreStart = obs == null ? 0 : obs.begin(SchedulerInstruments.PRE_SCORE, state, true);
      Status s = hostSelection.preScore(fw, state, pod, feasibleNodes);
      if (obs != null) {
        obs.end(SchedulerInstruments.PRE_SCORE, s.isSuccess() ? Status.Code.SUCCESS : Status.Code.ERROR,
            fw.schedulerName(), preScoreStart, state, true);
      }
      if (s.isSuccess()) {
        long scoreStart = obs == null ? 0 : obs.begin(SchedulerInstruments.SCORE, state, true);
        s = hostSelection.score(fw, state, pod, feasibleNodes, found);
        if (obs != null) {
          obs.end(SchedulerInstruments.SCORE, s.isSuccess() ? Status.Code.SUCCESS : Status.Code.ERROR,
              fw.schedulerName(), scoreStart, state, false);
        }
      }
      if (!s.isSuccess()) {
        feasibleNodes.clear();
        return failClearingNomination(qp, Status.Code.ERROR, s.message(), now);
      }
      host = feasibleNodes.node(hostSelection.selectHost(found));
    }
    feasibleNodes.clear();
    if (obs != null && attemptStartNanos >= 0) {
      obs.algorithm(System.nanoTime() - attemptStartNanos);
    }
    return assumeAndBind(qp, fw, state, host.name(), now);
  }

  // ---------------------------------------------------------------------------------------- failure paths

  private ScheduleResult fail(QueuedPod qp, Status.Code code, String message, @Nullable String nominated,
      List<String> victims, Set<String> rejectors, long now) {
    return fail(qp, code, message, nominated, victims, rejectors, Set.of(), now);
  }

  /**
   * Fails an attempt that ends without a FitError PostFilter could act on (no nodes at all, an error at PreFilter,
   * Filter, PreScore or Score) and drops the pod's nomination, as kube's {@code schedulingCycle} answers these with
   * {@code clearNominatedNode} (mode Override, no node): the nominator forgets the pod and the binder clears its
   * {@code status.nominatedNodeName}.
   */
  private ScheduleResult failClearingNomination(QueuedPod qp, Status.Code code, String message, long now) {
    clearNomination(qp);
    return fail(qp, code, message, null, List.of(), Set.of(), now);
  }

  /** Re-queues and reports a failed attempt; {@code pending} are the rejectors that answered PENDING. */
  private ScheduleResult fail(QueuedPod qp, Status.Code code, String message, @Nullable String nominated,
      List<String> victims, Set<String> rejectors, Set<String> pending, long now) {
    queue.requeueAfterFailure(qp, code, message, rejectors, pending, now);
    // The result reports the pod's nomination after this attempt (kube's status.nominatedNodeName): the node this
    // attempt's preemption chose, else the one an earlier attempt chose and this one kept; null once cleared.
    String current = qp.info.pod().status().nominatedNodeName();
    String reported = nominated != null ? nominated : current.isEmpty() ? null : current;
    recordFailure(qp.info.pod(), code, message, reported == null ? "" : reported);
    return emit(new ScheduleResult(qp.key(), null, code, message, reported, victims), qp);
  }

  /**
   * kube's {@code handleSchedulingFailure} writing {@code PodScheduled=False} (reason {@code SchedulerError} for an
   * error, else {@code Unschedulable}; the diagnosis as message) and the nomination through {@code updatePod}: here
   * through the binder ({@link io.fleetkit.api.framework.Binder#schedulingFailed}), which writes only what changed.
   * The nomination passed is the engine's after the attempt (what the result reports, {@code ""} for none), so that
   * the pod's {@code status.nominatedNodeName} follows the nominator: set when preemption nominated a node, cleared
   * when the nomination was dropped (kube writes the same through {@code clearNominatedNode} and
   * {@code ClearNominatedNodeName}), else unchanged.
   */
  private void recordFailure(Pod pod, Status.Code code, String message, String nominated) {
    PodCondition condition = PodCondition.of(PodCondition.POD_SCHEDULED, ConditionStatus.False,
        code == Status.Code.ERROR ? PodCondition.REASON_SCHEDULER_ERROR : PodCondition.REASON_UNSCHEDULABLE, message,
        null);
    try {
      config.binder().schedulingFailed(pod, condition, nominated);
    } catch (RuntimeException e) {
      LOG.warn("recording the scheduling failure of pod {} failed", pod.metadata().key(), e);
    }
  }

  /**
   * Runs PostFilter (preemption) when the profile has it, then fails the pod with kube's FitError. Without PostFilter
   * plugins the pod's nomination is dropped, as kube's {@code schedulingCycle} does; with them it follows PostFilter's
   * answer (a node nominated, cleared when no node can be made to fit, else kept).
   */
  private ScheduleResult postFilterAndFail(QueuedPod qp, Framework fw, ArrayCycleState state,
      Map<String, Status> nodeStatuses, Status.Code absentCode, int numAll, @Nullable String preFilterMsg,
      Map<String, Integer> reasons, boolean allUnresolvable, Set<String> rejectors, Set<String> pending, long now) {
    String postMsg = null;
    String nominated = null;
    List<String> victims = List.of();
    if (fw.hasPostFilters()) {
      long postFilterStart = obs == null ? 0 : obs.begin(SchedulerInstruments.POST_FILTER, state, false);
      Framework.PostFilterOutcome post = fw.runPostFilter(state, () -> qp.info,
          new NodeToStatus(nodeStatuses, absentCode), () -> clearNomination(qp));
      PostFilterResult r = post.success();
      if (obs != null) {
        obs.end(SchedulerInstruments.POST_FILTER, r != null ? Status.Code.SUCCESS : Status.Code.UNSCHEDULABLE,
            fw.schedulerName(), postFilterStart, state, false);
      }
      if (r != null) {
        victims = applyPostFilter(qp, r, now);
        nominated = r.nominatedNodeName();
        if (obs != null) {
          obs.preemptionAttempt(victims.size());
        }
      }
      postMsg = post.message();
    } else {
      clearNomination(qp); // kube: "No PostFilter plugins are registered, so no preemption will be performed"
    }
    String message = Diagnosis.fitError(numAll, preFilterMsg, reasons, postMsg);
    Status.Code code = allUnresolvable && nominated == null
        ? Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE : Status.Code.UNSCHEDULABLE;
    return fail(qp, code, message, nominated, victims, rejectors, pending, now);
  }

  private void clearNomination(QueuedPod qp) {
    Pod p = qp.info.pod();
    nominator.remove(qp.key());
    if (!p.status().nominatedNodeName().isEmpty()) {
      qp.info = qp.info.withPod(p.withStatus(p.status().withNominatedNodeName("")));
      qp.refresh();
    }
  }

  /** Evicts the victims and records the nomination, as kube's {@code prepareCandidate}. */
  private List<String> applyPostFilter(QueuedPod qp, PostFilterResult r, long now) {
    List<String> victims = new ArrayList<>(r.victims().size());
    for (String key : r.victims()) {
      PodInfo victim = cache.podInfo(key);
      QueuedPod vq = queue.remove(key);
      if (vq != null) {
        waiting.drop(key);
      }
      nominator.remove(key);
      cache.removePod(key);
      victims.add(key);
      if (victim != null) {
        if (obs != null) {
          obs.preempted(victim.pod(), qp.info.pod(), r.nominatedNodeName() == null ? "" : r.nominatedNodeName());
        }
        try {
          config.evictor().evict(victim.pod(), qp.info.pod(), r.nominatedNodeName() == null ? ""
              : r.nominatedNodeName());
        } catch (RuntimeException e) {
          LOG.warn("evicting preemption victim {} failed", key, e);
        }
      }
    }
    String node = r.nominatedNodeName();
    if (node != null && !node.isEmpty()) {
      List<PodInfo> others = nominator.forNode(node);
      List<Pod> cleared = null;
      if (others != null) {
        for (PodInfo other : List.copyOf(others)) {
          if (other.priority() < qp.info.priority()) {
            nominator.remove(other.key());
            QueuedPod oq = queue.get(other.key());
            Pod before = oq != null ? oq.info.pod() : other.pod();
            if (oq != null) {
              oq.info = oq.info.withPod(before.withStatus(before.status().withNominatedNodeName("")));
              oq.refresh();
            }
            if (cleared == null) {
              cleared = new ArrayList<>(2);
            }
            cleared.add(before);
          }
        }
      }
      Pod p = qp.info.pod();
      qp.info = qp.info.withPod(p.withStatus(p.status().withNominatedNodeName(node)));
      qp.refresh();
      nominator.addNominated(qp.info, node, handlers::currentPod);
      if (cleared != null) {
        clearNominatedNodeNames(cleared, qp.info.pod(), node);
      }
    }
    if (!victims.isEmpty()) {
      queue.moveAllToActiveOrBackoff(ClusterEvent.ASSIGNED_POD_DELETE, now);
    }
    return victims;
  }

  /**
   * kube's {@code prepareCandidate} clearing the lower-priority pods nominated to {@code node} in the API
   * ({@code util.ClearNominatedNodeName}): hands each to the evictor, after the engine's own bookkeeping, so that
   * the update events a synchronous store delivers find the engine already consistent.
   */
  private void clearNominatedNodeNames(List<Pod> pods, Pod preemptor, String node) {
    for (Pod pod : pods) {
      try {
        config.evictor().clearNominatedNodeName(pod, preemptor, node);
      } catch (RuntimeException e) {
        LOG.warn("clearing the nominated node name of pod {} failed", pod.metadata().key(), e);
      }
    }
  }

  // ---------------------------------------------------------------------------- reserve, permit, binding

  private ScheduleResult assumeAndBind(QueuedPod qp, Framework fw, ArrayCycleState state, String nodeName,
      long now) {
    EnginePodInfo assumed = qp.info.assumedOn(nodeName);
    MDC.put(MDC_NODE, nodeName);
    cache.assume(assumed, nodeName);
    // kube's assume drops the pod's nomination: it now counts on its node as assumed, not (also) as nominated
    nominator.remove(assumed.key());
    long reserveStart = obs == null ? 0 : obs.begin(SchedulerInstruments.RESERVE, state, false,
        fw.runsNothingAt(SchedulerInstruments.RESERVE));
    Status reserved = fw.runReserve(state, assumed, nodeName);
    if (obs != null) {
      obs.end(SchedulerInstruments.RESERVE, reserved.code(), fw.schedulerName(), reserveStart,
          state, false);
    }
    if (!reserved.isSuccess()) {
      return undo(qp, fw, state, assumed, nodeName, reserved, true, now);
    }
    long permitStart = obs == null ? 0 : obs.begin(SchedulerInstruments.PERMIT, state, true,
        fw.runsNothingAt(SchedulerInstruments.PERMIT));
    Framework.PermitOutcome permit = fw.runPermit(state, assumed, nodeName, now);
    if (obs != null) {
      obs.end(SchedulerInstruments.PERMIT, permit.status().code(), fw.schedulerName(), permitStart,
          state, false);
    }
    if (permit.status().isWait()) {
      queue.markWaiting(qp);
      waiting.add(new WaitingPodsImpl.WaitingPod(qp, fw, state, assumed, nodeName, permit.deadlines(), now));
      return emit(new ScheduleResult(qp.key(), nodeName, Status.Code.WAIT,
          "waiting on permit plugin(s) " + Diagnosis.goList(permit.deadlines().keySet()), null, List.of()), qp);
    }
    if (!permit.status().isSuccess()) {
      return undo(qp, fw, state, assumed, nodeName, permit.status(), true, now);
    }
    return bind(qp, fw, state, assumed, nodeName, now);
  }

  private ScheduleResult bind(QueuedPod qp, Framework fw, ArrayCycleState state, EnginePodInfo assumed,
      String nodeName, long now) {
    if (bindings.isAsync()) {
      return bindAsync(qp, fw, state, assumed, nodeName);
    }
    long preBindStart = obs == null ? 0 : obs.begin(SchedulerInstruments.PRE_BIND, state, true,
        fw.runsNothingAt(SchedulerInstruments.PRE_BIND));
    Status preBound = fw.runPreBind(state, assumed, nodeName);
    if (obs != null) {
      obs.end(SchedulerInstruments.PRE_BIND, preBound.code(), fw.schedulerName(), preBindStart,
          state, false);
    }
    if (!preBound.isSuccess()) {
      return undo(qp, fw, state, assumed, nodeName, preBound, false, now);
    }
    long bindStart = obs == null ? 0 : obs.begin(SchedulerInstruments.BIND, state, true);
    Status bound = fw.runBind(state, assumed, nodeName);
    if (bound.isSkip()) {
      if (fw.bindsThroughBinder()) {
        try {
          bound = config.binder().bind(qp.info.pod(), nodeName);
        } catch (RuntimeException e) {
          bound = Status.error("binder failed: " + e);
        }
      } else {
        bound = fw.everyBindSkipped();
      }
    }
    if (obs != null) {
      obs.end(SchedulerInstruments.BIND, bound.code(), fw.schedulerName(), bindStart, state, false);
    }
    if (!bound.isSuccess()) {
      Status err = bound.code() == Status.Code.ERROR ? bound
          : new Status(Status.Code.ERROR, List.of("binding rejected: " + bound.message()), bound.plugin());
      return undo(qp, fw, state, assumed, nodeName, err, false, now);
    }
    return bound(qp, fw, state, assumed, nodeName, now);
  }

  /** Binding succeeded: the assumed pod's binding is finished in the cache, it leaves the queue, PostBind runs. */
  private ScheduleResult bound(QueuedPod qp, Framework fw, ArrayCycleState state, EnginePodInfo assumed,
      String nodeName, long now) {
    cache.finishBinding(assumed.key(), now);
    queue.done(qp);
    nominator.remove(assumed.key());
    long postBindStart = obs == null ? 0 : obs.begin(SchedulerInstruments.POST_BIND, state, false,
        fw.runsNothingAt(SchedulerInstruments.POST_BIND));
    fw.runPostBind(state, assumed, nodeName);
    if (obs != null) {
      obs.end(SchedulerInstruments.POST_BIND, Status.Code.SUCCESS, fw.schedulerName(), postBindStart,
          state, false);
    }
    return emit(ScheduleResult.bound(assumed.key(), nodeName), qp);
  }

  /**
   * kube's asynchronous binding cycle: PreBind and Bind run on a binding thread (they read only the pod, the node
   * name and the cycle state, which nothing else touches once the pod is assumed); the outcome is applied under the
   * engine lock, where a success finishes the binding and runs PostBind, and a failure unreserves, forgets the assumed
   * pod and re-queues it. Meanwhile the pod counts on its node as assumed, so the next cycles see its resources taken.
   *
   * @return a {@link Status.Code#WAIT} result naming the node (not emitted: the final result is, when it comes)
   */
  private ScheduleResult bindAsync(QueuedPod qp, Framework fw, ArrayCycleState state, EnginePodInfo assumed,
      String nodeName) {
    Pod pod = qp.info.pod();
    long[] bindNanos = {-1, -1};
    Status.Code[] preBindCode = {Status.Code.SUCCESS};
    bindings.start(assumed.key(), () -> {
      long preStart = System.nanoTime();
      Status preBound = fw.runPreBind(state, assumed, nodeName);
      bindNanos[1] = System.nanoTime() - preStart;
      preBindCode[0] = preBound.code();
      if (!preBound.isSuccess()) {
        return preBound;
      }
      long start = System.nanoTime();
      Status bound = fw.runBind(state, assumed, nodeName);
      if (bound.isSkip()) {
        bound = fw.bindsThroughBinder() ? config.binder().bind(pod, nodeName) : fw.everyBindSkipped();
      }
      bindNanos[0] = System.nanoTime() - start;
      return bound.isSuccess() || bound.code() == Status.Code.ERROR ? bound
          : new Status(Status.Code.ERROR, List.of("binding rejected: " + bound.message()), bound.plugin());
    }, outcome -> {
      long now = nanos.getAsLong();
      if (obs != null && state.recordPluginMetrics && bindNanos[1] >= 0) {
        obs.extensionPoint(SchedulerInstruments.PRE_BIND, preBindCode[0], fw.schedulerName(), bindNanos[1]);
      }
      if (obs != null && state.recordPluginMetrics && bindNanos[0] >= 0) {
        obs.extensionPoint(SchedulerInstruments.BIND, outcome.code(), fw.schedulerName(), bindNanos[0]);
      }
      if (outcome.isSuccess()) {
        bound(qp, fw, state, assumed, nodeName, now);
      } else {
        undo(qp, fw, state, assumed, nodeName, outcome, false, now);
      }
    });
    return new ScheduleResult(qp.key(), nodeName, Status.Code.WAIT, "assumed on node " + nodeName
        + "; binding in progress", null, List.of());
  }

  /** Runs Unreserve, timed as an extension point (kube records it with status Success). */
  private void unreserve(Framework fw, ArrayCycleState state, EnginePodInfo assumed, String nodeName) {
    long start = obs == null ? 0 : obs.begin(SchedulerInstruments.UNRESERVE, state, false,
        fw.runsNothingAt(SchedulerInstruments.UNRESERVE));
    fw.runUnreserve(state, assumed, nodeName);
    if (obs != null) {
      obs.end(SchedulerInstruments.UNRESERVE, Status.Code.SUCCESS, fw.schedulerName(), start,
          state, false);
    }
  }

  /**
   * Unreserves (every Reserve plugin, in reverse order), forgets the assumed pod, clears its nomination (kube's
   * {@code clearNominatedNode}) and re-queues it; after a binding-cycle failure (a Permit wait, PreBind, Bind) the
   * parked pods are moved as for an assigned pod's deletion. A rejection in the scheduling cycle is worded as kube's
   * FitError for one node; binding-cycle failures keep their message.
   */
  private ScheduleResult undo(QueuedPod qp, Framework fw, ArrayCycleState state, EnginePodInfo assumed,
      String nodeName, Status why, boolean schedulingCycle, long now) {
    unreserve(fw, state, assumed, nodeName);
    cache.forget(assumed.key());
    clearNomination(qp); // kube's clearNominatedNode for Reserve, Permit and binding failures
    if (!schedulingCycle) {
      // kube's handleBindingCycleError: forgetting a pod assumed across cycles is a PodDelete for the pods other
      // cycles rejected meanwhile. Within its own cycle no other pod saw it, and kube moves nothing.
      queue.moveAllToActiveOrBackoff(ClusterEvent.ASSIGNED_POD_DELETE, now);
    }
    String message = why.code() == Status.Code.ERROR || !schedulingCycle
        ? why.message()
        : Diagnosis.fitError(1, null, Diagnosis.reasonCounts(why), null);
    Status.Code code = why.isRejected() ? Status.Code.UNSCHEDULABLE : Status.Code.ERROR;
    Set<String> rejectors = why.plugin() == null ? Set.of() : Set.of(why.plugin());
    return fail(qp, code, message, null, List.of(), rejectors,
        why.code() == Status.Code.PENDING ? rejectors : Set.of(), now);
  }
}
