package io.fleetkit.scheduler.internal;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.framework.ClusterEvent;
import io.fleetkit.api.framework.CycleState;
import io.fleetkit.api.framework.EnqueueExtensions;
import io.fleetkit.api.framework.FilterPlugin;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.PreEnqueuePlugin;
import io.fleetkit.api.framework.SchedulerProfile;
import io.fleetkit.api.framework.Status;
import io.fleetkit.api.framework.WaitingPods;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.scheduler.PluginRegistry;
import io.fleetkit.scheduler.plugins.prioritysort.PrioritySortPlugin;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A scheduling queue set up as upstream's {@code NewTestQueue} in {@code scheduling_queue_test.go}: one profile with
 * PrioritySort, filter plugins whose registered events and queueing hints are upstream's {@code queueingHintMap}
 * (plugin, event, answer), optional PreEnqueue plugins admitting pods that carry an allow-listed label, and an explicit
 * clock ({@link #now}) in place of upstream's fake clock. The event handlers stand in for upstream's
 * {@code Add}/{@code Update}/{@code Delete}/{@code AssignedPodAdded}, which in FleetKit also keep the nominator.
 */
final class QueueHarness {
  static final long S = 1_000_000_000L;
  /** Upstream's defaults: 1 s initial and 10 s maximum backoff, 5 minutes in unschedulablePods. */
  static final long INITIAL_BACKOFF = S;
  static final long MAX_BACKOFF = 10 * S;
  static final long MAX_IN_UNSCHEDULABLE = 300 * S;

  /** A queueing hint: Queue (true), QueueSkip (false), or an error (thrown). */
  enum Hint { QUEUE, SKIP, ERROR }

  final Map<String, Map<ClusterEvent, Hint>> hints = new LinkedHashMap<>();
  final Map<String, List<String>> allowLists = new LinkedHashMap<>();
  /** Plugins of FleetKit's registry in the profile (with their own registered events and hints). */
  final List<String> realPlugins = new ArrayList<>();
  /** How many queueing hints ran. */
  int hintCalls;
  /** How many times each PreEnqueue plugin of {@link #preEnqueue} ran. */
  final Map<String, Integer> preEnqueueCalls = new HashMap<>();
  long now;
  Framework fw;
  SchedulingQueue q;
  final Nominator nominator = new Nominator();
  EventHandlers handlers;

  /** Registers {@code plugin}'s hint for {@code event} (plugins are created in the order first named). */
  QueueHarness hint(String plugin, ClusterEvent event, Hint hint) {
    hints.computeIfAbsent(plugin, k -> new LinkedHashMap<>()).put(event, hint);
    return this;
  }

  /** A filter plugin registering no event. */
  QueueHarness plugin(String plugin) {
    hints.computeIfAbsent(plugin, k -> new LinkedHashMap<>());
    return this;
  }

  /**
   * A PreEnqueue plugin admitting pods with one of {@code labels}. Named in {@link #hint} too, it is one plugin: a
   * gating plugin with those registered events and hints (upstream's {@code GatingPluginEvents}).
   */
  QueueHarness preEnqueue(String plugin, String... labels) {
    allowLists.put(plugin, new ArrayList<>(List.of(labels)));
    return this;
  }

  /** A plugin of FleetKit's registry (e.g. InterPodAffinity), its own events and hints. */
  QueueHarness realPlugin(String plugin) {
    realPlugins.add(plugin);
    return this;
  }

  QueueHarness build() {
    return build(INITIAL_BACKOFF, MAX_BACKOFF, MAX_IN_UNSCHEDULABLE);
  }

  QueueHarness build(long initialBackoff, long maxBackoff, long maxInUnschedulable) {
    PluginRegistry reg = PluginRegistry.defaults();
    SchedulerProfile.Builder b = SchedulerProfile.builder("default-scheduler").plugin(PrioritySortPlugin.NAME);
    for (String name : allowLists.keySet()) {
      reg = reg.with(name, h -> hints.containsKey(name) ? new HintedGate(name) : new Gate(name));
      b.plugin(name);
    }
    for (String name : hints.keySet()) {
      if (!allowLists.containsKey(name)) {
        reg = reg.with(name, h -> new Hinted(name));
        b.plugin(name);
      }
    }
    for (String name : realPlugins) {
      b.plugin(name);
    }
    fw = new Framework(b.build(), reg, Clock.systemUTC(), new ClusterSnapshot(), WaitingPods.NONE,
        new ClusterObjects());
    q = new SchedulingQueue(fw.queueSort, initialBackoff, maxBackoff, maxInUnschedulable);
    Map<String, Framework> fws = new HashMap<>();
    fws.put(fw.schedulerName(), fw);
    handlers = new EventHandlers(new SchedulerCache(30 * S), q, nominator,
        new WaitingPodsImpl(new EngineLock(), () -> now), new ClusterObjects(), fws, () -> now);
    return this;
  }

  private class Hinted implements FilterPlugin, EnqueueExtensions {
    private final String name;

    Hinted(String name) {
      this.name = name;
    }

    @Override
    public String name() {
      return name;
    }

    @Override
    public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
      return Status.unschedulable(name);
    }

    @Override
    public Set<ClusterEvent> eventsToRegister() {
      return hints.get(name).keySet();
    }

    @Override
    public boolean isSchedulableAfter(Pod pod, ClusterEvent event, Object oldObject, Object newObject) {
      hintCalls++;
      Hint hint = hints.get(name).get(event);
      if (hint == null && event.isTargetPodUpdate()) {
        hint = hints.get(name).get(ClusterEvent.TARGET_POD_UPDATE); // upstream's general Update covers it
      }
      return switch (hint) {
        case QUEUE -> true;
        case SKIP -> false;
        case ERROR -> throw new IllegalStateException("unexpected error");
      };
    }
  }

  /** Upstream's {@code preEnqueuePlugin}: admits a pod carrying one of the allow list's labels. */
  private final class Gate implements PreEnqueuePlugin {
    private final String name;

    Gate(String name) {
      this.name = name;
    }

    @Override
    public String name() {
      return name;
    }

    @Override
    public Status preEnqueue(Pod pod) {
      preEnqueueCalls.merge(name, 1, Integer::sum);
      for (String label : allowLists.get(name)) {
        if (pod.metadata().labels().containsKey(label)) {
          return Status.success();
        }
      }
      return Status.unresolvable("pod name not in allowlists");
    }
  }

  /** A {@link Hinted} filter plugin that gates at PreEnqueue as {@link Gate} does. */
  private final class HintedGate extends Hinted implements PreEnqueuePlugin {
    private final Gate gate;

    HintedGate(String name) {
      super(name);
      this.gate = new Gate(name);
    }

    @Override
    public Status preEnqueue(Pod pod) {
      return gate.preEnqueue(pod);
    }
  }

  // ------------------------------------------------------------------------------------------------ pods

  static Pod pod(String name, String namespace, int priority) {
    return Pod.builder().name(name).namespace(namespace).priority(priority)
        .container("app", "pause", ResourceList.ofCpuMemory(100, 1 << 20)).build();
  }

  static Pod nominated(Pod pod, String node) {
    return pod.toBuilder().status(pod.status().withNominatedNodeName(node)).build();
  }

  /** Upstream's {@code highPriorityPodInfo}: ns1/hpp, priority 1000. */
  static Pod hpp() {
    return pod("hpp", "ns1", 1000);
  }

  /** Upstream's {@code highPriNominatedPodInfo}: hpp nominated to node1. */
  static Pod hppNominated() {
    return nominated(hpp(), "node1");
  }

  /** Upstream's {@code medPriorityPodInfo}: ns2/mpp, priority 500, nominated to node1. */
  static Pod mpp() {
    return nominated(pod("mpp", "ns2", 500).toBuilder().annotation("annot2", "val2").build(), "node1");
  }

  /** Upstream's {@code unschedulablePodInfo}: ns1/up, priority 0, nominated to node1. */
  static Pod up() {
    return nominated(pod("up", "ns1", 0).toBuilder().annotation("annot2", "val2").build(), "node1");
  }

  // ------------------------------------------------------------------------------------------ operations

  /** Upstream's {@code q.Add}: a new pending pod, through the event handlers. */
  void add(Pod pod) {
    handlers.putPod(pod);
  }

  /** Upstream's {@code q.Update(old, new)}. */
  void update(Pod pod) {
    handlers.putPod(pod);
  }

  /** Upstream's {@code q.Delete}. */
  void delete(Pod pod) {
    handlers.removePod(pod.metadata().key());
  }

  QueuedPod pop() {
    return q.pop(now);
  }

  /** Pops and checks it is {@code pod}. */
  QueuedPod pop(Pod pod) {
    QueuedPod p = q.pop(now);
    if (p == null || !p.key().equals(pod.metadata().key())) {
      throw new AssertionError("expected " + pod.metadata().key() + " after pop, got " + (p == null ? null : p.key()));
    }
    return p;
  }

  /** Upstream's {@code AddUnschedulableIfNotPresent} of a popped pod rejected by {@code plugins}. */
  void requeue(QueuedPod p, String... plugins) {
    q.requeueAfterFailure(p, Status.Code.UNSCHEDULABLE, "rejected", Set.of(plugins), now);
  }

  /**
   * Upstream's {@code AddUnschedulableIfNotPresent} of a popped pod whose {@code UnschedulablePlugins} are
   * {@code unschedulable} and {@code PendingPlugins} {@code pending} (FleetKit's rejectors are both together).
   */
  void requeuePending(QueuedPod p, Set<String> unschedulable, Set<String> pending) {
    Set<String> rejectors = new java.util.HashSet<>(unschedulable);
    rejectors.addAll(pending);
    q.requeueAfterFailure(p, Status.Code.PENDING, "pending", Set.copyOf(rejectors), pending, now);
  }

  QueuedPod.Where where(Pod pod) {
    QueuedPod p = q.get(pod.metadata().key());
    return p == null ? QueuedPod.Where.NONE : p.where;
  }

  /** The names of the pods in {@code where}, sorted. */
  List<String> names(QueuedPod.Where where) {
    List<String> out = new ArrayList<>();
    for (QueuedPod p : q.entries()) {
      if (p.where == where) {
        out.add(p.info.pod().metadata().name());
      }
    }
    out.sort(null);
    return out;
  }

  /** Pops everything in activeQ (time unchanged), in order. */
  List<String> drain() {
    List<String> out = new ArrayList<>();
    QueuedPod p;
    while ((p = q.pop(now)) != null) {
      out.add(p.info.pod().metadata().name());
    }
    return out;
  }
}
