package io.fleetkit.scheduler.plugins.podtopologyspread;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.framework.ClusterEvent;
import io.fleetkit.api.framework.CycleState;
import io.fleetkit.api.framework.EnqueueExtensions;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.PluginFactory;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.PreFilterPlugin;
import io.fleetkit.api.framework.PreFilterResult;
import io.fleetkit.api.framework.PreScorePlugin;
import io.fleetkit.api.framework.ScorePlugin;
import io.fleetkit.api.framework.Snapshot;
import io.fleetkit.api.framework.StateKey;
import io.fleetkit.api.framework.Status;
import io.fleetkit.api.scheduling.RequiredNodeAffinity;
import io.fleetkit.api.scheduling.TopologySpreadConstraint;
import io.fleetkit.api.scheduling.UnsatisfiableConstraintAction;
import io.fleetkit.scheduler.nodetable.NodeTable;
import io.fleetkit.scheduler.nodetable.TableFilter;
import io.fleetkit.scheduler.nodetable.TableScore;
import io.fleetkit.scheduler.plugins.helper.ObjectChange;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * Pod topology spread, as kube-scheduler's {@code PodTopologySpread}
 * ({@code pkg/scheduler/framework/plugins/podtopologyspread}: {@code filtering.go}, {@code scoring.go},
 * {@code common.go}, {@code plugin.go}).
 *
 * <ul>
 *   <li>PreFilter compiles the pod's {@code DoNotSchedule} constraints (or the cluster defaults, see
 *       {@link PodTopologySpreadArgs}) and counts, once per pod, the matching pods (same namespace, not terminating)
 *       of every eligible domain: nodes holding all topology keys and passing the nodeAffinityPolicy/nodeTaintsPolicy.
 *       It returns Skip when no hard constraint applies.
 *   <li>Filter passes a node when, for every constraint, {@code count(domain) + selfMatch - globalMin <= maxSkew};
 *       the global min is 0 while fewer than {@code minDomains} domains exist. A node missing a topology key is
 *       UNSCHEDULABLE_AND_UNRESOLVABLE. O(constraints) lookups, allocation-free.
 *   <li>addPod/removePod update a copy of the counts for preemption's dry runs, keeping the minimum exact.
 *   <li>PreScore/Score rank by {@code ScheduleAnyway} constraints: {@code sum(count * log(#domains + 2) + maxSkew - 1)},
 *       then reverse min-max normalization; nodes missing a topology key score 0.
 *   <li>Queueing hints ({@link EnqueueExtensions}, {@link SpreadQueueingHints}): a pod this plugin rejected is retried
 *       when a bound pod its constraints select comes, goes or changes labels in its namespace, or a node gains, loses
 *       or changes a topology key (or its taints, when it holds them all).
 * </ul>
 *
 * <p>Thread-safe: immutable after construction; per-cycle data lives in the {@link CycleState}.
 */
public final class PodTopologySpreadPlugin
    implements PreFilterPlugin, TableFilter, PreScorePlugin, TableScore, EnqueueExtensions {
  /** The name this plugin is registered under. */
  public static final String NAME = "PodTopologySpread";
  /** Filter reason when the skew would exceed maxSkew (upstream ErrReasonConstraintsNotMatch). */
  public static final String ERR_REASON_CONSTRAINTS_NOT_MATCH = "node(s) didn't match pod topology spread constraints";
  /** Filter reason when the node lacks a topology key (upstream ErrReasonNodeLabelNotMatch). */
  public static final String ERR_REASON_NODE_LABEL_NOT_MATCH = ERR_REASON_CONSTRAINTS_NOT_MATCH
      + " (missing required label)";

  /**
   * Creates the plugin from the profile's args for {@link #NAME} (see {@link PodTopologySpreadArgs#fromMap}); the
   * snapshot of the running cycle comes from the handle.
   */
  public static final PluginFactory FACTORY = handle -> {
    java.util.Map<String, Object> args = handle.pluginArgs(NAME);
    if (!args.containsKey(PodTopologySpreadArgs.KEY_DEFAULT_SELECTOR)) {
      // kube's default: the workload selector comes from the Services, ReplicationControllers, ReplicaSets and
      // StatefulSets the scheduler knows
      args = new java.util.HashMap<>(args);
      args.put(PodTopologySpreadArgs.KEY_DEFAULT_SELECTOR, WorkloadSelectors.fromHandle(handle));
    }
    return new PodTopologySpreadPlugin(PodTopologySpreadArgs.fromMap(args), handle::snapshot);
  };

  static final StateKey<PreFilterState> PRE_FILTER_KEY = StateKey.of("PreFilter" + NAME, PreFilterState.class);
  static final StateKey<PreScoreState> PRE_SCORE_KEY = StateKey.of("PreScore" + NAME, PreScoreState.class);
  private static final Status CONSTRAINTS_NOT_MATCH = new Status(Status.Code.UNSCHEDULABLE,
      List.of(ERR_REASON_CONSTRAINTS_NOT_MATCH), NAME);
  private static final Status NODE_LABEL_NOT_MATCH = new Status(Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE,
      List.of(ERR_REASON_NODE_LABEL_NOT_MATCH), NAME);
  static final Status NO_PRE_FILTER_STATE = new Status(Status.Code.ERROR,
      List.of("reading \"PreFilter" + NAME + "\" from cycle state: PreFilter did not run"), NAME);

  private final PodTopologySpreadArgs args;
  private final Supplier<Snapshot> snapshot;
  private final PreFilterExtensions extensions = new DryRunUpdates();
  /** Counts per domain, with caches reused across cycles. */
  private final DomainCounter counter = new DomainCounter();
  /**
   * The default constraints compiled per action and workload selector (the workload selector replaces every
   * constraint's own, so the pod's labels play no part), so that successive pods of a workload share one compiled
   * selector, which the match counts then find by identity.
   */
  private final Map<UnsatisfiableConstraintAction, Map<LabelSelector, SpreadConstraint[]>> compiledDefaults =
      new EnumMap<>(UnsatisfiableConstraintAction.class);
  /** A pod's own constraints compiled per action, when none has matchLabelKeys (which read the pod's labels). */
  private final Map<UnsatisfiableConstraintAction, Map<List<TopologySpreadConstraint>, SpreadConstraint[]>>
      compiledOwn = new EnumMap<>(UnsatisfiableConstraintAction.class);
  private static final int MAX_COMPILED = 1024;

  /**
   * @param args default constraints and the workload-selector lookup
   * @param snapshot the snapshot of the running cycle; PreScore counts over all its nodes
   */
  public PodTopologySpreadPlugin(PodTopologySpreadArgs args, Supplier<Snapshot> snapshot) {
    this.args = Objects.requireNonNull(args, "args");
    this.snapshot = Objects.requireNonNull(snapshot, "snapshot");
    for (UnsatisfiableConstraintAction action : UnsatisfiableConstraintAction.values()) {
      compiledDefaults.put(action, new ConcurrentHashMap<>());
      compiledOwn.put(action, new ConcurrentHashMap<>());
    }
  }

  @Override
  public String name() {
    return NAME;
  }

  /**
   * Upstream's events, as FleetKit's: {@code Pod/Add}, {@code Pod/UpdatePodLabel} and {@code Pod/Delete} are
   * {@link ClusterEvent#ASSIGNED_POD_ADD}, {@link ClusterEvent#ASSIGNED_POD_UPDATE} and
   * {@link ClusterEvent#ASSIGNED_POD_DELETE}; {@code Node/Add} is {@link ClusterEvent#NODE_ADD};
   * {@code Node/UpdateNodeLabel} and {@code Node/UpdateNodeTaint} are {@link ClusterEvent#NODE_UPDATE}, FleetKit's
   * single update event for every node change a plugin reads. {@link #isSchedulableAfter} narrows them. Upstream's
   * {@code Node/Delete} has no counterpart (the engine sends no event when a node goes away). Upstream's
   * {@code Pod/UpdatePodLabel} and {@code Pod/UpdatePodToleration} also match the pending pod's own update:
   * {@link ClusterEvent#TARGET_POD_UPDATE_LABEL} and {@link ClusterEvent#TARGET_POD_UPDATE_TOLERATION}.
   */
  @Override
  public Set<ClusterEvent> eventsToRegister() {
    return EnumSet.of(ClusterEvent.ASSIGNED_POD_ADD, ClusterEvent.ASSIGNED_POD_UPDATE,
        ClusterEvent.ASSIGNED_POD_DELETE, ClusterEvent.NODE_ADD, ClusterEvent.NODE_UPDATE,
        ClusterEvent.TARGET_POD_UPDATE_LABEL, ClusterEvent.TARGET_POD_UPDATE_TOLERATION);
  }

  /**
   * Upstream's {@code isSchedulableAfterPodChange} and {@code isSchedulableAfterNodeChange}
   * ({@link SpreadQueueingHints}) over the pod's hard constraints. A pod event about a pod that is neither this one
   * nor bound in its namespace is skipped before the constraints are compiled. Objects of another type, an event
   * without its objects, constraints that do not compile, and other events, re-queue.
   */
  @Override
  public boolean isSchedulableAfter(Pod pod, ClusterEvent event, @Nullable Object oldObject,
      @Nullable Object newObject) {
    try {
      return switch (event) {
        case ASSIGNED_POD_ADD, ASSIGNED_POD_UPDATE, ASSIGNED_POD_DELETE, TARGET_POD_UPDATE_LABEL,
            TARGET_POD_UPDATE_TOLERATION -> {
          ObjectChange<Pod> c = ObjectChange.as(Pod.class, oldObject, newObject);
          if (c == null || (c.before() == null && c.after() == null)) {
            yield true;
          }
          if ((c.after() != null && !SpreadQueueingHints.involved(c.after(), pod))
              || (c.before() != null && !SpreadQueueingHints.involved(c.before(), pod))) {
            yield false;
          }
          yield SpreadQueueingHints.afterPodChange(pod,
              constraintsFor(pod, UnsatisfiableConstraintAction.DoNotSchedule), c.before(), c.after());
        }
        case NODE_ADD, NODE_UPDATE -> {
          ObjectChange<Node> c = ObjectChange.as(Node.class, oldObject, newObject);
          yield c == null || c.after() == null || SpreadQueueingHints.afterNodeChange(
              constraintsFor(pod, UnsatisfiableConstraintAction.DoNotSchedule), c.before(), c.after());
        }
        default -> true;
      };
    } catch (IllegalArgumentException e) {
      return true; // a selector that does not parse: upstream's error, whose answer is Queue
    }
  }

  @Override
  public PreFilterResult preFilter(CycleState state, PodInfo podInfo, Snapshot snapshot) {
    Pod pod = podInfo.pod();
    SpreadConstraint[] cs;
    try {
      cs = constraintsFor(pod, UnsatisfiableConstraintAction.DoNotSchedule);
    } catch (IllegalArgumentException e) {
      return PreFilterResult.of(Status.error("obtaining pod's hard topology spread constraints: " + e.getMessage())
          .withPlugin(NAME));
    }
    if (cs.length == 0) {
      state.write(PRE_FILTER_KEY, PreFilterState.EMPTY);
      return PreFilterResult.skip();
    }
    boolean[] selfMatch = new boolean[cs.length];
    for (int i = 0; i < cs.length; i++) {
      selfMatch[i] = cs[i].selector().matches(pod.metadata().labels());
    }
    RequiredNodeAffinity affinity = RequiredNodeAffinity.fromAffinity(pod.spec().nodeSelector(), pod.spec().affinity());
    NodeTable table = NodeTable.of(snapshot);
    DomainCounts[] domains = counter.hard(pod, cs, affinity, snapshot.nodes(), table);
    PreFilterState s = new PreFilterState(cs, selfMatch, domains, affinity, null);
    state.write(PRE_FILTER_KEY, table == null ? s : new PreFilterState(cs, selfMatch, domains, affinity,
        tablePath(s, table)));
    return PreFilterResult.success();
  }

  /** The most values a key may have for Filter to read numbered counts (built per pod, O(values)). */
  private static final int MAX_TABLE_DOMAINS = 256;

  /**
   * Filter's per-position answers from the table's numbering of each constraint's key, or {@code null} when a key
   * has too many values (per-node keys such as the hostname: numbering them would cost more per pod than Filter's
   * lookups save).
   */
  private static PreFilterState.@Nullable TablePath tablePath(PreFilterState s, NodeTable table) {
    SpreadConstraint[] cs = s.constraints;
    NodeTable.Domains[] keys = new NodeTable.Domains[cs.length];
    int[][] counts = new int[cs.length][];
    long[] limits = new long[cs.length];
    for (int i = 0; i < cs.length; i++) {
      NodeTable.Domains d = table.domains(cs[i].topologyKey());
      if (d.count() > MAX_TABLE_DOMAINS) {
        return null;
      }
      int[] c = new int[d.count()];
      for (int id = 0; id < c.length; id++) {
        c[id] = s.domains[i].count(d.value(id));
      }
      keys[i] = d;
      counts[i] = c;
      limits[i] = (long) cs[i].maxSkew() - (s.selfMatch[i] ? 1 : 0) + s.minMatchNum(i);
    }
    return new PreFilterState.TablePath(table, keys, counts, limits);
  }

  @Override
  public Status filter(CycleState state, PodInfo pod, NodeTable table, int node) {
    PreFilterState s = state.read(PRE_FILTER_KEY);
    PreFilterState.TablePath t = s == null ? null : s.tablePath;
    if (t == null || t.table() != table) {
      return filter(state, pod, table.view(node));
    }
    Status r = filterAt(s, t, node);
    return r == null ? Status.success() : r;
  }

  @Override
  public void filterAll(CycleState state, PodInfo pod, NodeTable table, int[] nodes, int from, int to, int[] failed,
      int mark, Status[] statuses) {
    PreFilterState s = state.read(PRE_FILTER_KEY);
    PreFilterState.TablePath t = s == null ? null : s.tablePath;
    if (t == null || t.table() != table) {
      TableFilter.super.filterAll(state, pod, table, nodes, from, to, failed, mark, statuses);
      return;
    }
    TableFilter.filterEach(nodes, from, to, failed, mark, statuses, node -> filterAt(s, t, node));
  }

  /** Filter of the node at {@code node} from the table path: {@code null} when it passes, else the status. */
  private static @Nullable Status filterAt(PreFilterState s, PreFilterState.TablePath t, int node) {
    NodeTable.Domains[] keys = t.keys();
    for (int i = 0; i < keys.length; i++) {
      int id = keys[i].id(node);
      if (id < 0) {
        return NODE_LABEL_NOT_MATCH;
      }
      int[] c = t.counts()[i];
      // a value numbered after PreFilter (the table is not written during a cycle, so never in practice) is looked up
      int count = id < c.length ? c[id] : s.domains[i].count(keys[i].value(id));
      if (count > t.limits()[i]) {
        return CONSTRAINTS_NOT_MATCH;
      }
    }
    return null;
  }

  @Override
  public PreFilterExtensions preFilterExtensions() {
    return extensions;
  }

  @Override
  public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
    PreFilterState s = state.read(PRE_FILTER_KEY);
    if (s == null) {
      return NO_PRE_FILTER_STATE;
    }
    SpreadConstraint[] cs = s.constraints;
    Map<String, String> labels = node.labels();
    for (int i = 0; i < cs.length; i++) {
      String value = labels.get(cs[i].topologyKey());
      if (value == null) {
        return NODE_LABEL_NOT_MATCH;
      }
      long skew = (long) s.domains[i].count(value) + (s.selfMatch[i] ? 1 : 0) - s.minMatchNum(i);
      if (skew > cs[i].maxSkew()) {
        return CONSTRAINTS_NOT_MATCH;
      }
    }
    return Status.success();
  }

  @Override
  public Status preScore(CycleState state, PodInfo podInfo, List<NodeInfo> feasibleNodes) {
    Snapshot current = snapshot.get();
    List<NodeInfo> all = current.nodes();
    if (all.isEmpty()) {
      return Status.skip();
    }
    Pod pod = podInfo.pod();
    SpreadConstraint[] cs;
    try {
      cs = constraintsFor(pod, UnsatisfiableConstraintAction.ScheduleAnyway);
    } catch (IllegalArgumentException e) {
      return Status.error("obtaining pod's soft topology spread constraints: " + e.getMessage()).withPlugin(NAME);
    }
    if (cs.length == 0) {
      return Status.skip();
    }
    // Only non-system-default spreading requires every topology key, so nodes without a zone label still get
    // hostname spreading from the system defaults.
    boolean requireAll = !pod.spec().topologySpreadConstraints().isEmpty()
        || args.defaultingType() != PodTopologySpreadArgs.DefaultingType.System;
    int[] ignored = new int[1];
    NodeTable table = NodeTable.of(current);
    int[] @Nullable [] byNode = table == null ? null : new int[cs.length][];
    @Nullable DomainCounts[] counts = counter.soft(pod, cs, requireAll, feasibleNodes, all, table, ignored, byNode);
    long written = counter.softCalls();
    double[] weights = new double[cs.length];
    for (int i = 0; i < cs.length; i++) {
      DomainCounts d = counts[i];
      weights[i] = Math.log((d == null ? feasibleNodes.size() - ignored[0] : d.size()) + 2);
    }
    String ns = pod.metadata().namespace();
    state.write(PRE_SCORE_KEY, new PreScoreState(cs, requireAll, counts, weights, ns,
        table == null || byNode == null ? null : scoreTablePath(cs, counts, table, byNode, counter, written)));
    return Status.success();
  }

  /**
   * Score's per-position answers: each domain constraint's counts by the table's value number, each hostname
   * constraint's by node position; {@code null} when a domain key has too many values or a hostname constraint's
   * per-node counts are not known.
   */
  private static PreScoreState.@Nullable TablePath scoreTablePath(SpreadConstraint[] cs,
      @Nullable DomainCounts[] counts, NodeTable table, int[] @Nullable [] byNode, DomainCounter counter, long written) {
    NodeTable.Domains[] keys = new NodeTable.Domains[cs.length];
    int[] @Nullable [] byValue = new int[cs.length][];
    for (int i = 0; i < cs.length; i++) {
      keys[i] = table.domains(cs[i].topologyKey());
      DomainCounts d = counts[i];
      if (d == null) {
        if (byNode[i] == null) {
          return null;
        }
        continue;
      }
      if (keys[i].count() > MAX_TABLE_DOMAINS) {
        return null;
      }
      int[] c = new int[keys[i].count()];
      for (int id = 0; id < c.length; id++) {
        c[id] = d.count(keys[i].value(id));
      }
      byValue[i] = c;
    }
    return new PreScoreState.TablePath(table, keys, byValue, byNode, counter, written);
  }

  @Override
  public long score(CycleState state, PodInfo pod, NodeTable table, int node) {
    PreScoreState s = state.read(PRE_SCORE_KEY);
    PreScoreState.TablePath t = s == null ? null : s.tablePath;
    if (t == null || t.table() != table || !t.current()) {
      return score(state, pod, table.view(node));
    }
    NodeTable.Domains[] keys = t.keys();
    if (s.requireAllTopologies) {
      for (NodeTable.Domains k : keys) {
        if (k.id(node) < 0) {
          return 0;
        }
      }
    }
    double score = 0;
    for (int i = 0; i < keys.length; i++) {
      int id = keys[i].id(node);
      if (id < 0) {
        continue;
      }
      int[] byValue = t.byValue()[i];
      long count;
      if (byValue == null) {
        count = t.byNode()[i][node];
      } else {
        count = id < byValue.length ? byValue[id] : s.counts[i].count(keys[i].value(id));
      }
      score += count * s.weights[i] + (s.constraints[i].maxSkew() - 1);
    }
    return Math.round(score);
  }

  @Override
  public long score(CycleState state, PodInfo pod, NodeInfo node) {
    PreScoreState s = state.read(PRE_SCORE_KEY);
    if (s == null || s.ignored(node)) {
      return 0;
    }
    Map<String, String> labels = node.labels();
    double score = 0;
    for (int i = 0; i < s.constraints.length; i++) {
      SpreadConstraint c = s.constraints[i];
      String value = labels.get(c.topologyKey());
      if (value == null) {
        continue;
      }
      DomainCounts d = s.counts[i];
      long count = d == null ? SpreadConstraint.countMatching(node.pods(), c.selector(), s.namespace) : d.count(value);
      score += count * s.weights[i] + (c.maxSkew() - 1);
    }
    return Math.round(score);
  }

  @Override
  public void normalizeScores(CycleState state, PodInfo pod, List<NodeInfo> nodes, long[] scores) {
    PreScoreState s = state.read(PRE_SCORE_KEY);
    if (s == null) {
      return;
    }
    long min = Long.MAX_VALUE;
    long max = 0;
    for (int i = 0; i < scores.length; i++) {
      if (!s.ignored(nodes.get(i))) {
        min = Math.min(min, scores[i]);
        max = Math.max(max, scores[i]);
      }
    }
    for (int i = 0; i < scores.length; i++) {
      if (s.ignored(nodes.get(i))) {
        scores[i] = 0;
      } else if (max == 0) {
        scores[i] = MAX_NODE_SCORE;
      } else {
        scores[i] = MAX_NODE_SCORE * (max + min - scores[i]) / max;
      }
    }
  }

  /**
   * The pod's constraints with {@code action} (upstream filterTopologySpreadConstraints), or, when the pod declares
   * none, the default constraints with {@code action} using the pod's workload selector (upstream
   * buildDefaultConstraints); empty when none applies.
   *
   * @throws IllegalArgumentException if a label selector is invalid
   */
  private SpreadConstraint[] constraintsFor(Pod pod, UnsatisfiableConstraintAction action) {
    List<TopologySpreadConstraint> own = pod.spec().topologySpreadConstraints();
    if (!own.isEmpty()) {
      for (int i = 0, n = own.size(); i < n; i++) {
        if (!own.get(i).matchLabelKeys().isEmpty()) {
          return SpreadConstraint.compile(own, pod.metadata().labels(), action, null);
        }
      }
      return compiled(compiledOwn, own, () -> SpreadConstraint.compile(own, Map.of(), action, null), action);
    }
    List<TopologySpreadConstraint> defaults = args.effectiveDefaults();
    boolean any = false;
    for (TopologySpreadConstraint c : defaults) {
      any |= c.whenUnsatisfiable() == action;
    }
    if (!any) {
      return SpreadConstraint.NONE;
    }
    LabelSelector workload = args.defaultSelector().apply(pod);
    if (workload == null || (workload.matchLabels().isEmpty() && workload.matchExpressions().isEmpty())) {
      return SpreadConstraint.NONE;
    }
    return compiled(compiledDefaults, workload,
        () -> SpreadConstraint.compile(defaults, pod.metadata().labels(), action, workload.toSelector()), action);
  }

  /**
   * The constraints {@code compile} makes, remembered in {@code cache} under {@code action} and {@code key} (a failure
   * to compile is not remembered).
   */
  private static <K> SpreadConstraint[] compiled(Map<UnsatisfiableConstraintAction, Map<K, SpreadConstraint[]>> cache,
      K key, Supplier<SpreadConstraint[]> compile, UnsatisfiableConstraintAction action) {
    Map<K, SpreadConstraint[]> byKey = cache.get(action);
    SpreadConstraint[] cs = byKey.get(key);
    if (cs == null) {
      cs = compile.get();
      if (byKey.size() >= MAX_COMPILED) {
        byKey.clear();
      }
      byKey.put(key, cs);
    }
    return cs;
  }
}
