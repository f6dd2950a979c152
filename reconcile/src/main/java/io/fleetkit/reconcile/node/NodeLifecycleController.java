package io.fleetkit.reconcile.node;

import io.fleetkit.admission.DefaultTolerationSecondsPlugin;
import io.fleetkit.api.FleetKitException;
import io.fleetkit.api.NotFoundException;
import io.fleetkit.api.events.Event;
import io.fleetkit.api.events.EventRecorder;
import io.fleetkit.api.events.ObjectReference;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.NodeCondition;
import io.fleetkit.api.core.NodeSpec;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodCondition;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.scheduling.Taint;
import io.fleetkit.api.scheduling.TaintEffect;
import io.fleetkit.api.store.ListResult;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.store.Watch;
import io.fleetkit.api.store.WatchEventType;
import io.fleetkit.api.time.TimerClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches node heartbeats as kube's node lifecycle controller ({@code pkg/controller/nodelifecycle}): every
 * {@code monitorPeriod} (5 s) it checks each node's {@code Ready} condition; a node whose heartbeat
 * ({@code lastHeartbeatTime}) has not changed for {@code gracePeriod} gets {@code Ready=Unknown} (reason
 * {@value #REASON_UNKNOWN}), as do its MemoryPressure, DiskPressure and PIDPressure conditions (added with reason
 * {@value #REASON_NEVER_UPDATED} when the kubelet never posted them), and its pods get {@code Ready=False}. Nodes
 * that are not ready get the NoExecute taint ({@value #TAINT_UNREACHABLE} for Unknown, {@value #TAINT_NOT_READY} for
 * False) through a per-zone rate limiter and lose it when ready again; a node without a Ready condition (within its
 * startup grace) gets none. The {@link TaintEvictionController} then evicts the pods.
 *
 * <p>Taint nodes by condition (upstream {@code doNoScheduleTaintingPass}): every node the pass visits carries exactly
 * the NoSchedule taints its conditions call for, {@value #TAINT_NOT_READY} (Ready False), {@value #TAINT_UNREACHABLE}
 * (Ready Unknown), {@value #TAINT_MEMORY_PRESSURE}, {@value #TAINT_DISK_PRESSURE}, {@value #TAINT_PID_PRESSURE} and
 * {@value #TAINT_NETWORK_UNAVAILABLE} (their condition True), and {@value #TAINT_UNSCHEDULABLE} while
 * {@code spec.unschedulable} is set; missing ones are added, stale ones removed, other taints left alone. Upstream
 * runs this, and the copy of the {@value #OS_LABEL}/{@value #ARCH_LABEL} labels to their deprecated {@code beta.}
 * twins ({@code reconcileNodeLabels}), on every node event; here both run for every node the monitor pass visits, so
 * they follow a change within one monitor period.
 *
 * <p>Events (upstream's recorder, here an {@link EventRecorder}): {@value EventRecorder#REGISTERED_NODE} when a node
 * is first seen, {@value EventRecorder#REMOVING_NODE} when it is gone, {@value EventRecorder#NODE_NOT_READY} on the
 * node when the controller finds it left Ready and on each pod it marks not ready; a pass that fails to list or mark a
 * node's pods tries again at the next pass while the node stays not ready (upstream {@code nodesToRetry}). Once
 * {@link #start started}, a pod watch queues every pod when it is bound, and {@link #sync} marks it not ready if the
 * last pass saw its node not ready (upstream {@code processPod}).
 *
 * <p>Defaults follow current kube: grace period <b>50 s</b> ({@code --node-monitor-grace-period}, raised from 40 s
 * in v1.32), startup grace 60 s, monitor period 5 s, eviction rate 0.1 nodes/s per zone, secondary rate 0.01,
 * unhealthy zone threshold 0.55, large cluster threshold 50. Zone states as upstream {@code ComputeZoneState}:
 * FullDisruption (no ready node) keeps the normal rate unless every zone is fully disrupted, in which case tainting
 * stops and the NoExecute taints are removed (a control-plane network problem is assumed); PartialDisruption (more
 * than 2 not-ready nodes and at least 55 % of the zone) slows tainting to the secondary rate in zones larger than
 * 50 nodes and stops it in smaller ones. Nodes labelled {@value #EXCLUDE_DISRUPTION_LABEL} do not count in their
 * zone's state.
 *
 * <p>Not thread-safe: made for single-threaded simulations; call {@link #sync} on the thread that advances the
 * clock, with a store that delivers watch events on the writing thread (its node and pod watches feed queues that
 * {@link #sync} reads).
 */
public final class NodeLifecycleController implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(NodeLifecycleController.class);
  /** The NoExecute/NoSchedule taint of a node whose Ready condition is Unknown. */
  public static final String TAINT_UNREACHABLE = DefaultTolerationSecondsPlugin.UNREACHABLE;
  /** The NoExecute/NoSchedule taint of a node whose Ready condition is False. */
  public static final String TAINT_NOT_READY = DefaultTolerationSecondsPlugin.NOT_READY;
  /** The NoSchedule taint of a node whose MemoryPressure condition is True. */
  public static final String TAINT_MEMORY_PRESSURE = "node.kubernetes.io/memory-pressure";
  /** The NoSchedule taint of a node whose DiskPressure condition is True. */
  public static final String TAINT_DISK_PRESSURE = "node.kubernetes.io/disk-pressure";
  /** The NoSchedule taint of a node whose PIDPressure condition is True. */
  public static final String TAINT_PID_PRESSURE = "node.kubernetes.io/pid-pressure";
  /** The NoSchedule taint of a node whose NetworkUnavailable condition is True. */
  public static final String TAINT_NETWORK_UNAVAILABLE = "node.kubernetes.io/network-unavailable";
  /** The NoSchedule taint of a node with {@code spec.unschedulable} set (cordoned). */
  public static final String TAINT_UNSCHEDULABLE = "node.kubernetes.io/unschedulable";
  /** The stable OS label, copied to {@link #BETA_OS_LABEL}. */
  public static final String OS_LABEL = "kubernetes.io/os";
  /** The stable architecture label, copied to {@link #BETA_ARCH_LABEL}. */
  public static final String ARCH_LABEL = "kubernetes.io/arch";
  /** The deprecated OS label, kept equal to {@link #OS_LABEL}. */
  public static final String BETA_OS_LABEL = "beta.kubernetes.io/os";
  /** The deprecated architecture label, kept equal to {@link #ARCH_LABEL}. */
  public static final String BETA_ARCH_LABEL = "beta.kubernetes.io/arch";
  /** The reason of a Ready condition the controller set to Unknown. */
  public static final String REASON_UNKNOWN = "NodeStatusUnknown";
  /** The reason of a condition the kubelet never posted. */
  public static final String REASON_NEVER_UPDATED = "NodeStatusNeverUpdated";
  /** The zone label. */
  public static final String ZONE_LABEL = "topology.kubernetes.io/zone";
  /** The region label. */
  public static final String REGION_LABEL = "topology.kubernetes.io/region";
  /** The deprecated zone label, read where a node has no {@link #ZONE_LABEL}. */
  public static final String BETA_ZONE_LABEL = "failure-domain.beta.kubernetes.io/zone";
  /** The deprecated region label, read where a node has no {@link #REGION_LABEL}. */
  public static final String BETA_REGION_LABEL = "failure-domain.beta.kubernetes.io/region";
  /** The label that keeps a node out of its zone's health (upstream {@code labelNodeDisruptionExclusion}). */
  public static final String EXCLUDE_DISRUPTION_LABEL = "node.kubernetes.io/exclude-disruption";

  /** A zone's health as upstream {@code ZoneState}. */
  public enum ZoneState { Initial, Normal, PartialDisruption, FullDisruption }

  private final ObjectStore store;
  private final TimerClock clock;
  private final Duration gracePeriod;
  private final Duration startupGracePeriod;
  private final Duration monitorPeriod;
  private final double evictionRate;
  private final double secondaryEvictionRate;
  private final double unhealthyZoneThreshold;
  private final int largeClusterThreshold;
  private final @Nullable NodeLeases leases;
  private final EventRecorder events;
  /** For tests: with Leases, visit every node with a running Lease at every pass (the reference behaviour). */
  private final boolean visitEveryLeasedNode;
  private final Map<String, Health> health = new HashMap<>();
  private final Map<String, ZoneQueue> zones = new TreeMap<>();
  private final Map<String, ZoneState> zoneStates = new TreeMap<>();
  private TimerClock.@Nullable Timer timer;
  private TimerClock.@Nullable Timer taintTimer;
  private @Nullable Instant started;
  private boolean monitorDue;
  private long passes;
  /** With Leases: the nodes written or deleted since the last pass (from a node watch), by name. */
  private final Set<String> changed = new LinkedHashSet<>();
  private @Nullable Watch nodeWatch;
  /** With Leases: when each node's grace may run out, earliest first (stale entries skipped). */
  private final PriorityQueue<Due> dues = new PriorityQueue<>();
  /** With Leases: the instants of recent passes (nanoseconds since {@link #origin}), oldest first. */
  private final ArrayDeque<Long> passTimes = new ArrayDeque<>();
  /** With Leases: ready and not-ready nodes per zone, kept as nodes are processed. */
  private final Map<String, int[]> zoneCounts = new TreeMap<>();
  private final Instant origin;
  /** The pod watch (upstream's pod informer), opened by {@link #start}. */
  private @Nullable Watch podWatch;
  /** The uids of the bound pods the pod watch has seen, so that a pod is queued once, when it is bound. */
  private final Set<String> boundPods = new HashSet<>();
  /** The pods bound since the last {@link #processPods} (upstream {@code podUpdateQueue}): namespace, name. */
  private final Set<List<String>> podQueue = new LinkedHashSet<>();
  /** Nodes whose pods could not all be marked not ready (upstream {@code nodesToRetry}); retried at the next pass. */
  private final Set<String> nodesToRetry = new HashSet<>();

  /** A node's next grace check. */
  private record Due(long at, String node) implements Comparable<Due> {
    @Override
    public int compareTo(Due o) {
      int c = Long.compare(at, o.at);
      return c != 0 ? c : node.compareTo(o.node);
    }
  }
  private boolean taintDue;

  /** Upstream {@code nodeHealthData}: when the controller last saw the heartbeat (or the Lease) move. */
  private static final class Health {
    /** Whether the status last seen had a Ready condition (upstream: the saved status has one). */
    boolean sawReady;
    /** The node's uid, for the event when it goes. */
    String uid = "";
    /** The Ready status the last pass left the node with (null: no Ready condition), read by processPod. */
    @Nullable ConditionStatus ready;
    @Nullable Instant heartbeat;
    Instant probeTimestamp;
    @Nullable Instant lease;
    /** The monitor pass that last saw the node. */
    long pass;
    /** With Leases: the pending grace check ({@link Long#MIN_VALUE}: none). */
    long due = Long.MIN_VALUE;
    /** With Leases: the zone and readiness this node is counted under in {@code zoneCounts} (null: not counted). */
    @Nullable String countedZone;
    boolean countedReady;
    /** The zone key of {@link #zoneOf}'s labels (the same map object while the node's labels do not change). */
    @Nullable Map<String, String> zoneOf;
    String zone = "";

    String zone(Node node) {
      Map<String, String> labels = node.metadata().labels();
      if (labels != zoneOf) {
        zone = NodeLifecycleController.zone(node);
        zoneOf = labels;
      }
      return zone;
    }

    Health(boolean sawReady, @Nullable Instant heartbeat, Instant probeTimestamp) {
      this.sawReady = sawReady;
      this.heartbeat = heartbeat;
      this.probeTimestamp = probeTimestamp;
    }
  }

  /** A zone's NoExecute tainting queue behind a token bucket (upstream RateLimitedTimedQueue, burst 1). */
  private static final class ZoneQueue {
    final Set<String> nodes = new LinkedHashSet<>();
    double qps;
    @Nullable Instant nextAllowed;

    boolean tryAccept(Instant now) {
      if (qps <= 0) {
        return false;
      }
      if (nextAllowed == null || !now.isBefore(nextAllowed)) {
        nextAllowed = now.plusNanos((long) (1e9 / qps));
        return true;
      }
      return false;
    }
  }

  private NodeLifecycleController(Builder b) {
    this.store = b.store;
    this.clock = b.clock;
    this.gracePeriod = b.gracePeriod;
    this.startupGracePeriod = b.startupGracePeriod;
    this.monitorPeriod = b.monitorPeriod;
    this.evictionRate = b.evictionRate;
    this.secondaryEvictionRate = b.secondaryEvictionRate;
    this.unhealthyZoneThreshold = b.unhealthyZoneThreshold;
    this.largeClusterThreshold = b.largeClusterThreshold;
    this.leases = b.leases;
    this.events = EventRecorder.bestEffort(b.events);
    this.visitEveryLeasedNode = b.visitEveryLeasedNode;
    this.origin = b.clock.now();
  }

  public static Builder builder(ObjectStore store, TimerClock clock) {
    return new Builder(store, clock);
  }

  /**
   * Schedules the monitor passes (the first one at the next {@link #sync}) every whole second of the monitor period
   * from now, and the NoExecute tainting passes every second from now while a zone has nodes queued for tainting (a
   * pass with nothing queued does nothing, so the clock is not woken for it).
   */
  public void start() {
    if (started != null) {
      throw new IllegalStateException("node lifecycle controller: already started");
    }
    started = clock.now();
    monitorDue = true;
    armMonitor();
    watchPods();
  }

  /**
   * Opens the pod watch (upstream's pod informer handler {@code podUpdated}): a pod is queued for
   * {@link #processPods} when it is first seen bound to a node.
   */
  private void watchPods() {
    ListResult<Pod> pods = store.list(Pod.class);
    for (Pod p : pods.items()) {
      if (!p.spec().nodeName().isEmpty()) {
        boundPods.add(p.metadata().uid());
      }
    }
    podWatch = store.watch(Pod.class, pods.resourceVersion(), e -> {
      Pod p = e.object();
      if (e.type() == WatchEventType.DELETED) {
        boundPods.remove(p.metadata().uid());
      } else if (!p.spec().nodeName().isEmpty() && boundPods.add(p.metadata().uid())) {
        podQueue.add(List.of(p.metadata().namespace(), p.metadata().name()));
      }
    });
  }

  private void armMonitor() {
    timer = clock.schedule(Duration.ofSeconds(monitorPeriod.toSeconds()), () -> {
      monitorDue = true;
      taintDue = true; // the tainting passes' one-second grid passes here too
      armMonitor();
    });
  }

  /** While nodes wait for their NoExecute taint, wakes the clock at the next whole second since the start. */
  private void armTaintPass() {
    if (taintTimer != null || !queued()) {
      return;
    }
    Instant now = clock.now();
    long sinceStart = Duration.between(Objects.requireNonNull(started), now).toNanos();
    long toNextSecond = 1_000_000_000L - Math.floorMod(sinceStart, 1_000_000_000L);
    taintTimer = clock.schedule(Duration.ofNanos(toNextSecond), () -> {
      taintTimer = null;
      taintDue = true;
    });
  }

  private boolean queued() {
    for (ZoneQueue q : zones.values()) {
      if (!q.nodes.isEmpty()) {
        return true;
      }
    }
    return false;
  }

  /** The state of each zone at the last monitor pass (zone key {@code region:zone}; {@code ":"} when unlabelled). */
  public Map<String, ZoneState> zoneStates() {
    return Map.copyOf(zoneStates);
  }

  /**
   * Runs the due passes: node health monitoring (every monitor period), NoExecute tainting (every second) and the
   * pods bound since the last call ({@link #processPods}).
   *
   * @return how many writes it made
   */
  public int sync() {
    int writes = 0;
    if (monitorDue) {
      monitorDue = false;
      writes += monitor();
    }
    if (taintDue) {
      taintDue = false;
      writes += taintPass();
    }
    writes += processPods();
    armTaintPass();
    return writes;
  }

  /** One monitorNodeHealth pass; public for tests that drive it directly. */
  public int monitor() {
    return leases != null ? monitorChanged() : monitorAll();
  }

  /** The pass over every node (without Leases a node's heartbeat is its status, so every pass reads every node). */
  private int monitorAll() {
    int writes = 0;
    Instant now = clock.now();
    long pass = ++passes;
    List<Node> nodes = store.list(Node.class).items();
    Map<String, int[]> readyByZone = new TreeMap<>(); // zone -> {ready, not ready}
    for (Node node : nodes) {
      NodeCondition before = node.status().condition(NodeCondition.READY);
      Health h = health.get(node.name());
      if (h == null) {
        nodeEvent(node.name(), node.metadata().uid(), EventRecorder.REGISTERED_NODE, "Register",
            "Registered Node " + node.name() + " in Controller");
      }
      Node updated = tryUpdateNodeHealth(node, h, now);
      if (updated != node) {
        node = store.updateStatus(updated);
        writes++;
      }
      if (h == null) {
        h = health.get(node.name());
      }
      h.pass = pass;
      h.uid = node.metadata().uid();
      NodeCondition ready = node.status().condition(NodeCondition.READY);
      @Nullable ConditionStatus status = ready == null ? null : ready.status();
      String zone = h.zone(node);
      if (!excludedFromDisruptionChecks(node)) {
        int[] counts = readyByZone.get(zone);
        if (counts == null) {
          counts = new int[2];
          readyByZone.put(zone, counts);
        }
        counts[status == ConditionStatus.True ? 0 : 1]++;
      }
      Node labelled = reconcileNodeLabels(node);
      if (labelled != node) {
        node = labelled;
        writes++;
      }
      writes += processTaints(node, zone, status);
      writes += podsOfNodeNotReady(node, before, status, now);
    }
    if (health.size() > nodes.size()) {
      for (Iterator<Map.Entry<String, Health>> it = health.entrySet().iterator(); it.hasNext(); ) {
        Map.Entry<String, Health> e = it.next();
        if (e.getValue().pass != pass) { // deleted nodes
          it.remove();
          removed(e.getKey(), e.getValue());
        }
      }
    }
    writes += handleDisruption(readyByZone, nodes);
    return writes;
  }

  /**
   * The pass with Leases, giving the same writes as a pass over every node: it visits only the nodes written or
   * deleted since the last pass, the nodes whose Lease started, stopped or went, and those whose grace period may
   * have run out. A node nobody wrote since the last visit has the same heartbeat, taints and readiness, so the
   * per-node steps give it nothing new, except the Lease: a renewal moves the probe timestamp to the first pass at or
   * after it (when a pass over every node would have seen it), and only matters once the grace counted from the
   * previous one runs out, which is when the node is visited again. A ready, untainted node whose kubelet renews its
   * Lease (every interval no longer than the grace period) and ran at this pass renewed less than an interval ago,
   * so its grace cannot run out: it waits for a write or for its Lease to stop, unless a pass finds that not every
   * running kubelet ran then, which visits every node with a running Lease.
   */
  private int monitorChanged() {
    NodeLeases leases = Objects.requireNonNull(this.leases);
    Instant now = clock.now();
    long nowNanos = nanos(now);
    if (nodeWatch == null) {
      ListResult<Node> list = store.list(Node.class);
      for (Node n : list.items()) {
        changed.add(n.name());
      }
      nodeWatch = store.watch(Node.class, list.resourceVersion(), e -> changed.add(e.object().name()));
      leases.listen(changed::add);
    }
    passTimes.addLast(nowNanos);
    long keep = gracePeriod.plus(startupGracePeriod).plusMinutes(5).toNanos();
    while (passTimes.size() > 1 && passTimes.peekFirst() < nowNanos - keep) {
      passTimes.pollFirst();
    }
    TreeSet<String> work = new TreeSet<>(changed); // name order, as the store lists nodes
    changed.clear();
    work.addAll(nodesToRetry);
    if (visitEveryLeasedNode || !leases.allRanAt(now)) {
      // a kubelet that did not run now may have missed renewals: its node's grace may run out (see below)
      work.addAll(leases.runningNodes());
    }
    Due d;
    while ((d = dues.peek()) != null && d.at < nowNanos) {
      dues.poll();
      Health h = health.get(d.node);
      if (h != null && h.due == d.at) {
        work.add(d.node);
      }
    }
    int writes = 0;
    for (String name : work) {
      Node node = store.get(Node.class, "", name).orElse(null);
      if (node == null) {
        Health gone = health.remove(name);
        if (gone != null) {
          count(gone, null, false);
          removed(name, gone);
        }
        continue;
      }
      NodeCondition before = node.status().condition(NodeCondition.READY);
      Health h = health.get(name);
      if (h == null) {
        nodeEvent(name, node.metadata().uid(), EventRecorder.REGISTERED_NODE, "Register",
            "Registered Node " + name + " in Controller");
      }
      Node updated = tryUpdateNodeHealth(node, h, now);
      if (updated != node) {
        node = store.updateStatus(updated);
        writes++;
      }
      h = Objects.requireNonNull(health.get(name));
      h.uid = node.metadata().uid();
      NodeCondition ready = node.status().condition(NodeCondition.READY);
      @Nullable ConditionStatus status = ready == null ? null : ready.status();
      String zone = h.zone(node);
      count(h, excludedFromDisruptionChecks(node) ? null : zone, status == ConditionStatus.True);
      Node labelled = reconcileNodeLabels(node);
      if (labelled != node) {
        node = labelled;
        writes++;
      }
      writes += processTaints(node, zone, status);
      writes += podsOfNodeNotReady(node, before, status, now);
      Duration grace = ready == null ? startupGracePeriod : gracePeriod;
      long renewEvery = leases.runningInterval(name);
      if (!visitEveryLeasedNode && status == ConditionStatus.True && !hasOurTaint(node) && renewEvery > 0
          && renewEvery <= grace.toNanos()) {
        h.due = Long.MIN_VALUE; // a ready, untainted node whose kubelet renews: nothing due while it renews
      } else {
        h.due = nanos(h.probeTimestamp.plus(grace));
        dues.add(new Due(h.due, name));
      }
    }
    writes += handleDisruption(zoneCounts, null);
    return writes;
  }

  /** Moves node {@code h} to {@code zone} ({@code null}: none) and readiness {@code ready} in the zone counts. */
  private void count(Health h, @Nullable String zone, boolean ready) {
    if (Objects.equals(h.countedZone, zone) && h.countedReady == ready) {
      return;
    }
    if (h.countedZone != null) {
      int[] c = zoneCounts.get(h.countedZone);
      c[h.countedReady ? 0 : 1]--;
      if (c[0] + c[1] == 0) {
        zoneCounts.remove(h.countedZone);
      }
    }
    if (zone != null) {
      zoneCounts.computeIfAbsent(zone, z -> new int[2])[ready ? 0 : 1]++;
    }
    h.countedZone = zone;
    h.countedReady = ready;
  }

  private long nanos(Instant t) {
    return Duration.between(origin, t).toNanos();
  }

  /** The first pass at or after {@code t} (the pass that first saw a Lease renewed at {@code t}). */
  private Instant firstPassAtOrAfter(Instant t) {
    long at = nanos(t);
    long found = passTimes.peekLast();
    for (Iterator<Long> it = passTimes.descendingIterator(); it.hasNext(); ) {
      long p = it.next();
      if (p < at) {
        break;
      }
      found = p;
    }
    return origin.plusNanos(found);
  }

  /**
   * Upstream tryUpdateNodeHealth: the node with Ready, MemoryPressure, DiskPressure and PIDPressure Unknown when
   * overdue (a condition the kubelet never posted is added with reason {@value #REASON_NEVER_UPDATED} and the node's
   * creation time as its heartbeat), or {@code node} itself when nothing is to be written: as upstream, the status is
   * written only when the Ready condition changes. The node's health record keeps the Ready status of the node
   * returned (upstream: the status saved in {@code nodeHealthMap}).
   */
  private Node tryUpdateNodeHealth(Node node, @Nullable Health h, Instant now) {
    Node out = updateHealth(node, h, now);
    NodeCondition ready = out.status().condition(NodeCondition.READY);
    Objects.requireNonNull(health.get(node.name())).ready = ready == null ? null : ready.status();
    return out;
  }

  /**
   * Upstream's test seeding of {@code nodeHealthMap}: the health record of a node whose status (as it is now) was
   * seen at {@code probeTimestamp}.
   */
  void seedHealth(Node node, Instant probeTimestamp) {
    NodeCondition ready = node.status().condition(NodeCondition.READY);
    Health h = new Health(ready != null, ready == null ? null : ready.lastHeartbeatTime(), probeTimestamp);
    h.ready = ready == null ? null : ready.status();
    health.put(node.name(), h);
  }

  /**
   * Upstream tryUpdateNodeHealth for one stored node, for tests: writes the status as the monitor pass does.
   *
   * @return the node's Ready status after it ({@code null}: no Ready condition)
   */
  @Nullable ConditionStatus tryUpdateNodeHealth(String nodeName) {
    Node node = store.require(Node.class, "", nodeName);
    Node updated = tryUpdateNodeHealth(node, health.get(nodeName), clock.now());
    if (updated != node) {
      updated = store.updateStatus(updated);
    }
    NodeCondition ready = updated.status().condition(NodeCondition.READY);
    return ready == null ? null : ready.status();
  }

  /** The Ready status the node's health record keeps ({@code null}: none, or no record); for tests. */
  @Nullable ConditionStatus savedReady(String nodeName) {
    Health h = health.get(nodeName);
    return h == null ? null : h.ready;
  }

  private Node updateHealth(Node node, @Nullable Health h, Instant now) {
    NodeCondition ready = node.status().condition(NodeCondition.READY);
    Instant created = node.metadata().creationTimestamp();
    Duration grace;
    if (ready == null) {
      grace = startupGracePeriod;
      if (h == null) {
        h = new Health(false, null, created != null ? created : now);
        health.put(node.name(), h);
      } else if (h.sawReady) {
        // upstream: the Ready condition was removed from the status; counted from now
        h.sawReady = false;
        h.heartbeat = null;
        h.probeTimestamp = now;
      }
    } else {
      grace = gracePeriod;
      if (h == null) {
        h = new Health(true, ready.lastHeartbeatTime(), now);
        health.put(node.name(), h);
      } else if (!h.sawReady || !Objects.equals(h.heartbeat, ready.lastHeartbeatTime())) {
        h.sawReady = true;
        h.heartbeat = ready.lastHeartbeatTime();
        h.probeTimestamp = now;
      }
    }
    if (leases != null) {
      // upstream: a Lease renewed since the last pass counts as a heartbeat
      Instant renewed = leases.renewTime(node.name());
      if (renewed != null && (h.lease == null || h.lease.isBefore(renewed))) {
        h.lease = renewed;
        Instant seenAt = firstPassAtOrAfter(renewed);
        if (seenAt.isAfter(h.probeTimestamp)) {
          h.probeTimestamp = seenAt;
        }
      }
    }
    if (!now.isAfter(h.probeTimestamp.plus(grace))
        || (ready != null && ready.status() == ConditionStatus.Unknown)) {
      return node; // in grace, or Ready is Unknown already (upstream writes only when Ready changes)
    }
    List<NodeCondition> conditions = new ArrayList<>(node.status().conditions().size() + WATCHED.length);
    boolean[] seen = new boolean[WATCHED.length];
    for (NodeCondition c : node.status().conditions()) {
      int w = watched(c.type());
      if (w >= 0 && !seen[w] && c.status() != ConditionStatus.Unknown) {
        conditions.add(new NodeCondition(c.type(), ConditionStatus.Unknown, REASON_UNKNOWN,
            "Kubelet stopped posting node status.", c.lastHeartbeatTime(), now));
      } else {
        conditions.add(c);
      }
      if (w >= 0) {
        seen[w] = true;
      }
    }
    for (int w = 0; w < WATCHED.length; w++) {
      if (!seen[w]) {
        conditions.add(new NodeCondition(WATCHED[w], ConditionStatus.Unknown, REASON_NEVER_UPDATED,
            "Kubelet never posted node status.", created, now));
      }
    }
    // the status written is the one seen next: same Ready heartbeat, so the probe timestamp stays
    h.sawReady = true;
    h.heartbeat = ready != null ? ready.lastHeartbeatTime() : created;
    return node.withStatus(node.status().withConditions(conditions));
  }

  /** The conditions upstream sets to Unknown when the kubelet stops posting, in its order. */
  private static final String[] WATCHED = {NodeCondition.READY, NodeCondition.MEMORY_PRESSURE,
      NodeCondition.DISK_PRESSURE, NodeCondition.PID_PRESSURE};

  private static int watched(String type) {
    for (int i = 0; i < WATCHED.length; i++) {
      if (WATCHED[i].equals(type)) {
        return i;
      }
    }
    return -1;
  }

  /**
   * Upstream doNoScheduleTaintingPass and then processTaintBaseEviction, for Ready status {@code ready}
   * ({@code null}: the node has no Ready condition): the node's NoSchedule taints follow its conditions, and its
   * NoExecute taint follows Ready through the zone's tainting queue.
   */
  private int processTaints(Node node, String zone, @Nullable ConditionStatus ready) {
    int writes = 0;
    if (!noScheduleTaintsMatch(node)) {
      node = store.update(withNoScheduleTaints(node));
      writes++;
    }
    String current = currentNoExecute(node);
    if (ready == ConditionStatus.True) {
      ZoneQueue q = zones.get(zone);
      if (q != null) {
        q.nodes.remove(node.name());
      }
      // upstream markNodeAsReachable
      return current == null ? writes : writes + writeNoExecute(node, null);
    }
    if (ready == null) {
      return writes; // upstream skips the NoExecute decision without a Ready condition
    }
    ZoneQueue q = zones.computeIfAbsent(zone, z -> {
      ZoneQueue nq = new ZoneQueue();
      nq.qps = evictionRate;
      return nq;
    });
    String wanted = ready == ConditionStatus.False ? TAINT_NOT_READY : TAINT_UNREACHABLE;
    if (current != null && !current.equals(wanted)) {
      // swap the NoExecute taint at once, as upstream does for a node already tainted
      writes += writeNoExecute(node, wanted);
    } else if (current == null) {
      q.nodes.add(node.name());
    }
    return writes;
  }

  /**
   * Upstream nodeConditionToTaintKeyStatusMap: the key of the NoSchedule taint a node with condition {@code type} at
   * {@code status} gets, or {@code null} for none.
   */
  static @Nullable String conditionTaint(String type, ConditionStatus status) {
    return switch (type) {
      case NodeCondition.READY -> status == ConditionStatus.False ? TAINT_NOT_READY
          : status == ConditionStatus.Unknown ? TAINT_UNREACHABLE : null;
      case NodeCondition.MEMORY_PRESSURE -> status == ConditionStatus.True ? TAINT_MEMORY_PRESSURE : null;
      case NodeCondition.DISK_PRESSURE -> status == ConditionStatus.True ? TAINT_DISK_PRESSURE : null;
      case NodeCondition.PID_PRESSURE -> status == ConditionStatus.True ? TAINT_PID_PRESSURE : null;
      case NodeCondition.NETWORK_UNAVAILABLE -> status == ConditionStatus.True ? TAINT_NETWORK_UNAVAILABLE : null;
      default -> null;
    };
  }

  /** Whether a NoSchedule taint with this key is one the controller manages (upstream taintKeyToNodeConditionMap). */
  private static boolean noScheduleKey(String key) {
    return switch (key) {
      case TAINT_NOT_READY, TAINT_UNREACHABLE, TAINT_MEMORY_PRESSURE, TAINT_DISK_PRESSURE, TAINT_PID_PRESSURE,
          TAINT_NETWORK_UNAVAILABLE, TAINT_UNSCHEDULABLE -> true;
      default -> false;
    };
  }

  /** Whether the node carries exactly the managed NoSchedule taints its conditions and cordon call for. */
  private static boolean noScheduleTaintsMatch(Node node) {
    List<Taint> taints = node.spec().taints();
    int wanted = 0;
    for (NodeCondition c : node.status().conditions()) {
      String key = conditionTaint(c.type(), c.status());
      if (key != null) {
        if (!hasTaint(taints, key, TaintEffect.NoSchedule)) {
          return false;
        }
        wanted++;
      }
    }
    if (node.spec().unschedulable()) {
      if (!hasTaint(taints, TAINT_UNSCHEDULABLE, TaintEffect.NoSchedule)) {
        return false;
      }
      wanted++;
    }
    int managed = 0;
    for (Taint t : taints) {
      if (t.effect() == TaintEffect.NoSchedule && noScheduleKey(t.key())) {
        managed++;
      }
    }
    return managed == wanted;
  }

  private static boolean hasTaint(List<Taint> taints, String key, TaintEffect effect) {
    for (Taint t : taints) {
      if (t.effect() == effect && t.key().equals(key)) {
        return true;
      }
    }
    return false;
  }

  /**
   * The node with the managed NoSchedule taints its conditions and {@code spec.unschedulable} call for: the ones it
   * has are kept, the missing ones added (stamped now), stale ones removed; other taints stay as they are.
   */
  private Node withNoScheduleTaints(Node node) {
    Set<String> wanted = new LinkedHashSet<>();
    for (NodeCondition c : node.status().conditions()) {
      String key = conditionTaint(c.type(), c.status());
      if (key != null) {
        wanted.add(key);
      }
    }
    if (node.spec().unschedulable()) {
      wanted.add(TAINT_UNSCHEDULABLE);
    }
    List<Taint> next = new ArrayList<>();
    for (Taint t : node.spec().taints()) {
      if (t.effect() != TaintEffect.NoSchedule || !noScheduleKey(t.key())) {
        next.add(t);
      } else if (wanted.remove(t.key())) {
        next.add(t);
      }
    }
    Instant now = clock.now();
    for (String key : wanted) {
      next.add(new Taint(key, "", TaintEffect.NoSchedule, now));
    }
    NodeSpec s = node.spec();
    return node.withSpec(new NodeSpec(s.unschedulable(), next, s.providerID(), s.podCIDRs()));
  }

  /**
   * Upstream doNoScheduleTaintingPass for one node: sets its managed NoSchedule taints; for tests (FleetKit runs it
   * for every node the monitor pass visits).
   *
   * @return how many writes it made (0 or 1)
   */
  int noScheduleTaintingPass(String nodeName) {
    Node node = store.get(Node.class, "", nodeName).orElse(null);
    if (node == null || noScheduleTaintsMatch(node)) {
      return 0;
    }
    store.update(withNoScheduleTaints(node));
    return 1;
  }

  private static boolean hasOurTaint(Node node) {
    for (Taint t : node.spec().taints()) {
      if (t.key().equals(TAINT_UNREACHABLE) || t.key().equals(TAINT_NOT_READY)) {
        return true;
      }
    }
    return false;
  }

  private static @Nullable String currentNoExecute(Node node) {
    for (Taint t : node.spec().taints()) {
      if (t.effect() == TaintEffect.NoExecute
          && (t.key().equals(TAINT_UNREACHABLE) || t.key().equals(TAINT_NOT_READY))) {
        return t.key();
      }
    }
    return null;
  }

  /**
   * Sets the controller's NoExecute taint to {@code noExecute} ({@code null} = none), leaving every other taint
   * (upstream SwapNodeControllerTaint of the unreachable and not-ready NoExecute taints).
   */
  private int writeNoExecute(Node node, @Nullable String noExecute) {
    List<Taint> next = new ArrayList<>();
    for (Taint t : node.spec().taints()) {
      boolean ours = t.effect() == TaintEffect.NoExecute
          && (t.key().equals(TAINT_UNREACHABLE) || t.key().equals(TAINT_NOT_READY));
      if (!ours) {
        next.add(t);
      } else if (t.key().equals(noExecute)) {
        next.add(t);
        noExecute = null;
      }
    }
    if (noExecute != null) {
      next.add(new Taint(noExecute, "", TaintEffect.NoExecute, clock.now()));
    }
    if (next.equals(node.spec().taints())) {
      return 0;
    }
    NodeSpec s = node.spec();
    store.update(node.withSpec(new NodeSpec(s.unschedulable(), next, s.providerID(), s.podCIDRs())));
    return 1;
  }

  /**
   * Upstream reconcileNodeLabels: the node with {@link #BETA_OS_LABEL} and {@link #BETA_ARCH_LABEL} set to the values
   * of {@link #OS_LABEL} and {@link #ARCH_LABEL} where those are present (written to the store), or {@code node}
   * itself when they already match.
   */
  private Node reconcileNodeLabels(Node node) {
    Map<String, String> labels = node.metadata().labels();
    String os = labels.get(OS_LABEL);
    String arch = labels.get(ARCH_LABEL);
    boolean osOk = os == null || os.equals(labels.get(BETA_OS_LABEL));
    boolean archOk = arch == null || arch.equals(labels.get(BETA_ARCH_LABEL));
    if (osOk && archOk) {
      return node;
    }
    Map<String, String> next = new LinkedHashMap<>(labels);
    if (!osOk) {
      next.put(BETA_OS_LABEL, os);
    }
    if (!archOk) {
      next.put(BETA_ARCH_LABEL, arch);
    }
    return store.update(node.withMetadata(node.metadata().withLabels(next)));
  }

  /** Upstream reconcileNodeLabels for one node; for tests (FleetKit runs it for every node the monitor pass visits). */
  int reconcileNodeLabels(String nodeName) {
    Node node = store.get(Node.class, "", nodeName).orElse(null);
    return node == null || reconcileNodeLabels(node) == node ? 0 : 1;
  }

  /** Upstream RecordNodeEvent: a Normal event on the node. */
  private void nodeEvent(String name, String uid, String reason, String action, String what) {
    events.event(nodeRef(name, uid), null, Event.NORMAL, reason, action, "Node " + name + " event: " + what);
  }

  private static ObjectReference nodeRef(String name, String uid) {
    return new ObjectReference("v1", "Node", "", name, uid, "");
  }

  private void removed(String name, Health h) {
    nodesToRetry.remove(name);
    nodeEvent(name, h.uid, EventRecorder.REMOVING_NODE, "Remove", "Removing Node " + name + " from Controller");
  }

  /**
   * The pod part of upstream's per-node monitor step: when this pass took the node out of Ready ({@code before} was
   * True, {@code status} is not), a {@value EventRecorder#NODE_NOT_READY} event and its pods marked not ready; when
   * marking failed at an earlier pass and the node is still not ready, the marking again. A failure (the pod list or
   * a pod's status write) puts the node in the retry set for the next pass.
   */
  private int podsOfNodeNotReady(Node node, @Nullable NodeCondition before, @Nullable ConditionStatus status,
      Instant now) {
    boolean retry = !nodesToRetry.isEmpty() && nodesToRetry.remove(node.name());
    if (status == null) {
      return 0; // upstream: no Ready condition, nothing to do (and nothing left to retry)
    }
    boolean wasReady = before != null && before.status() == ConditionStatus.True;
    boolean transition = wasReady && status != ConditionStatus.True;
    if (transition) {
      events.event(nodeRef(node.name(), node.metadata().uid()), null, Event.NORMAL, EventRecorder.NODE_NOT_READY,
          "StatusChange", "Node " + node.name() + " status is now: " + EventRecorder.NODE_NOT_READY);
    } else if (!retry || wasReady) {
      return 0;
    }
    int writes = 0;
    boolean failed = false;
    try {
      for (Pod p : store.list(Pod.class, "", (Pod p) -> p.spec().nodeName().equals(node.name())).items()) {
        try {
          writes += markPodNotReady(p, now);
        } catch (NotFoundException e) {
          // the pod is gone: nothing left to mark
        } catch (FleetKitException e) {
          LOG.debug("node lifecycle: marking pod {}/{} not ready failed, retried at the next pass: {}",
              p.metadata().namespace(), p.metadata().name(), e.getMessage());
          failed = true;
        }
      }
    } catch (FleetKitException e) {
      LOG.debug("node lifecycle: listing the pods of node {} failed, retried at the next pass: {}", node.name(),
          e.getMessage());
      failed = true;
    }
    if (failed) {
      nodesToRetry.add(node.name());
    }
    return writes;
  }

  /** Upstream MarkPodsNotReady for one pod: its Ready condition, True or Unknown, becomes False. */
  private int markPodNotReady(Pod p, Instant now) {
    PodCondition c = p.status().condition(PodCondition.READY);
    if (c == null || c.status() == ConditionStatus.False) {
      return 0;
    }
    store.updateStatus(p.withStatus(p.status().withCondition(PodCondition.of(PodCondition.READY,
        ConditionStatus.False, "NodeNotReady", "", now))));
    events.event(p, Event.WARNING, EventRecorder.NODE_NOT_READY, "MarkNotReady", "Node is not ready");
    return 1;
  }

  /**
   * Upstream processPod for the pods bound since the last call: a pod bound to a node whose Ready condition the last
   * pass saw False or Unknown is marked not ready. Pods on nodes no pass has seen yet, or that are gone, are left to
   * the monitor pass.
   *
   * @return how many writes it made
   */
  int processPods() {
    if (podQueue.isEmpty()) {
      return 0;
    }
    int writes = 0;
    Instant now = clock.now();
    List<List<String>> queued = new ArrayList<>(podQueue);
    podQueue.clear();
    for (List<String> key : queued) {
      Pod pod = store.get(Pod.class, key.get(0), key.get(1)).orElse(null);
      if (pod == null) {
        continue;
      }
      Health h = health.get(pod.spec().nodeName());
      if (h == null || h.ready == null || h.ready == ConditionStatus.True
          || store.get(Node.class, "", pod.spec().nodeName()).isEmpty()) {
        continue;
      }
      try {
        writes += markPodNotReady(pod, now);
      } catch (NotFoundException e) {
        // the pod is gone
      } catch (FleetKitException e) {
        LOG.debug("node lifecycle: marking pod {}/{} not ready failed, retried at the next sync: {}", key.get(0),
            key.get(1), e.getMessage());
        podQueue.add(key); // upstream: requeued with rate limiting
      }
    }
    return writes;
  }

  /** Upstream ComputeZoneState. */
  public static ZoneState computeZoneState(List<ConditionStatus> readyConditions, double unhealthyZoneThreshold) {
    int ready = 0;
    int notReady = 0;
    for (ConditionStatus c : readyConditions) {
      if (c == ConditionStatus.True) {
        ready++;
      } else {
        notReady++;
      }
    }
    return computeZoneState(ready, notReady, unhealthyZoneThreshold);
  }

  private static ZoneState computeZoneState(int ready, int notReady, double unhealthyZoneThreshold) {
    if (ready == 0 && notReady > 0) {
      return ZoneState.FullDisruption;
    }
    if (notReady > 2 && (double) notReady / (notReady + ready) >= unhealthyZoneThreshold) {
      return ZoneState.PartialDisruption;
    }
    return ZoneState.Normal;
  }

  /** Upstream handleDisruption: zone states and tainting rates. */
  private int handleDisruption(Map<String, int[]> readyByZone, @Nullable List<Node> listed) {
    Map<String, ZoneState> next = new LinkedHashMap<>();
    boolean allFull = !readyByZone.isEmpty();
    for (Map.Entry<String, int[]> e : readyByZone.entrySet()) {
      ZoneState s = computeZoneState(e.getValue()[0], e.getValue()[1], unhealthyZoneThreshold);
      next.put(e.getKey(), s);
      allFull &= s == ZoneState.FullDisruption;
    }
    zoneStates.clear();
    zoneStates.putAll(next);
    int writes = 0;
    for (Map.Entry<String, ZoneState> e : next.entrySet()) {
      ZoneQueue q = zones.get(e.getKey());
      if (q == null) {
        continue;
      }
      int[] counts = readyByZone.get(e.getKey());
      int size = counts[0] + counts[1];
      q.qps = allFull ? 0 : switch (e.getValue()) {
        case Normal, Initial, FullDisruption -> evictionRate;
        case PartialDisruption -> size > largeClusterThreshold ? secondaryEvictionRate : 0;
      };
    }
    if (allFull) {
      // every zone is down: assume the control plane lost the network; stop evicting and untaint
      List<Node> nodes = listed != null ? listed : store.list(Node.class).items();
      for (Node n : nodes) {
        Node fresh = store.get(Node.class, "", n.name()).orElse(null);
        if (fresh != null && currentNoExecute(fresh) != null) {
          writes += writeNoExecute(fresh, null);
        }
      }
    }
    return writes;
  }

  /** Upstream doNoExecuteTaintingPass: taints the queued nodes each zone's rate allows. */
  private int taintPass() {
    int writes = 0;
    Instant now = clock.now();
    for (ZoneQueue q : zones.values()) {
      while (!q.nodes.isEmpty()) {
        String name = q.nodes.iterator().next();
        Node node = store.get(Node.class, "", name).orElse(null);
        NodeCondition ready = node == null ? null : node.status().condition(NodeCondition.READY);
        if (node == null || ready == null || ready.status() == ConditionStatus.True) {
          q.nodes.remove(name);
          continue;
        }
        if (!q.tryAccept(now)) {
          break;
        }
        q.nodes.remove(name);
        String key = ready.status() == ConditionStatus.False ? TAINT_NOT_READY : TAINT_UNREACHABLE;
        writes += writeNoExecute(node, key);
      }
    }
    return writes;
  }

  /** Upstream isNodeExcludedFromDisruptionChecks: whether the node carries {@link #EXCLUDE_DISRUPTION_LABEL}. */
  static boolean excludedFromDisruptionChecks(Node node) {
    return node.metadata().labels().containsKey(EXCLUDE_DISRUPTION_LABEL);
  }

  /** Upstream doNoExecuteTaintingPass, run now whatever the tainting timer; for tests. */
  int noExecuteTaintingPass() {
    return taintPass();
  }

  /**
   * The node's zone key, {@code region:zone}, from the topology labels or, where a node has not them, the deprecated
   * {@code failure-domain.beta.kubernetes.io} ones (upstream {@code nodetopology.GetZoneKey}).
   */
  static String zone(Node node) {
    Map<String, String> l = node.metadata().labels();
    String region = l.getOrDefault(REGION_LABEL, "");
    String zone = l.getOrDefault(ZONE_LABEL, "");
    if (region.isEmpty()) {
      region = l.getOrDefault(BETA_REGION_LABEL, "");
    }
    if (zone.isEmpty()) {
      zone = l.getOrDefault(BETA_ZONE_LABEL, "");
    }
    return region + ":" + zone;
  }

  /** Cancels the timers (and the node and pod watches). Idempotent. */
  @Override
  public void close() {
    if (nodeWatch != null) {
      nodeWatch.close();
      nodeWatch = null;
    }
    if (podWatch != null) {
      podWatch.close();
      podWatch = null;
    }
    if (timer != null) {
      timer.cancel();
      timer = null;
    }
    if (taintTimer != null) {
      taintTimer.cancel();
      taintTimer = null;
    }
  }

  /** Builder with kube's defaults; not thread-safe. */
  public static final class Builder {
    private final ObjectStore store;
    private final TimerClock clock;
    private Duration gracePeriod = Duration.ofSeconds(50);
    private Duration startupGracePeriod = Duration.ofSeconds(60);
    private Duration monitorPeriod = Duration.ofSeconds(5);
    private double evictionRate = 0.1;
    private double secondaryEvictionRate = 0.01;
    private double unhealthyZoneThreshold = 0.55;
    private int largeClusterThreshold = 50;
    private @Nullable NodeLeases leases;
    private EventRecorder events = EventRecorder.NOOP;
    private boolean visitEveryLeasedNode;

    private Builder(ObjectStore store, TimerClock clock) {
      this.store = Objects.requireNonNull(store, "store");
      this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** The node Leases the kubelets renew; a renewal counts as a heartbeat (default: none, status only). */
    public Builder leases(NodeLeases v) {
      leases = Objects.requireNonNull(v, "leases");
      return this;
    }

    /**
     * Where the node events ({@value EventRecorder#REGISTERED_NODE}, {@value EventRecorder#REMOVING_NODE},
     * {@value EventRecorder#NODE_NOT_READY}) and the pod events ({@value EventRecorder#NODE_NOT_READY}) go (default:
     * dropped).
     */
    public Builder events(EventRecorder v) {
      events = Objects.requireNonNull(v, "events");
      return this;
    }

    /** For tests: with Leases, every pass visits every node whose Lease runs, as before passes skipped them. */
    Builder visitEveryLeasedNode() {
      visitEveryLeasedNode = true;
      return this;
    }

    /** {@code --node-monitor-grace-period}: 50 s (kube v1.32+; 40 s before). */
    public Builder gracePeriod(Duration v) {
      gracePeriod = positive("gracePeriod", v);
      return this;
    }

    /** {@code --node-startup-grace-period}: 60 s. */
    public Builder startupGracePeriod(Duration v) {
      startupGracePeriod = positive("startupGracePeriod", v);
      return this;
    }

    /** {@code --node-monitor-period}: 5 s; whole seconds. */
    public Builder monitorPeriod(Duration v) {
      monitorPeriod = positive("monitorPeriod", v);
      if (v.toSeconds() < 1) {
        throw new IllegalArgumentException("node lifecycle controller: monitorPeriod " + v
            + " must be at least 1s");
      }
      return this;
    }

    /** {@code --node-eviction-rate} (nodes/s per zone, 0.1) and {@code --secondary-node-eviction-rate} (0.01). */
    public Builder evictionRates(double normal, double secondary) {
      if (!(normal >= 0) || !(secondary >= 0)) {
        throw new IllegalArgumentException("node lifecycle controller: eviction rates " + normal + ", "
            + secondary + " must not be negative");
      }
      evictionRate = normal;
      secondaryEvictionRate = secondary;
      return this;
    }

    /** {@code --unhealthy-zone-threshold} (0.55) and {@code --large-cluster-size-threshold} (50). */
    public Builder zoneThresholds(double unhealthy, int largeCluster) {
      if (!(unhealthy > 0 && unhealthy <= 1) || largeCluster < 0) {
        throw new IllegalArgumentException("node lifecycle controller: unhealthy zone threshold " + unhealthy
            + " must be in (0, 1] and large cluster threshold " + largeCluster + " not negative");
      }
      unhealthyZoneThreshold = unhealthy;
      largeClusterThreshold = largeCluster;
      return this;
    }

    private static Duration positive(String field, Duration v) {
      Objects.requireNonNull(v, field);
      if (v.isNegative() || v.isZero()) {
        throw new IllegalArgumentException("node lifecycle controller: " + field + " " + v + " must be positive");
      }
      return v;
    }

    public NodeLifecycleController build() {
      return new NodeLifecycleController(this);
    }
  }
}
