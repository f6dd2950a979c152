package io.fleetkit.scheduler.plugins.noderesources;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.framework.ClusterEvent;
import io.fleetkit.api.framework.CycleState;
import io.fleetkit.api.framework.EnqueueExtensions;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.PluginFactory;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.PreFilterPlugin;
import io.fleetkit.api.framework.PreFilterResult;
import io.fleetkit.api.framework.PreScorePlugin;
import io.fleetkit.api.framework.Snapshot;
import io.fleetkit.api.framework.StateKey;
import io.fleetkit.api.framework.Status;
import io.fleetkit.scheduler.nodetable.NodeTable;
import io.fleetkit.scheduler.nodetable.TableFilter;
import io.fleetkit.scheduler.nodetable.TableScore;
import io.fleetkit.scheduler.plugins.helper.ObjectChange;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * kube's {@code NodeResourcesFit}: does the node have room for the pod, and how full would it be.
 *
 * <p>Filter rejects a node when one more pod exceeds its {@code pods} allocatable ("Too many pods") or when any
 * requested resource exceeds what is left ({@code allocatable - requested}): "Insufficient cpu", "Insufficient
 * memory", "Insufficient ephemeral-storage", "Insufficient nvidia.com/gpu", ... — every shortage is reported. The
 * status is UnschedulableAndUnresolvable when some request exceeds the node's whole allocatable (preemption cannot
 * help), else Unschedulable. Score applies the configured {@link ScoringStrategy}.
 *
 * <p>Queueing hints ({@link EnqueueExtensions}, {@link FitQueueingHints}): a pod this plugin rejected is retried when
 * a bound pod goes away or scales down a resource it requests, or a node it fits is added or gains room for it.
 *
 * <p>Thread-safe and immutable; Filter and Score allocate nothing when the node fits.
 */
