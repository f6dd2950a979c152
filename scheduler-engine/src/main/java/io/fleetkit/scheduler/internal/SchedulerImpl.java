package io.fleetkit.scheduler.internal;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.events.EventRecorder;
import io.fleetkit.api.metrics.MetricsRegistry;
import io.fleetkit.api.tracing.Tracing;
import io.fleetkit.api.scheduler.ClusterEvent;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.scheduler.NodeInfo;
import io.fleetkit.api.scheduler.NodeInfos;
import io.fleetkit.api.scheduler.NodeToStatus;
import io.fleetkit.api.scheduler.PermitResult;
import io.fleetkit.api.scheduler.PodInfo;
import io.fleetkit.api.scheduler.PostFilterResult;
import io.fleetkit.api.scheduler.PreFilterResult;
import io.fleetkit.api.scheduler.ScorePlugin;
import io.fleetkit.api.scheduler.Status;
import io.fleetkit.api.scheduler.WaitingPods;
import io.fleetkit.api.scheduling.PriorityClass;
import io.fleetkit.scheduler.PendingPod;
import io.fleetkit.scheduler.ScheduleResult;
import io.fleetkit.scheduler.Scheduler;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.RandomAccess;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * The scheduler: queue, cache, snapshot and the scheduling cycle of kube-scheduler's {@code schedule_one.go}. All
 * state is guarded by this object's monitor; Filter and Score fan out to the {@link ParallelRunner}.
 */
public final class SchedulerImpl implements Scheduler {
  private static final Logger LOG = LoggerFactory.getLogger(SchedulerImpl.class);
  /** The MDC key holding the pod ({@code namespace/name}) of the running scheduling attempt. */
  public static final String MDC_POD = "pod";
  /** kube's {@code maxTimeout} for Permit waits. */
  private static final long MAX_PERMIT_WAIT_NANOS = Duration.ofMinutes(15).toNanos();
  /**
   * Below this many node×plugin evaluations a cycle filters or scores on the calling thread alone (a hand-off to the
   * pool costs about as much as 500 cheap evaluations).
   */
  private static volatile int inlineWork = 512;
  private static final int ATTRIBUTED = Integer.MAX_VALUE;

  private final SchedulerConfig config;
  private final Clock clock;
  private final LongSupplier nanos;
  private final Map<String, Framework> frameworks = new LinkedHashMap<>();
  /** Whether any profile has a plugin that waits for new unscheduled pods (Coscheduling does). */
  private final boolean unscheduledPodAddRegistered;
  private final SchedulerCache cache;
  private final ClusterSnapshot snapshot = new ClusterSnapshot();
  private final SchedulingQueue queue;
  private final ClusterObjects objects = new ClusterObjects();
  private final Nominator nominator = new Nominator();
  private final WaitingPodsImpl waiting = new WaitingPodsImpl();
  private final ParallelRunner runner;
  private final SplittableRandom random;
  private long nextStartNodeIndex;
  private boolean closed;
  private boolean inCycle;
  private @Nullable List<ScheduleResult> collector;

  // Buffers reused across cycles (only the scheduling thread touches them outside Filter/Score).
  private NodeInfo[] candidates = new NodeInfo[0];
  private Status[] statuses = new Status[0];
  private int[] failedPlugin = new int[0];
  private NodeInfo[] feasible = new NodeInfo[0];
  private final FeasibleList feasibleList = new FeasibleList();
  private long[][] scoreBufs = new long[0][];
  private long[] totals = new long[0];
  private final AtomicInteger feasibleFound = new AtomicInteger();
  /** Metrics and events; {@code null} when neither was asked for, and every hook below is skipped. */
  private final @Nullable SchedulerInstruments obs;
  /** {@link System#nanoTime()} at the start of the running attempt; -1 outside one. */
  private long attemptStartNanos = -1;

  public SchedulerImpl(SchedulerConfig config) {
    this(config, MetricsRegistry.NOOP, EventRecorder.NOOP, Tracing.NOOP);
  }

  /**
   * A scheduler that records kube-scheduler's metrics into {@code metrics}, its events into {@code events} and a
   * span per scheduling attempt into {@code tracing}.
   */
  public SchedulerImpl(SchedulerConfig config, MetricsRegistry metrics, EventRecorder events, Tracing tracing) {
    this.obs = SchedulerInstruments.of(metrics, events, tracing);
    this.config = config;
    if (config.clock() != null) {
      Clock c = config.clock();
      this.clock = c;
      this.nanos = () -> {
        Instant i = c.instant();
        return i.getEpochSecond() * 1_000_000_000L + i.getNano();
      };
    } else if (config.ticker() != null) {
      LongSupplier t = config.ticker();
      this.nanos = t;
      this.clock = new TickerClock(t);
    } else {
      this.clock = Clock.systemUTC();
      this.nanos = System::nanoTime;
    }
    this.cache = new SchedulerCache(config.assumedPodTtl().toNanos());
    for (var profile : config.profiles()) {
      Framework fw = new Framework(profile, config.registry(), clock, snapshot, waiting, objects);
      frameworks.put(profile.schedulerName(), fw);
    }
    Framework first = frameworks.values().iterator().next();
    for (Framework fw : frameworks.values()) {
      if (!fw.queueSortName.equals(first.queueSortName)) {
        throw new IllegalArgumentException("profile " + fw.schedulerName + ": QueueSort plugin " + fw.queueSortName
            + " differs from profile " + first.schedulerName + "'s " + first.queueSortName
            + "; all profiles must use the same QueueSort");
      }
    }
    this.unscheduledPodAddRegistered = frameworks.values().stream()
        .anyMatch(fw -> fw.registers(ClusterEvent.UNSCHEDULED_POD_ADD));
    this.queue = new SchedulingQueue(first.queueSort, config.initialBackoff().toNanos(),
        config.maxBackoff().toNanos(), config.maxInUnschedulable().toNanos());
    this.queue.observe(obs);
    this.runner = new ParallelRunner(config.parallelism());
    this.random = new SplittableRandom(config.seed());
    this.nextStartNodeIndex = random.nextLong() & Long.MAX_VALUE;
  }