public final class NodeResourcesFitPlugin
    implements PreFilterPlugin, TableFilter, PreScorePlugin, TableScore, EnqueueExtensions {
  public static final String NAME = "NodeResourcesFit";
  public static final String REASON_TOO_MANY_PODS = "Too many pods";
  public static final String REASON_INSUFFICIENT_CPU = "Insufficient cpu";
  public static final String REASON_INSUFFICIENT_MEMORY = "Insufficient memory";
  public static final String REASON_INSUFFICIENT_EPHEMERAL_STORAGE = "Insufficient ephemeral-storage";

  /** Builds the plugin from the profile's args for {@value #NAME}. */
  public static final PluginFactory FACTORY =
      handle -> new NodeResourcesFitPlugin(NodeResourcesFitArgs.fromMap(handle.pluginArgs(NAME)));

  static final StateKey<PodResourceRequest> PRE_FILTER_KEY =
      StateKey.of("PreFilter" + NAME, PodResourceRequest.class);
  static final StateKey<long[]> PRE_SCORE_KEY = StateKey.of("PreScore" + NAME, long[].class);

  private static final Status TOO_MANY_PODS = Status.unschedulable(REASON_TOO_MANY_PODS);
  private static final Status CPU = Status.unschedulable(REASON_INSUFFICIENT_CPU);
  private static final Status CPU_UNRESOLVABLE = Status.unresolvable(REASON_INSUFFICIENT_CPU);
  private static final Status MEMORY = Status.unschedulable(REASON_INSUFFICIENT_MEMORY);
  private static final Status MEMORY_UNRESOLVABLE = Status.unresolvable(REASON_INSUFFICIENT_MEMORY);
  private static final Status STORAGE = Status.unschedulable(REASON_INSUFFICIENT_EPHEMERAL_STORAGE);
  private static final Status STORAGE_UNRESOLVABLE = Status.unresolvable(REASON_INSUFFICIENT_EPHEMERAL_STORAGE);

  private final NodeResourcesFitArgs args;
  private final ResourceVector resources;
  private final FitScorer scorer;
  private final FitQueueingHints hints;

  public NodeResourcesFitPlugin(NodeResourcesFitArgs args) {
    this.args = Objects.requireNonNull(args, "args");
    this.resources = new ResourceVector(args.scoringStrategy().resources(), false);
    this.scorer = FitScorer.of(args.scoringStrategy());
    this.hints = new FitQueueingHints(args);
  }

  /** With kube's defaults (LeastAllocated over cpu and memory). */
  public NodeResourcesFitPlugin() {
    this(NodeResourcesFitArgs.DEFAULT);
  }

  /** The reason for a shortage of {@code resourceName}: {@code "Insufficient " + resourceName}. */
  public static String insufficient(String resourceName) {
    return "Insufficient " + resourceName;
  }

  public NodeResourcesFitArgs args() {
    return args;
  }

  @Override
  public String name() {
    return NAME;
  }

  /**
   * Upstream's events, as FleetKit's: {@code Pod/Delete} is {@link ClusterEvent#ASSIGNED_POD_DELETE};
   * {@code Pod/UpdatePodScaleDown} (in-place resize) is {@link ClusterEvent#ASSIGNED_POD_UPDATE}, which the engine
   * sends for a bound pod whose node, labels or requests changed; {@code Node/Add} is {@link ClusterEvent#NODE_ADD};
   * {@code Node/UpdateNodeAllocatable} is {@link ClusterEvent#NODE_UPDATE}, FleetKit's single update event for every
   * node change a plugin reads. {@link #isSchedulableAfter} narrows the coarse events to the changes that matter.
   * Upstream's {@code TargetPod/UpdatePodScaleDown}, the rejected pod itself asking for less, is
   * {@link ClusterEvent#TARGET_POD_UPDATE_SCALE_DOWN}.
   */
  @Override
  public Set<ClusterEvent> eventsToRegister() {
    return EnumSet.of(ClusterEvent.ASSIGNED_POD_DELETE, ClusterEvent.ASSIGNED_POD_UPDATE, ClusterEvent.NODE_ADD,
        ClusterEvent.NODE_UPDATE, ClusterEvent.TARGET_POD_UPDATE_SCALE_DOWN);
  }

  /**
   * Upstream's {@code isSchedulableAfterPodEvent} for pod events (the pod's own scale-down included: upstream's
   * {@code isSchedulableAfterTargetPodScaleDown}, yes) and {@code isSchedulableAfterNodeChange} for node events
   * ({@link FitQueueingHints}). Objects of another type, an event without its objects, and other events, re-queue.
   */
  @Override
  public boolean isSchedulableAfter(Pod pod, ClusterEvent event, @Nullable Object oldObject,
      @Nullable Object newObject) {
    return switch (event) {
      case ASSIGNED_POD_DELETE, ASSIGNED_POD_UPDATE, TARGET_POD_UPDATE_SCALE_DOWN -> {
        ObjectChange<Pod> c = ObjectChange.as(Pod.class, oldObject, newObject);
        yield c == null || hints.afterPodEvent(pod, c.before(), c.after());
      }
      case NODE_ADD, NODE_UPDATE -> {
        ObjectChange<Node> c = ObjectChange.as(Node.class, oldObject, newObject);
        yield c == null || c.after() == null || hints.afterNodeChange(pod, c.before(), c.after());
      }
      default -> true;
    };
  }

  /** The queueing hints, for tests. */
  FitQueueingHints hints() {
    return hints;
  }

  @Override
  public PreFilterResult preFilter(CycleState state, PodInfo pod, Snapshot snapshot) {
    state.write(PRE_FILTER_KEY,
        PodResourceRequest.of(pod.requests(), args.ignoredResources(), args.ignoredResourceGroups()));
    return PreFilterResult.success();
  }

  @Override
  public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
    PodResourceRequest r = state.read(PRE_FILTER_KEY);
    if (r == null) {
      return noPreFilter();
    }
    ResourceList a = node.allocatable();
    return fit(r, node.podCount(), a.pods(), a.milliCpu(), node.requestedMilliCpu(), a.memoryBytes(),
        node.requestedMemory(), a.ephemeralStorageBytes(), node.requestedEphemeralStorage(), node);
  }

  @Override
  public Status filter(CycleState state, PodInfo pod, NodeTable table, int node) {
    PodResourceRequest r = state.read(PRE_FILTER_KEY);
    if (r == null) {
      return noPreFilter();
    }
    return fit(r, table.podCount(node), table.allocatablePods(node), table.allocatableMilliCpu(node),
        table.requestedMilliCpu(node), table.allocatableMemory(node), table.requestedMemory(node),
        table.allocatableEphemeralStorage(node), table.requestedEphemeralStorage(node),
        r.scalarNames.length == 0 ? null : table.view(node));
  }

  /**
   * Filter over a range: a node whose numbers fit (the common case) passes on comparisons alone; a node that does not
   * gets its status from the per-node path's {@code fit} on the same numbers. Pods with extended resources take the per-node path throughout.
   */
  @Override
  public void filterAll(CycleState state, PodInfo pod, NodeTable table, int[] nodes, int from, int to, int[] failed,
      int mark, Status[] statuses) {
    PodResourceRequest r = state.read(PRE_FILTER_KEY);
    if (r == null || r.scalarNames.length > 0) {
      TableFilter.super.filterAll(state, pod, table, nodes, from, to, failed, mark, statuses);
      return;
    }
    long cpu = r.milliCpu;
    long memory = r.memory;
    long storage = r.ephemeralStorage;
    for (int pos = from; pos < to; pos++) {
      if (failed[pos] >= 0) {
        continue;
      }
      int node = nodes[pos];
      // fit()'s tests on the table's precomputed differences (podCount + 1 <= pods <=> pods - podCount >= 1); the
      // differences' overflow sentinel makes a node look full, and the per-node path then judges it exactly
      boolean fits = table.freePods(node) >= 1
          && (cpu <= 0 || cpu <= table.freeMilliCpu(node))
          && (memory <= 0 || memory <= table.freeMemory(node))
          && (storage <= 0 || storage <= table.freeEphemeralStorage(node));
      if (!fits) {
        Status s = fit(r, table.podCount(node), table.allocatablePods(node), table.allocatableMilliCpu(node),
            table.requestedMilliCpu(node), table.allocatableMemory(node), table.requestedMemory(node),
            table.allocatableEphemeralStorage(node), table.requestedEphemeralStorage(node), null);
        if (s.code() != Status.Code.SUCCESS) {
          failed[pos] = mark;
          statuses[pos] = s;
        }
      }
    }
  }

  private static Status noPreFilter() {
    return Status.error("cycle state has no " + PRE_FILTER_KEY.name() + ": PreFilter of " + NAME + " did not run");
  }

  /**
   * Filter's pod-count rule: a node with {@code podCount} pods and {@code allocatablePods} allocatable pods has room
   * for one more pod ("Too many pods" otherwise). Pure; with {@link #requestFits}, the whole of Filter's decision for
   * a pod without extended resources, for callers that keep a node's numbers in their own form (the cluster
   * autoscaler's drain simulation decides on arrays of them).
   */
  public static boolean roomForOneMorePod(long podCount, long allocatablePods) {
    return podCount + 1 <= allocatablePods;
  }

  /**
   * Filter's rule for one of cpu, memory and ephemeral storage: a pod requesting {@code request} of it fits on a node
   * with {@code allocatable} of which {@code requested} is requested by its pods when the request is not positive or
   * at most {@code allocatable - requested} ("Insufficient cpu", ... otherwise). Pure (see {@link #roomForOneMorePod}).
   */
  public static boolean requestFits(long request, long allocatable, long requested) {
    return request <= 0 || request <= allocatable - requested;
  }

  /**
   * Filter on the node's numbers; {@code node} (read for extended resources only) may be null when the pod requests
   * none.
   */
  static Status fit(PodResourceRequest r, int podCount, long podsAlloc, long cpuAlloc, long cpuRequested,
      long memAlloc, long memRequested, long storageAlloc, long storageRequested, @Nullable NodeInfo node) {
    Failures f = null;
    Status first = null;
    if (!roomForOneMorePod(podCount, podsAlloc)) {
      first = TOO_MANY_PODS;
    }
    if (!requestFits(r.milliCpu, cpuAlloc, cpuRequested)) {
      Status s = r.milliCpu > cpuAlloc ? CPU_UNRESOLVABLE : CPU;
      if (first == null) {
        first = s;
      } else {
        f = Failures.add(f, first, s);
      }
    }
    if (!requestFits(r.memory, memAlloc, memRequested)) {
      Status s = r.memory > memAlloc ? MEMORY_UNRESOLVABLE : MEMORY;
      if (first == null) {
        first = s;
      } else {
        f = Failures.add(f, first, s);
      }
    }
    if (!requestFits(r.ephemeralStorage, storageAlloc, storageRequested)) {
      Status s = r.ephemeralStorage > storageAlloc ? STORAGE_UNRESOLVABLE : STORAGE;
      if (first == null) {
        first = s;
      } else {
        f = Failures.add(f, first, s);
      }
    }
    boolean scalars = r.scalarNames.length > 0 && node != null;
    ResourceList allocatable = scalars ? node.allocatable() : ResourceList.EMPTY;
    ResourceList requested = scalars ? node.requested() : ResourceList.EMPTY;
    for (int i = 0; i < r.scalarNames.length; i++) {
      String name = r.scalarNames[i];
      long want = r.scalarValues[i];
      long alloc = allocatable.value(name);
      if (want > alloc - requested.value(name)) {
        Status s = r.scalarStatuses[2 * i + (want > alloc ? 1 : 0)];
        if (first == null) {
          first = s;
        } else {
          f = Failures.add(f, first, s);
        }
      }
    }
    if (f != null) {
      return f.status();
    }
    return first == null ? Status.success() : first;
  }

  @Override
  public Status preScore(CycleState state, PodInfo pod, List<NodeInfo> feasibleNodes) {
    state.write(PRE_SCORE_KEY, resources.podRequests(pod));
    return Status.success();
  }

  @Override
  public long score(CycleState state, PodInfo pod, NodeInfo node) {
    return scorer.score(resources, node, podRequests(state, pod));
  }

  @Override
  public long score(CycleState state, PodInfo pod, NodeTable table, int node) {
    return scorer.score(resources, table, node, podRequests(state, pod));
  }

  @Override
  public void scoreAll(CycleState state, PodInfo pod, NodeTable table, int[] nodes, int from, int to, long[] out) {
    scorer.scoreAll(resources, table, nodes, from, to, podRequests(state, pod), out);
  }

  /** The score depends on the node and the pod's request vector alone (the strategy is fixed per instance). */
  @Override
  public long[] scoreKey(CycleState state, PodInfo pod) {
    return podRequests(state, pod);
  }

  private long[] podRequests(CycleState state, PodInfo pod) {
    long[] podRequests = state.read(PRE_SCORE_KEY);
    return podRequests != null ? podRequests : resources.podRequests(pod); // as kube: PreScore skipped, on the fly
  }

  /** Two or more shortages on one node: the rare path, which allocates. */
  private static final class Failures {
    private final List<String> reasons = new ArrayList<>(4);
    private boolean unresolvable;

    static Failures add(@Nullable Failures f, Status first, Status next) {
      if (f == null) {
        f = new Failures();
        f.take(first);
      }
      f.take(next);
      return f;
    }

    private void take(Status s) {
      reasons.addAll(s.reasons());
      unresolvable |= s.code() == Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE;
    }

    Status status() {
      return new Status(unresolvable ? Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE : Status.Code.UNSCHEDULABLE,
          reasons, null);
    }
  }
}