  // ------------------------------------------------------------------------------------------ cluster events

  @Override
  public synchronized void addNode(Node node) {
    if (cache.hasNode(node.name())) {
      throw new IllegalArgumentException("scheduler: node " + node.name() + " already exists; use updateNode");
    }
    cache.putNode(node);
    queue.moveAllToActiveOrBackoff(ClusterEvent.NODE_ADD, nanos.getAsLong());
  }

  @Override
  public synchronized void updateNode(Node node) {
    ClusterEvent event = cache.hasNode(node.name()) ? ClusterEvent.NODE_UPDATE : ClusterEvent.NODE_ADD;
    cache.putNode(node);
    queue.moveAllToActiveOrBackoff(event, nanos.getAsLong());
  }

  @Override
  public synchronized void removeNode(String nodeName) {
    cache.removeNode(nodeName);
  }

  @Override
  public synchronized void addPod(Pod pod) {
    putPod(pod);
  }

  @Override
  public synchronized void updatePod(Pod pod) {
    putPod(pod);
  }

  private void putPod(Pod raw) {
    Pod pod = resolvePriority(raw);
    String key = pod.metadata().key();
    long now = nanos.getAsLong();
    if (pod.isBound()) {
      if (pod.isTerminal()) {
        deletePod(key, now);
        return;
      }
      if (queue.remove(key) != null) {
        waiting.drop(key); // bound by someone else while Permit held it
      }
      nominator.remove(key);
      PodInfo before = cache.podInfo(key);
      cache.addOrUpdateBoundPod(EnginePodInfo.of(pod));
      ClusterEvent event = null;
      if (before == null) {
        event = ClusterEvent.ASSIGNED_POD_ADD;
      } else if (!before.pod().spec().nodeName().equals(pod.spec().nodeName())
          || !before.pod().metadata().labels().equals(pod.metadata().labels())) {
        event = ClusterEvent.ASSIGNED_POD_UPDATE;
      } // else: our own binding confirmed, nothing changed for other pods
      if (event != null) {
        queue.moveAllToActiveOrBackoff(event, now);
      }
      return;
    }
    if (cache.hasPod(key)) {
      if (cache.isAssumed(key)) {
        return; // our binding is in flight; the bound object will follow
      }
      cache.removePod(key); // it was bound and is pending again
    }
    Framework fw = frameworks.get(pod.spec().schedulerName());
    if (fw == null || pod.isTerminal()) {
      LOG.debug("pod {} is for scheduler {}, not ours; ignored", key, pod.spec().schedulerName());
      queue.remove(key);
      return;
    }
    EnginePodInfo info = EnginePodInfo.of(pod);
    QueuedPod qp = queue.get(key);
    if (qp == null) {
      queue.add(new QueuedPod(info, fw, now));
      if (unscheduledPodAddRegistered) {
        queue.moveAllToActiveOrBackoff(ClusterEvent.UNSCHEDULED_POD_ADD, now);
      }
    } else {
      queue.update(qp, info, now);
    }
    String nominated = pod.status().nominatedNodeName();
    if (!nominated.isEmpty()) {
      nominator.add(info, nominated);
    } else {
      nominator.remove(key);
    }
  }

  @Override
  public synchronized void removePod(String podKey) {
    deletePod(podKey, nanos.getAsLong());
  }

  private void deletePod(String key, long now) {
    QueuedPod qp = queue.remove(key);
    if (qp != null) {
      waiting.drop(key);
    }
    nominator.remove(key);
    if (cache.removePod(key) != null) {
      queue.moveAllToActiveOrBackoff(ClusterEvent.ASSIGNED_POD_DELETE, now);
    }
  }

  @Override
  public synchronized void addObject(Object object) {
    objects.put(object);
    onObjectEvent(object);
  }

  @Override
  public synchronized void removeObject(Object object) {
    if (objects.remove(object)) {
      onObjectEvent(object);
    }
  }

  private void onObjectEvent(Object object) {
    ClusterEvent event = switch (object.getClass().getSimpleName()) {
      case "PriorityClass", "PodDisruptionBudget" -> null;
      case "PersistentVolume", "PersistentVolumeClaim", "StorageClass", "CSINode", "CSIDriver",
          "CSIStorageCapacity", "VolumeAttachment" -> ClusterEvent.STORAGE;
      default -> ClusterEvent.OTHER;
    };
    if (event != null) {
      queue.moveAllToActiveOrBackoff(event, nanos.getAsLong());
    }
  }

  private Pod resolvePriority(Pod pod) {
    if (pod.spec().priority() != null) {
      return pod;
    }
    String className = pod.spec().priorityClassName();
    PriorityClass found = null;
    for (PriorityClass pc : objects.list(PriorityClass.class)) {
      if (className.isEmpty() ? pc.globalDefault() : pc.metadata().name().equals(className)) {
        found = pc;
        break;
      }
    }
    if (found == null) {
      if (!className.isEmpty()) {
        LOG.debug("pod {}: priority class {} not found; priority 0", pod.metadata().key(), className);
      }
      return pod;
    }
    return pod.withSpec(pod.spec().withPriority(found.value()));
  }

  // ------------------------------------------------------------------------------------------- introspection

  @Override
  public synchronized List<PendingPod> pending() {
    return queue.pending();
  }

  @Override
  public synchronized Optional<String> nodeOf(String podKey) {
    return Optional.ofNullable(cache.nodeOf(podKey));
  }

  @Override
  public synchronized Optional<NodeInfo> nodeInfo(String nodeName) {
    return Optional.ofNullable(cache.nodeInfo(nodeName));
  }

  @Override
  public WaitingPods waitingPods() {
    return waiting;
  }

  /**
   * Sets how much work a cycle does on the calling thread before fanning out; tests set 0 to exercise the parallel
   * path on small clusters. Not part of the public contract.
   */
  public static void setInlineWork(int evaluations) {
    inlineWork = evaluations;
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
  public synchronized @Nullable ScheduleResult scheduleOne() {
    checkOpen();
    long now = nanos.getAsLong();
    housekeeping(now);
    QueuedPod qp = queue.pop(now);
    if (qp == null) {
      return null;
    }
    inCycle = true;
    attemptStartNanos = obs == null ? -1 : obs.attemptStart(qp.info.pod(), qp.framework.schedulerName, qp.attempts);
    MDC.put(MDC_POD, qp.key());
    ScheduleResult r;
    try {
      r = cycle(qp, now);
    } finally {
      inCycle = false;
      attemptStartNanos = -1;
      MDC.remove(MDC_POD);
      if (obs != null) {
        obs.attemptDone();
      }
    }
    if (obs != null) {
      obs.pending(queue);
      obs.cacheSize(cache.nodeCount(), cache.podCount(), cache.assumedCount());
    }
    waiting.processReady();
    return r;
  }

  @Override
  public synchronized List<ScheduleResult> runUntilIdle() {
    checkOpen();
    List<ScheduleResult> out = new ArrayList<>();
    List<ScheduleResult> outer = collector;
    collector = out;
    try {
      while (scheduleOne() != null) {
        // results are collected by emit()
      }
    } finally {
      collector = outer;
    }
    if (outer != null) {
      outer.addAll(out);
    }
    return out;
  }

  private void checkOpen() {
    if (closed) {
      throw new IllegalStateException("scheduler is closed");
    }
  }

  private void housekeeping(long now) {
    for (String key : cache.cleanupExpired(now)) {
      LOG.debug("assumed pod {} expired before its binding was observed; forgotten", key);
    }
    waiting.expire(now);
    waiting.processReady();
    queue.flushUnschedulableLeftover(now);
  }

  private ScheduleResult emit(ScheduleResult r, QueuedPod qp) {
    if (obs != null) {
      obs.result(r, qp.info.pod(), qp.framework.schedulerName, qp.attempts,
          attemptStartNanos < 0 ? -1 : System.nanoTime() - attemptStartNanos,
          nanos.getAsLong() - qp.initialAttemptNanos, qp.rejectors);
    }
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

  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    waiting.rejectAll("scheduler closed");
    runner.close();
  }

  // ------------------------------------------------------------------------------------------------- cycle

  private ScheduleResult cycle(QueuedPod qp, long now) {
    Framework fw = qp.framework;
    EnginePodInfo pod = qp.info;
    cache.updateSnapshot(snapshot);
    int numAll = snapshot.size();
    if (numAll == 0) {
      return fail(qp, Status.Code.UNSCHEDULABLE, Diagnosis.NO_NODES_AVAILABLE, null, List.of(), now);
    }
    ArrayCycleState state = new ArrayCycleState();

    // PreFilter
    Set<String> allowed = null;
    List<String> narrowedBy = null;
    Status preFilterReject = null;
    int preFilterRejectIndex = -1;
    long preFilterStart = obs == null ? 0 : obs.begin("PreFilter");
    for (int i = 0; i < fw.preFilter.length; i++) {
      PreFilterResult r;
      try {
        r = fw.preFilter[i].preFilter(state, pod, snapshot);
      } catch (RuntimeException e) {
        return fail(qp, Status.Code.ERROR, Framework.errorStatus(fw.preFilterNames[i], "PreFilter", e).message(),
            null, List.of(), now);
      }
      Status s = r.status();
      if (s.isSkip()) {
        int fi = fw.preFilterToFilter[i];
        if (fi >= 0) {
          if (state.skipFilter == null) {
            state.skipFilter = new boolean[fw.filter.length];
          }
          state.skipFilter[fi] = true;
        }
        continue;
      }
      if (s.isRejected()) {
        preFilterReject = s.withPlugin(fw.preFilterNames[i]);
        preFilterRejectIndex = i;
        break;
      }
      if (!s.isSuccess()) {
        return fail(qp, Status.Code.ERROR, nonEmpty(s.message(), "PreFilter plugin " + fw.preFilterNames[i]
            + " returned " + s.code()), null, List.of(), now);
      }
      if (r.nodeNames() != null) {
        if (narrowedBy == null) {
          narrowedBy = new ArrayList<>(2);
        }
        narrowedBy.add(fw.preFilterNames[i]);
        if (allowed == null) {
          allowed = new HashSet<>(r.nodeNames());
        } else {
          allowed.retainAll(r.nodeNames());
        }
        if (allowed.isEmpty()) {
          String msg = narrowedBy.size() == 1
              ? "node(s) didn't satisfy plugin " + narrowedBy.get(0)
              : "node(s) didn't satisfy plugin(s) " + goList(narrowedBy) + " simultaneously";
          preFilterReject = Status.unresolvable(msg).withPlugin(fw.preFilterNames[i]);
          break;
        }
      }
    }
    if (obs != null) {
      obs.end("PreFilter", preFilterReject == null ? Status.Code.SUCCESS : preFilterReject.code(), fw.schedulerName,
          preFilterStart);
    }
    if (preFilterReject != null) {
      Set<String> rejectors = narrowedBy != null && allowed != null && allowed.isEmpty()
          ? Set.copyOf(narrowedBy) : Set.of(fw.preFilterNames[preFilterRejectIndex]);
      return postFilterAndFail(qp, fw, state, Map.of(), preFilterReject.code(), numAll, preFilterReject.message(),
          Map.of(), preFilterReject.code() == Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE, rejectors, now);
    }

    // Filter over a rotating sample
    int n;
    NodeInfo[] cand;
    if (allowed == null) {
      cand = snapshot.nodes;
      n = numAll;
    } else {
      int[] idx = new int[allowed.size()];
      int m = 0;
      for (String name : allowed) {
        int i = snapshot.indexOf(name);
        if (i >= 0) {
          idx[m++] = i;
        }
      }
      Arrays.sort(idx, 0, m);
      ensureCandidates(m);
      for (int i = 0; i < m; i++) {
        candidates[i] = snapshot.nodes[idx[i]];
      }
      cand = candidates;
      n = m;
    }
    ensureFilterBuffers(n);
    int toFind = Diagnosis.numFeasibleNodesToFind(fw.percentageOfNodesToScore, n);
    int start = n == 0 ? 0 : (int) (nextStartNodeIndex % n);
    long filterStart = obs == null ? 0 : obs.begin("Filter");
    int processed = runFilters(fw, state, pod, cand, n, start, toFind);
    if (obs != null) {
      obs.end("Filter", Status.Code.SUCCESS, fw.schedulerName, filterStart);
    }
    int found = 0;
    int cutoff = processed;
    for (int pos = 0; pos < processed; pos++) {
      if (failedPlugin[pos] < 0) {
        int idx = start + pos;
        feasible[found++] = cand[idx >= n ? idx - n : idx];
        if (found == toFind) {
          cutoff = pos + 1;
          break;
        }
      }
    }
    for (int pos = 0; pos < cutoff; pos++) {
      if (failedPlugin[pos] >= 0 && statuses[pos].code() == Status.Code.ERROR) {
        return fail(qp, Status.Code.ERROR, attributed(fw, pos).message(), null, List.of(), now);
      }
    }
    nextStartNodeIndex = (nextStartNodeIndex + cutoff) % numAll;

    if (found == 0) {
      Map<String, Integer> reasons = new HashMap<>();
      Map<String, Status> nodeStatuses = fw.postFilter.length == 0 ? null : new HashMap<>(cutoff * 2);
      Set<String> rejectors = new HashSet<>(4);
      if (narrowedBy != null) {
        rejectors.addAll(narrowedBy);
      }
      boolean allUnresolvable = true;
      for (int pos = 0; pos < cutoff; pos++) {
        Status s = attributed(fw, pos);
        if (s.plugin() != null) {
          rejectors.add(s.plugin());
        }
        for (String reason : s.reasons()) {
          reasons.merge(reason, 1, Integer::sum);
        }
        if (s.code() != Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE) {
          allUnresolvable = false;
        }
        if (nodeStatuses != null) {
          int idx = start + pos;
          nodeStatuses.put(cand[idx >= n ? idx - n : idx].name(), s);
        }
      }
      if (narrowedBy != null && numAll > n) {
        reasons.merge("node(s) didn't satisfy plugin(s) " + goList(new TreeSet<>(narrowedBy)), numAll - n,
            Integer::sum);
      }
      return postFilterAndFail(qp, fw, state, nodeStatuses == null ? Map.of() : nodeStatuses,
          Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE, numAll, null, reasons, allUnresolvable, Set.copyOf(rejectors),
          now);
    }

    // Score
    NodeInfo host;
    if (found == 1) {
      host = feasible[0];
    } else {
      long t = obs == null ? 0 : obs.begin("Score");
      int sel = score(fw, state, pod, found);
      if (obs != null) {
        obs.end("Score", sel < 0 ? Status.Code.ERROR : Status.Code.SUCCESS, fw.schedulerName, t);
      }
      if (sel < 0) {
        return fail(qp, Status.Code.ERROR, scoreError.get().message(), null, List.of(), now);
      }
      host = feasible[sel];
    }
    Arrays.fill(feasible, 0, found, null);
    if (obs != null && attemptStartNanos >= 0) {
      obs.algorithm(System.nanoTime() - attemptStartNanos);
    }
    return assumeAndBind(qp, fw, state, host.name(), now);
  }

  private Status attributed(Framework fw, int pos) {
    int p = failedPlugin[pos];
    Status s = statuses[pos];
    return p == ATTRIBUTED || p < 0 ? s : s.withPlugin(fw.filterNames[p]);
  }

  private void ensureCandidates(int m) {
    if (candidates.length < m) {
      candidates = new NodeInfo[Math.max(m, candidates.length * 2)];
    }
  }

  private void ensureFilterBuffers(int n) {
    if (statuses.length < n) {
      int len = Math.max(n, statuses.length * 2);
      statuses = new Status[len];
      failedPlugin = new int[len];
      feasible = new NodeInfo[len];
    }
  }

  /** Runs Filter from {@code start}, wrapping, until {@code toFind} nodes fit; returns the nodes examined. */
  private int runFilters(Framework fw, ArrayCycleState state, PodInfo pod, NodeInfo[] cand, int n, int start,
      int toFind) {
    if (n == 0) {
      return 0;
    }
    boolean[] skip = state.skipFilter;
    Status[] st = statuses;
    int[] failed = failedPlugin;
    boolean nominated = !nominator.isEmpty();
    if (fw.filter.length == 0 && !nominated) {
      int k = Math.min(n, toFind);
      Arrays.fill(failed, 0, k, -1);
      return k;
    }
    feasibleFound.set(0);
    int work = Math.max(1, fw.filter.length) * Math.min(n, Math.max(toFind, 1));
    int chunk = work <= inlineWork || runner.parallelism() == 1
        ? Math.max(toFind, 64)
        : Math.max(16, Math.min(toFind, n) / (runner.parallelism() * 2));
    ParallelRunner.Job[] self = new ParallelRunner.Job[1];
    ParallelRunner.Job job = ParallelRunner.job(n, chunk, (from, to) -> {
      int local = 0;
      int touched = 0;
      for (int pos = from; pos < to; pos++) {
        int idx = start + pos;
        NodeInfo node = cand[idx >= n ? idx - n : idx];
        int ahead = idx + PREFETCH_DISTANCE;
        if (pos + PREFETCH_DISTANCE < to) {
          touched += touch(cand[ahead >= n ? ahead - n : ahead]);
        }
        int r = nominated
            ? filterWithNominated(fw, state, skip, pod, node, st, pos)
            : fw.filterNode(state, skip, pod, node, st, pos);
        failed[pos] = r;
        if (r < 0) {
          local++;
        }
      }
      prefetchSink = touched;
      if (local > 0 && feasibleFound.addAndGet(local) >= toFind) {
        self[0].stop();
      }
    });
    self[0] = job;
    runner.run(job);
    return job.processed();
  }

  /**
   * How many nodes ahead Filter and Score read a node's hot fields. The nodes' views are scattered over the heap and
   * at thousands of nodes per cycle each first touch is a cache miss; reading the next nodes' fields early lets the
   * CPU overlap those misses with the current node's plugin calls (Java has no prefetch instruction).
   */
  private static final int PREFETCH_DISTANCE = 4;
  /** Written with the touched values so the JIT keeps the early reads; never read. */
  @SuppressWarnings("unused")
  private static int prefetchSink;

  private static int touch(NodeInfo node) {
    return node.podCount() + (int) node.requestedMilliCpu();
  }

  private int filterWithNominated(Framework fw, ArrayCycleState state, boolean @Nullable [] skip, PodInfo pod,
      NodeInfo node, Status[] st, int pos) {
    List<PodInfo> noms = nominator.forNode(node.name());
    List<PodInfo> added = null;
    if (noms != null) {
      for (PodInfo np : noms) {
        if (np.priority() >= pod.priority() && !np.key().equals(pod.key())) {
          if (added == null) {
            added = new ArrayList<>(2);
          }
          added.add(np);
        }
      }
    }
    if (added == null) {
      return fw.filterNode(state, skip, pod, node, st, pos);
    }
    List<PodInfo> all = new ArrayList<>(node.pods());
    all.addAll(added);
    NodeInfo withNominated = NodeInfos.of(node.node(), all);
    ArrayCycleState copy = (ArrayCycleState) state.copy();
    for (PodInfo np : added) {
      Status s = fw.runPreFilterExtensionAddPod(copy, pod, np, withNominated);
      if (!s.isSuccess()) {
        st[pos] = s;
        return ATTRIBUTED;
      }
    }
    int r = fw.filterNode(copy, skip, pod, withNominated, st, pos);
    if (r >= 0) {
      return r;
    }
    return fw.filterNode(state, skip, pod, node, st, pos);
  }

  private final AtomicReference<Status> scoreError = new AtomicReference<>();

  /** PreScore, Score, NormalizeScore, weights, selectHost; returns the chosen index or -1 on error. */
  private int score(Framework fw, ArrayCycleState state, PodInfo pod, int k) {
    feasibleList.size = k;
    feasibleList.items = feasible;
    scoreError.set(null);
    for (int i = 0; i < fw.preScore.length; i++) {
      Status s;
      try {
        s = fw.preScore[i].preScore(state, pod, feasibleList);
      } catch (RuntimeException e) {
        s = Framework.errorStatus(fw.preScoreNames[i], "PreScore", e);
      }
      if (s.isSkip()) {
        int si = fw.preScoreToScore[i];
        if (si >= 0) {
          if (state.skipScore == null) {
            state.skipScore = new boolean[fw.score.length];
          }
          state.skipScore[si] = true;
        }
      } else if (!s.isSuccess()) {
        scoreError.set(s.code() == Status.Code.ERROR ? s.withPlugin(fw.preScoreNames[i])
            : Status.error("PreScore plugin " + fw.preScoreNames[i] + ": " + s.message()));
        return -1;
      }
    }
    ScorePlugin[] plugins = fw.score;
    boolean[] skip = state.skipScore;
    if (scoreBufs.length < plugins.length) {
      scoreBufs = Arrays.copyOf(scoreBufs, plugins.length);
    }
    int active = 0;
    for (int j = 0; j < plugins.length; j++) {
      if (skip != null && skip[j]) {
        continue;
      }
      active++;
      if (scoreBufs[j] == null || scoreBufs[j].length != k) {
        scoreBufs[j] = new long[k];
      }
    }
    if (totals.length < k) {
      totals = new long[Math.max(k, totals.length * 2)];
    }
    Arrays.fill(totals, 0, k, 0L);
    if (active > 0) {
      long[][] bufs = scoreBufs;
      NodeInfo[] nodes = feasible;
      int chunk = k * active <= inlineWork || runner.parallelism() == 1
          ? k : Math.max(16, k / (runner.parallelism() * 2));
      runner.run(k, chunk, (from, to) -> {
        int touched = 0;
        for (int pos = from; pos < to; pos++) {
          NodeInfo node = nodes[pos];
          if (pos + PREFETCH_DISTANCE < to) {
            touched += touch(nodes[pos + PREFETCH_DISTANCE]);
          }
          for (int j = 0; j < plugins.length; j++) {
            if (skip != null && skip[j]) {
              continue;
            }
            try {
              bufs[j][pos] = plugins[j].score(state, pod, node);
            } catch (RuntimeException e) {
              scoreError.compareAndSet(null, Framework.errorStatus(fw.scoreNames[j], "Score", e));
              bufs[j][pos] = 0;
            }
          }
        }
        prefetchSink = touched;
      });
      if (scoreError.get() != null) {
        return -1;
      }
      for (int j = 0; j < plugins.length; j++) {
        if (skip != null && skip[j]) {
          continue;
        }
        long[] s = bufs[j];
        try {
          plugins[j].normalizeScores(state, pod, feasibleList, s);
        } catch (RuntimeException e) {
          scoreError.set(Framework.errorStatus(fw.scoreNames[j], "NormalizeScore", e));
          return -1;
        }
        long w = fw.scoreWeights[j];
        for (int pos = 0; pos < k; pos++) {
          long v = s[pos];
          if (v < ScorePlugin.MIN_NODE_SCORE || v > ScorePlugin.MAX_NODE_SCORE) {
            scoreError.set(Status.error("plugin " + fw.scoreNames[j] + " returns an invalid score " + v
                + " for node " + nodes[pos].name() + "; it should be in the range [0, 100] after normalizing")
                .withPlugin(fw.scoreNames[j]));
            return -1;
          }
          totals[pos] += v * w;
        }
      }
    }
    return selectHost(k);
  }

  /**
   * The highest total; ties broken uniformly at random with the seeded generator, as kube's {@code selectHost} (which
   * samples a reservoir): one draw among the tied nodes instead of one per tie, so a cycle costs a single random
   * number.
   */
  private int selectHost(int k) {
    long[] t = totals;
    long max = t[0];
    int count = 1;
    for (int i = 1; i < k; i++) {
      long v = t[i];
      if (v > max) {
        max = v;
        count = 1;
      } else if (v == max) {
        count++;
      }
    }
    int pick = count == 1 ? 0 : random.nextInt(count);
    for (int i = 0; i < k; i++) {
      if (t[i] == max && pick-- == 0) {
        return i;
      }
    }
    throw new IllegalStateException("selectHost: no node with the highest score " + max);
  }

  /** The feasible nodes as the List PreScore and NormalizeScore receive; reused every cycle. */
  private static final class FeasibleList extends AbstractList<NodeInfo> implements RandomAccess {
    NodeInfo[] items = new NodeInfo[0];
    int size;

    @Override
    public NodeInfo get(int index) {
      if (index >= size) {
        throw new IndexOutOfBoundsException("feasible node " + index + " of " + size);
      }
      return items[index];
    }

    @Override
    public int size() {
      return size;
    }
  }

  // ---------------------------------------------------------------------------------------- failure paths

  private ScheduleResult fail(QueuedPod qp, Status.Code code, String message, @Nullable String nominated,
      List<String> victims, long now) {
    return fail(qp, code, message, nominated, victims, Set.of(), now);
  }

  private ScheduleResult fail(QueuedPod qp, Status.Code code, String message, @Nullable String nominated,
      List<String> victims, Set<String> rejectors, long now) {
    queue.requeueAfterFailure(qp, code, message, rejectors, now);
    // The result reports the pod's nomination after this attempt (kube's status.nominatedNodeName): the node this
    // attempt's preemption chose, else the one an earlier attempt chose and this one kept; null once cleared.
    String current = qp.info.pod().status().nominatedNodeName();
    String reported = nominated != null ? nominated : current.isEmpty() ? null : current;
    return emit(new ScheduleResult(qp.key(), null, code, message, reported, victims), qp);
  }

  private ScheduleResult postFilterAndFail(QueuedPod qp, Framework fw, ArrayCycleState state,
      Map<String, Status> nodeStatuses, Status.Code absentCode, int numAll, @Nullable String preFilterMsg,
      Map<String, Integer> reasons, boolean allUnresolvable, Set<String> rejectors, long now) {
    String postMsg = null;
    String nominated = null;
    List<String> victims = List.of();
    if (fw.postFilter.length > 0) {
      NodeToStatus nts = new NodeToStatus(nodeStatuses, absentCode);
      state.setPreemptionDryRun(true);
      List<String> postReasons = new ArrayList<>(1);
      for (int i = 0; i < fw.postFilter.length; i++) {
        PostFilterResult r;
        try {
          r = fw.postFilter[i].postFilter(state, qp.info, snapshot, nts);
        } catch (RuntimeException e) {
          r = PostFilterResult.of(Framework.errorStatus(fw.postFilterNames[i], "PostFilter", e));
        }
        Status s = r.status();
        if (s.isSuccess()) {
          victims = applyPostFilter(qp, r, now);
          nominated = r.nominatedNodeName();
          postReasons.clear();
          postReasons.addAll(s.reasons());
          break;
        }
        postReasons.addAll(s.reasons());
        if ("".equals(r.nominatedNodeName())) {
          clearNomination(qp); // no node can be made to fit: drop any earlier nomination
        }
        if (s.code() != Status.Code.UNSCHEDULABLE) {
          break;
        }
      }
      postMsg = String.join(", ", postReasons);
      state.setPreemptionDryRun(false);
      if (obs != null) {
        obs.preemptionAttempt(victims.size());
      }
    }
    String message = Diagnosis.fitError(numAll, preFilterMsg, reasons, postMsg);
    Status.Code code = allUnresolvable && nominated == null
        ? Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE : Status.Code.UNSCHEDULABLE;
    return fail(qp, code, message, nominated, victims, rejectors, now);
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
        try {
          config.evictor().evict(victim.pod(), qp.info.pod(), r.nominatedNodeName() == null ? ""
              : r.nominatedNodeName());
          if (obs != null) {
            obs.preempted(victim.pod(), qp.info.pod(), r.nominatedNodeName() == null ? "" : r.nominatedNodeName());
          }
        } catch (RuntimeException e) {
          LOG.warn("evicting preemption victim {} failed", key, e);
        }
      }
    }
    String node = r.nominatedNodeName();
    if (node != null && !node.isEmpty()) {
      List<PodInfo> others = nominator.forNode(node);
      if (others != null) {
        for (PodInfo other : List.copyOf(others)) {
          if (other.priority() < qp.info.priority()) {
            nominator.remove(other.key());
            QueuedPod oq = queue.get(other.key());
            if (oq != null) {
              Pod p = oq.info.pod();
              oq.info = oq.info.withPod(p.withStatus(p.status().withNominatedNodeName("")));
              oq.refresh();
            }
          }
        }
      }
      Pod p = qp.info.pod();
      qp.info = qp.info.withPod(p.withStatus(p.status().withNominatedNodeName(node)));
      qp.refresh();
      nominator.add(qp.info, node);
    }
    if (!victims.isEmpty()) {
      queue.moveAllToActiveOrBackoff(ClusterEvent.ASSIGNED_POD_DELETE, now);
    }
    return victims;
  }

  // ---------------------------------------------------------------------------- reserve, permit, binding

  private ScheduleResult assumeAndBind(QueuedPod qp, Framework fw, ArrayCycleState state, String nodeName,
      long now) {
    EnginePodInfo assumed = qp.info.withPod(qp.info.pod().withNodeName(nodeName));
    cache.assume(assumed, nodeName);
    for (int i = 0; i < fw.reserve.length; i++) {
      Status s;
      try {
        s = fw.reserve[i].reserve(state, assumed, nodeName);
      } catch (RuntimeException e) {
        s = Framework.errorStatus(fw.reserveNames[i], "Reserve", e);
      }
      if (!s.isSuccess()) {
        return undo(qp, fw, state, assumed, nodeName, s.withPlugin(fw.reserveNames[i]), true, now);
      }
    }
    LinkedHashMap<String, Long> waits = null;
    for (int i = 0; i < fw.permit.length; i++) {
      PermitResult pr;
      try {
        pr = fw.permit[i].permit(state, assumed, nodeName);
      } catch (RuntimeException e) {
        pr = PermitResult.reject(Framework.errorStatus(fw.permitNames[i], "Permit", e));
      }
      Status s = pr.status();
      if (s.isWait()) {
        if (waits == null) {
          waits = new LinkedHashMap<>();
        }
        long t = Math.min(Math.max(0, pr.timeout().toNanos()), MAX_PERMIT_WAIT_NANOS);
        waits.put(fw.permitNames[i], now + t);
      } else if (!s.isSuccess()) {
        return undo(qp, fw, state, assumed, nodeName, s.withPlugin(fw.permitNames[i]), true, now);
      }
    }
    if (waits != null) {
      queue.markWaiting(qp);
      waiting.add(new WaitingPod(qp, fw, state, assumed, nodeName, waits, now));
      return emit(new ScheduleResult(qp.key(), nodeName, Status.Code.WAIT,
          "waiting on permit plugin(s) " + goList(waits.keySet()), null, List.of()), qp);
    }
    return bind(qp, fw, state, assumed, nodeName, now);
  }

  private ScheduleResult bind(QueuedPod qp, Framework fw, ArrayCycleState state, EnginePodInfo assumed,
      String nodeName, long now) {
    for (int i = 0; i < fw.preBind.length; i++) {
      Status s;
      try {
        s = fw.preBind[i].preBind(state, assumed, nodeName);
      } catch (RuntimeException e) {
        s = Framework.errorStatus(fw.preBindNames[i], "PreBind", e);
      }
      if (!s.isSuccess()) {
        return undo(qp, fw, state, assumed, nodeName, s.withPlugin(fw.preBindNames[i]), false, now);
      }
    }
    Status bound = null;
    long bindStart = obs == null ? 0 : obs.begin("Bind");
    for (int i = 0; i < fw.bind.length && bound == null; i++) {
      Status s;
      try {
        s = fw.bind[i].bind(state, assumed, nodeName);
      } catch (RuntimeException e) {
        s = Framework.errorStatus(fw.bindNames[i], "Bind", e);
      }
      if (!s.isSkip()) {
        bound = s.withPlugin(fw.bindNames[i]);
      }
    }
    if (bound == null) {
      try {
        bound = config.binder().bind(qp.info.pod(), nodeName);
      } catch (RuntimeException e) {
        bound = Status.error("binder failed: " + e);
      }
    }
    if (obs != null) {
      obs.end("Bind", bound.code(), fw.schedulerName, bindStart);
    }
    if (!bound.isSuccess()) {
      Status err = bound.code() == Status.Code.ERROR ? bound
          : new Status(Status.Code.ERROR, List.of("binding rejected: " + bound.message()), bound.plugin());
      return undo(qp, fw, state, assumed, nodeName, err, false, now);
    }
    cache.finishBinding(assumed.key(), now);
    queue.done(qp);
    nominator.remove(assumed.key());
    for (int i = 0; i < fw.postBind.length; i++) {
      try {
        fw.postBind[i].postBind(state, assumed, nodeName);
      } catch (RuntimeException e) {
        LOG.warn("PostBind plugin {} failed for pod {}", fw.postBindNames[i], assumed.key(), e);
      }
    }
    return emit(ScheduleResult.bound(assumed.key(), nodeName), qp);
  }

  /**
   * Unreserves (every Reserve plugin, in reverse order), forgets the assumed pod and re-queues it. A rejection in the
   * scheduling cycle is worded as kube's FitError for one node; binding-cycle failures keep their message.
   */
  private ScheduleResult undo(QueuedPod qp, Framework fw, ArrayCycleState state, EnginePodInfo assumed,
      String nodeName, Status why, boolean schedulingCycle, long now) {
    unreserve(fw, state, assumed, nodeName);
    cache.forget(assumed.key());
    queue.moveAllToActiveOrBackoff(ClusterEvent.ASSIGNED_POD_DELETE, now);
    String message = why.code() == Status.Code.ERROR || !schedulingCycle
        ? why.message()
        : Diagnosis.fitError(1, null, reasonCounts(why), null);
    Status.Code code = why.isRejected() ? Status.Code.UNSCHEDULABLE : Status.Code.ERROR;
    return fail(qp, code, message, null, List.of(), why.plugin() == null ? Set.of() : Set.of(why.plugin()), now);
  }

  private static Map<String, Integer> reasonCounts(Status s) {
    Map<String, Integer> m = new HashMap<>();
    for (String r : s.reasons()) {
      m.merge(r, 1, Integer::sum);
    }
    return m;
  }

  private void unreserve(Framework fw, ArrayCycleState state, PodInfo pod, String nodeName) {
    for (int i = fw.reserve.length - 1; i >= 0; i--) {
      try {
        fw.reserve[i].unreserve(state, pod, nodeName);
      } catch (RuntimeException e) {
        LOG.warn("Unreserve of plugin {} failed for pod {}", fw.reserveNames[i], pod.key(), e);
      }
    }
  }

  private static String nonEmpty(String s, String fallback) {
    return s.isEmpty() ? fallback : s;
  }

  /** Go's {@code %v} of a string slice: {@code [a b]}. */
  static String goList(Iterable<String> items) {
    return "[" + String.join(" ", items) + "]";
  }

  // ------------------------------------------------------------------------------------------ waiting pods

  /** A pod reserved on a node and held by Permit plugins. */
  private static final class WaitingPod {
    final QueuedPod qp;
    final Framework fw;
    final ArrayCycleState state;
    final EnginePodInfo assumed;
    final String nodeName;
    final LinkedHashMap<String, Long> pending;
    final long sinceNanos;
    @Nullable Status rejected;

    WaitingPod(QueuedPod qp, Framework fw, ArrayCycleState state, EnginePodInfo assumed, String nodeName,
        LinkedHashMap<String, Long> pending, long sinceNanos) {
      this.sinceNanos = sinceNanos;
      this.qp = qp;
      this.fw = fw;
      this.state = state;
      this.assumed = assumed;
      this.nodeName = nodeName;
      this.pending = pending;
    }
  }

  /** {@link WaitingPods} over this scheduler's monitor; decisions made inside a cycle take effect after it. */
  private final class WaitingPodsImpl implements WaitingPods {
    private final Map<String, WaitingPod> pods = new LinkedHashMap<>();
    private final List<WaitingPod> ready = new ArrayList<>();

    void add(WaitingPod wp) {
      pods.put(wp.assumed.key(), wp);
    }

    @Override
    public Set<String> keys() {
      synchronized (SchedulerImpl.this) {
        return Set.copyOf(pods.keySet());
      }
    }

    @Override
    public void allow(String podKey, String pluginName) {
      synchronized (SchedulerImpl.this) {
        WaitingPod wp = pods.get(podKey);
        if (wp == null || wp.pending.remove(pluginName) == null) {
          return;
        }
        if (wp.pending.isEmpty() && !ready.contains(wp)) {
          ready.add(wp);
        }
        if (!inCycle) {
          processReady();
        }
      }
    }

    @Override
    public void reject(String podKey, String pluginName, String reason) {
      synchronized (SchedulerImpl.this) {
        WaitingPod wp = pods.get(podKey);
        if (wp == null || wp.rejected != null) {
          return;
        }
        wp.rejected = Status.unschedulable(reason).withPlugin(pluginName);
        if (!ready.contains(wp)) {
          ready.add(wp);
        }
        if (!inCycle) {
          processReady();
        }
      }
    }

    /** Rejects pods whose wait ran out, with kube's message. */
    void expire(long now) {
      for (WaitingPod wp : pods.values()) {
        if (wp.rejected != null) {
          continue;
        }
        for (Map.Entry<String, Long> e : wp.pending.entrySet()) {
          if (now - e.getValue() >= 0) {
            wp.rejected = Status.unschedulable("rejected due to timeout after waiting "
                + goDuration(now - wp.sinceNanos) + " at plugin " + e.getKey()).withPlugin(e.getKey());
            ready.add(wp);
            break;
          }
        }
      }
    }

    /** Binds the allowed pods and re-queues the rejected ones. */
    void processReady() {
      while (!ready.isEmpty()) {
        WaitingPod wp = ready.remove(0);
        if (pods.remove(wp.assumed.key()) != wp) {
          continue;
        }
        long now = nanos.getAsLong();
        wp.qp.where = QueuedPod.Where.IN_FLIGHT;
        if (wp.rejected != null) {
          undo(wp.qp, wp.fw, wp.state, wp.assumed, wp.nodeName, wp.rejected, false, now);
        } else {
          bind(wp.qp, wp.fw, wp.state, wp.assumed, wp.nodeName, now);
        }
      }
    }

    /** Forgets a waiting pod that was deleted or bound elsewhere: unreserve and forget, no re-queue. */
    void drop(String key) {
      WaitingPod wp = pods.remove(key);
      if (wp != null) {
        ready.remove(wp);
        unreserve(wp.fw, wp.state, wp.assumed, wp.nodeName);
        cache.forget(key);
      }
    }

    void rejectAll(String reason) {
      for (WaitingPod wp : pods.values()) {
        if (wp.rejected == null) {
          wp.rejected = Status.unschedulable(reason);
          ready.add(wp);
        }
      }
      processReady();
    }
  }

  private static String goDuration(long nanos) {
    if (nanos % 1_000_000_000L == 0) {
      return nanos / 1_000_000_000L + "s";
    }
    return Duration.ofNanos(nanos).toMillis() / 1000.0 + "s";
  }

  /** A clock over a nanosecond ticker, for plugins when the builder was given a ticker. */
  private static final class TickerClock extends Clock {
    private final LongSupplier ticker;

    TickerClock(LongSupplier ticker) {
      this.ticker = ticker;
    }

    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      return this;
    }

    @Override
    public Instant instant() {
      long t = ticker.getAsLong();
      return Instant.ofEpochSecond(Math.floorDiv(t, 1_000_000_000L), Math.floorMod(t, 1_000_000_000L));
    }
  }
}
