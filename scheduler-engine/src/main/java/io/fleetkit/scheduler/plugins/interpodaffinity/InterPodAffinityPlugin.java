package io.fleetkit.scheduler.plugins.interpodaffinity;

import io.fleetkit.api.core.Namespace;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
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
import io.fleetkit.scheduler.nodetable.NodeTable;
import io.fleetkit.scheduler.nodetable.TableFilter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.Set;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * Inter-pod affinity and anti-affinity, as kube-scheduler's InterPodAffinity plugin
 * ({@code pkg/scheduler/framework/plugins/interpodaffinity}: filtering.go, scoring.go, plugin.go).
 *
 * <p><b>Filter.</b> A node passes when (1) for the incoming pod's required affinity, its topology domain of every
 * term holds an existing pod matching all terms (or no pod in the cluster matches and the pod matches its own terms:
 * the first pod of a group), (2) no domain of a required anti-affinity term holds a matching pod, and (3) no existing
 * pod's required anti-affinity term matching the incoming pod covers the node (symmetry). PreFilter counts matches
 * per topology pair once per pod; terms keyed by {@code kubernetes.io/hostname} are instead checked against the
 * node's own pods in Filter (upstream's hostname fast path), which assumes hostname label values are unique per node.
 * Reasons and codes are upstream's: {@value #ERR_AFFINITY_RULES_NOT_MATCH} (UnschedulableAndUnresolvable),
 * {@value #ERR_ANTI_AFFINITY_RULES_NOT_MATCH} and {@value #ERR_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH}
 * (Unschedulable).
 *
 * <p><b>Score.</b> Per topology pair, the weights of the incoming pod's preferred terms matched by existing pods
 * (anti-affinity negative), plus the existing pods' preferred terms and, with weight {@code hardPodAffinityWeight},
 * required affinity terms matched by the incoming pod; a node scores the sum over its pairs, then min-max
 * normalized to 0..100.
 *
 * <p><b>Namespaces.</b> A term's namespaces are its list, or the pod's own namespace when both the list and the
 * namespace selector are absent; a namespace selector is matched against {@link InterPodAffinityArgs#namespaceLabels}
 * (by default every namespace has no labels, so only an empty selector {@code {}} selects anything;
 * {@link NamespaceLookups#in} reads the store's Namespaces). {@code matchLabelKeys}/{@code mismatchLabelKeys} are
 * merged into the selector as kube-apiserver does.
 *
 * <p><b>Re-queueing.</b> As upstream's {@code EventsToRegister} and queueing hints ({@link QueueingHints}): a
 * rejected pod is retried after an assigned pod is added, changed or deleted in a way that may satisfy its terms, and
 * after a node is added or changes a topology label its terms use; and, beyond upstream, after a Namespace changes
 * ({@link ClusterEvent#NAMESPACE_UPDATE}) so that its terms' selection of that namespace changed the helpful way (a
 * namespace gaining a label can satisfy a {@code namespaceSelector}), or the namespace is the pod's own.
 *
 * <p>Thread-safe; Filter and Score do not allocate.
 */
public final class InterPodAffinityPlugin
    implements PreFilterPlugin, PreFilterPlugin.PreFilterExtensions, TableFilter, PreScorePlugin, ScorePlugin,
    EnqueueExtensions {
  public static final String NAME = "InterPodAffinity";
  public static final String ERR_AFFINITY_RULES_NOT_MATCH = "node(s) didn't match pod affinity rules";
  public static final String ERR_ANTI_AFFINITY_RULES_NOT_MATCH = "node(s) didn't match pod anti-affinity rules";
  public static final String ERR_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH =
      "node(s) didn't satisfy existing pods anti-affinity rules";
  /** The well-known hostname label ({@code v1.LabelHostname}). */
  public static final String LABEL_HOSTNAME = "kubernetes.io/hostname";

  /** Creates the plugin with the profile's args ({@link InterPodAffinityArgs#fromMap}) and the cycle snapshot. */
  public static final PluginFactory FACTORY =
      h -> new InterPodAffinityPlugin(InterPodAffinityArgs.fromMap(h.pluginArgs(NAME)), h::snapshot);

  static final StateKey<PreFilterState> PRE_FILTER_KEY = StateKey.of("PreFilter" + NAME, PreFilterState.class);
  static final StateKey<PreScoreState> PRE_SCORE_KEY = StateKey.of("PreScore" + NAME, PreScoreState.class);
  /** The memo version PreFilter left, so that PreScore of the same cycle need not walk the nodes again. */
  private static final StateKey<Long> MEMO_VERSION_KEY = StateKey.of("NodeMemo" + NAME, Long.class);

  private static final Status AFFINITY_REJECTED = Status.unresolvable(ERR_AFFINITY_RULES_NOT_MATCH);
  private static final Status ANTI_AFFINITY_REJECTED = Status.unschedulable(ERR_ANTI_AFFINITY_RULES_NOT_MATCH);
  private static final Status EXISTING_ANTI_AFFINITY_REJECTED =
      Status.unschedulable(ERR_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH);
  private static final Status NO_PRE_FILTER_STATE =
      Status.error("error reading \"PreFilter" + NAME + "\" from cycleState: not found");

  private final InterPodAffinityArgs args;
  private final Supplier<Snapshot> snapshots;
  private final QueueingHints hints;
  /** Which nodes hold pods with relevant terms, kept across cycles (guarded by its own monitor). */
  private final NodeMemo memo = new NodeMemo();
  /** Running per-topology-pair counts of pods matching the incoming pods' terms (guarded by the memo's monitor). */
  private final MatchIndex.Cache matchIndexes = new MatchIndex.Cache();
  /** Running per-topology-pair score sums of existing pods' terms (guarded by the memo's monitor). */
  private final ScoreIndex.Cache scoreIndexes = new ScoreIndex.Cache();
  private static final List<String> HOSTNAME_KEY = List.of(LABEL_HOSTNAME);

  /**
   * @param args the plugin's arguments
   * @param snapshots the snapshot of the running cycle (PreScore needs every node, not just the feasible ones)
   */
  public InterPodAffinityPlugin(InterPodAffinityArgs args, Supplier<Snapshot> snapshots) {
    this.args = Objects.requireNonNull(args, "args");
    this.snapshots = Objects.requireNonNull(snapshots, "snapshots");
    this.hints = new QueueingHints(args.namespaceLabels());
  }

  @Override
  public String name() {
    return NAME;
  }

  /**
   * Upstream's Pod (Add, UpdatePodLabel, Delete) and Node (Add, UpdateNodeLabel, UpdateNodeTaint) events, plus
   * namespace changes. Upstream's {@code Pod/UpdatePodLabel} also matches the pending pod's own label change:
   * {@link ClusterEvent#TARGET_POD_UPDATE_LABEL}, which its hint answers yes.
   */
  @Override
  public Set<ClusterEvent> eventsToRegister() {
    return EnumSet.of(ClusterEvent.ASSIGNED_POD_ADD, ClusterEvent.ASSIGNED_POD_UPDATE,
        ClusterEvent.ASSIGNED_POD_DELETE, ClusterEvent.NODE_ADD, ClusterEvent.NODE_UPDATE,
        ClusterEvent.NAMESPACE_UPDATE, ClusterEvent.TARGET_POD_UPDATE_LABEL);
  }

  /**
   * The per-pod queueing hints ({@link QueueingHints}): upstream's {@code isSchedulableAfterPodChange} for assigned
   * pods, {@code isSchedulableAfterNodeChange} for nodes, and FleetKit's namespace hint. An event without its objects
   * re-queues.
   */
  @Override
  public boolean isSchedulableAfter(Pod pod, ClusterEvent event, @Nullable Object oldObject,
      @Nullable Object newObject) {
    return switch (event) {
      case ASSIGNED_POD_ADD, ASSIGNED_POD_UPDATE, ASSIGNED_POD_DELETE, TARGET_POD_UPDATE_LABEL ->
          oldObject instanceof Pod || newObject instanceof Pod
              ? hints.afterPodChange(pod, (Pod) oldObject, (Pod) newObject) : true;
      case NODE_ADD, NODE_UPDATE -> newObject instanceof Node n ? QueueingHints.afterNodeChange(pod,
          oldObject instanceof Node o ? o : null, n) : true;
      case NAMESPACE_UPDATE -> QueueingHints.afterNamespaceChange(pod,
          oldObject instanceof Namespace n ? n : null, newObject instanceof Namespace n ? n : null);
      default -> true;
    };
  }

  public InterPodAffinityArgs args() {
    return args;
  }

  // ---- PreFilter / Filter (filtering.go) ----

  @Override
  public PreFilterResult preFilter(CycleState state, PodInfo podInfo, Snapshot snapshot) {
    Pod pod = podInfo.pod();
    PodTerms terms = PodTerms.of(pod);
    if (terms.error != null) {
      return PreFilterResult.of(Status.unresolvable("parsing pod: " + terms.error));
    }
    if (!terms.hasRequired() && snapshot.nodesWithRequiredAntiAffinityPods().isEmpty()) {
      // Nothing to count and nothing to check: the Skip the full computation below would reach, without its state.
      return PreFilterResult.skip();
    }
    PreFilterState s = new PreFilterState(pod, terms, AffinityTerm.NamespaceLabels.memoized(args.namespaceLabels()),
        namespaceLabels(pod));
    boolean hostScopedExistingAnti;
    NodeTable table = NodeTable.of(snapshot);
    synchronized (memo) {
      boolean refreshed = false;
      hostScopedExistingAnti = false;
      if (!snapshot.nodesWithRequiredAntiAffinityPods().isEmpty()) {
        refreshMemo(state, snapshot.nodes(), table);
        refreshed = true;
        hostScopedExistingAnti = countExistingAntiAffinity(s);
      }
      boolean incoming = !s.allAffinity.isEmpty() || !s.nonHostScopedAntiAffinity.isEmpty();
      if ((incoming || !s.hostScopedAffinity.isEmpty()) && indexable(s)) {
        if (!refreshed) {
          refreshMemo(state, snapshot.nodes(), table);
        }
        countIncomingIndexed(s);
      } else {
        if (incoming) {
          Filtering.countIncoming(s, snapshot.nodes());
        }
        if (!s.hostScopedAffinity.isEmpty()) {
          s.hasMatchingHostScopedAffinityPodGlobally =
              Filtering.anyPodMatchesAll(s.hostScopedAffinity, s, snapshot.nodes());
        }
      }
    }
    if (s.existingAntiAffinityCounts.isEmpty() && !hostScopedExistingAnti && !terms.hasRequired()) {
      return PreFilterResult.skip();
    }
    if (table != null) {
      s.tablePath = tablePath(state, s, snapshot, table, hostScopedExistingAnti);
    }
    state.write(PRE_FILTER_KEY, s);
    return PreFilterResult.success();
  }

  private void refreshMemo(CycleState state, List<NodeInfo> nodes, @Nullable NodeTable table) {
    memo.refresh(nodes, table);
    state.write(MEMO_VERSION_KEY, memo.version());
  }

  /**
   * Filter's per-position answers when they reduce to array reads: no required affinity, no topology-pair counts,
   * hostname-scoped anti-affinity terms that can be indexed; else {@code null} (Filter reads the views).
   */
  private PreFilterState.@Nullable TablePath tablePath(CycleState state, PreFilterState s, Snapshot snapshot,
      NodeTable table, boolean hostScopedExistingAnti) {
    if (!s.hostScopedAffinity.isEmpty() || !s.allAffinity.isEmpty() || !s.antiAffinityCounts.isEmpty()
        || !s.existingAntiAffinityCounts.isEmpty()) {
      return null;
    }
    boolean[] hostAnti = null;
    if (!s.hostScopedAntiAffinity.isEmpty()) {
      if (!MatchIndex.usable(s.hostScopedAntiAffinity)) {
        return null;
      }
      synchronized (memo) {
        refreshMemo(state, snapshot.nodes(), table);
        List<AffinityTerm> terms = s.hostScopedAntiAffinity;
        hostAnti = matchIndexes.get(List.of(terms.get(0)), HOSTNAME_KEY, memo).matching(); // shared: read only
        if (terms.size() > 1) {
          hostAnti = hostAnti.clone();
          for (int k = 1; k < terms.size(); k++) {
            boolean[] more = matchIndexes.get(List.of(terms.get(k)), HOSTNAME_KEY, memo).matching();
            if (more.length > hostAnti.length) {
              hostAnti = Arrays.copyOf(hostAnti, more.length);
            }
            for (int i = 0; i < more.length; i++) {
              hostAnti[i] |= more[i];
            }
          }
        }
      }
    }
    return new PreFilterState.TablePath(table, table.domains(LABEL_HOSTNAME), hostAnti, hostScopedExistingAnti);
  }

  /**
   * Counts the existing pods' non-hostname required anti-affinity terms that match the incoming pod
   * (getExistingAntiAffinityCounts), visiting only nodes the memo says hold such pods; returns whether some existing
   * pod has a hostname-scoped one (checked node-locally in Filter). Called under the memo's monitor, refreshed.
   */
  private boolean countExistingAntiAffinity(PreFilterState s) {
    if (memo.any(NodeMemo.NON_HOST_ANTI)) {
      for (int i = 0, n = memo.size(); i < n; i++) {
        if (memo.has(i, NodeMemo.NON_HOST_ANTI)) {
          Filtering.countExistingAntiAffinity(s, memo.node(i));
        }
      }
    }
    return memo.any(NodeMemo.HOST_ANTI);
  }

  /** Whether none of the incoming pod's required terms consults the namespace-labels lookup. */
  private static boolean indexable(PreFilterState s) {
    return (s.allAffinity.isEmpty() || MatchIndex.usable(s.allAffinity))
        && (s.hostScopedAffinity.isEmpty() || MatchIndex.usable(s.hostScopedAffinity))
        && (s.nonHostScopedAntiAffinity.isEmpty() || MatchIndex.usable(s.nonHostScopedAntiAffinity));
  }

  /**
   * The counts of {@link Filtering#countIncoming} and {@link Filtering#anyPodMatchesAll}, from running indexes that
   * replay only the nodes changed since the previous cycle. Called under the memo's monitor, refreshed.
   */
  private void countIncomingIndexed(PreFilterState s) {
    if (!s.allAffinity.isEmpty()) {
      List<String> keys = new ArrayList<>(s.allAffinity.size());
      for (AffinityTerm t : s.allAffinity) {
        if (!keys.contains(t.topologyKey)) {
          keys.add(t.topologyKey);
        }
      }
      MatchIndex index = matchIndexes.get(s.allAffinity, keys, memo);
      for (AffinityTerm t : s.allAffinity) {
        index.addTo(s.affinityCounts, t.topologyKey, 1);
      }
    }
    for (AffinityTerm t : s.nonHostScopedAntiAffinity) {
      matchIndexes.get(List.of(t), List.of(t.topologyKey), memo).addTo(s.antiAffinityCounts, t.topologyKey, 1);
    }
    if (!s.hostScopedAffinity.isEmpty()) {
      s.hasMatchingHostScopedAffinityPodGlobally =
          matchIndexes.get(s.hostScopedAffinity, HOSTNAME_KEY, memo).anyWith(LABEL_HOSTNAME);
    }
  }

  @Override
  public PreFilterExtensions preFilterExtensions() {
    return this;
  }

  @Override
  public Status addPod(CycleState state, PodInfo podToSchedule, PodInfo other, NodeInfo node) {
    return update(state, other, node, 1);
  }

  @Override
  public Status removePod(CycleState state, PodInfo podToSchedule, PodInfo other, NodeInfo node) {
    return update(state, other, node, -1);
  }

  private static Status update(CycleState state, PodInfo other, NodeInfo node, int multiplier) {
    PreFilterState s = state.read(PRE_FILTER_KEY);
    if (s == null) {
      // PreFilter returned Skip (or failed): nothing this plugin tracks can change the outcome.
      return Status.success();
    }
    PreFilterState updated = s.copy();
    updated.updateWithPod(other, node, multiplier);
    state.write(PRE_FILTER_KEY, updated);
    return Status.success();
  }

  @Override
  public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
    PreFilterState s = state.read(PRE_FILTER_KEY);
    if (s == null) {
      return NO_PRE_FILTER_STATE;
    }
    Map<String, String> labels = node.labels();
    if (!s.hostScopedAffinity.isEmpty()) {
      if (!Filtering.nodePodsSatisfyAffinity(s, node, labels)) {
        return AFFINITY_REJECTED;
      }
    } else if (!s.allAffinity.isEmpty() && !Filtering.nodeTopologyMatchesAffinity(s, labels)) {
      return AFFINITY_REJECTED;
    }
    if (Filtering.nodeTopologyConflictsWithAntiAffinity(s, labels)
        || Filtering.nodePodsConflictWithAntiAffinity(s, node, labels)) {
      return ANTI_AFFINITY_REJECTED;
    }
    if (!Filtering.satisfiesExistingPodsAntiAffinity(s, node, labels)) {
      return EXISTING_ANTI_AFFINITY_REJECTED;
    }
    return Status.success();
  }

  @Override
  public Status filter(CycleState state, PodInfo pod, NodeTable table, int node) {
    PreFilterState s = state.read(PRE_FILTER_KEY);
    PreFilterState.TablePath t = s == null ? null : s.tablePath;
    if (t == null || t.table() != table) {
      return filter(state, pod, table.view(node));
    }
    Status r = filterAt(state, pod, t, table, node);
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
    TableFilter.filterEach(nodes, from, to, failed, mark, statuses, node -> filterAt(state, pod, t, table, node));
  }

  /**
   * {@link #filter(CycleState, PodInfo, NodeInfo)} of the node at {@code node}, from the table path's arrays:
   * {@code null} when it passes, else the status.
   */
  private @Nullable Status filterAt(CycleState state, PodInfo pod, PreFilterState.TablePath t, NodeTable table,
      int node) {
    boolean[] hostAnti = t.hostAntiMatch();
    boolean hasHostname = t.hostnames().id(node) >= 0;
    if (hostAnti != null && hasHostname && node < hostAnti.length && hostAnti[node]) {
      return ANTI_AFFINITY_REJECTED;
    }
    if (t.checkExistingHostAnti() && hasHostname && table.hasRequiredAntiAffinityPods(node)) {
      Status s = filter(state, pod, table.view(node));
      return s.code() == Status.Code.SUCCESS ? null : s;
    }
    return null;
  }

  // ---- PreScore / Score (scoring.go) ----

  @Override
  public Status preScore(CycleState state, PodInfo podInfo, List<NodeInfo> feasibleNodes) {
    Pod pod = podInfo.pod();
    PodTerms terms = PodTerms.of(pod);
    boolean hasConstraints = terms.hasPreferred();
    if (args.ignorePreferredTermsOfExistingPods() && !hasConstraints) {
      return Status.skip();
    }
    if (terms.error != null) {
      return Status.error("failed to parse pod: " + terms.error);
    }
    Snapshot snapshot = snapshots.get();
    if (!hasConstraints && snapshot.nodesWithAffinityPods().isEmpty()) {
      return Status.skip(); // nothing can contribute: no preferred terms, no pod with terms of its own
    }
    AffinityTerm.NamespaceLabels incomingNs = AffinityTerm.NamespaceLabels.memoized(args.namespaceLabels());
    AffinityTerm.NamespaceLabels ownNs = AffinityTerm.NamespaceLabels.constant(namespaceLabels(pod));
    PreScoreState.Builder scores = new PreScoreState.Builder();
    if (hasConstraints) {
      List<NodeInfo> nodes = snapshot.nodes();
      for (int i = 0, n = nodes.size(); i < n; i++) {
        NodeInfo node = nodes.get(i);
        Scoring.processNode(scores, terms, pod, node, node.pods(), incomingNs, ownNs,
            args.hardPodAffinityWeight());
      }
    } else if (!snapshot.nodesWithAffinityPods().isEmpty()) {
      // Unless the incoming pod has preferred terms, only pods with scoring terms of their own can contribute.
      synchronized (memo) {
        Long refreshed = state.read(MEMO_VERSION_KEY);
        if (refreshed == null || refreshed != memo.version()) {
          memo.refresh(snapshot.nodes(), NodeTable.of(snapshot));
        }
        if (memo.any(NodeMemo.SCORING)) {
          PreScoreState indexed =
              scoreIndexes.get(pod, namespaceLabels(pod), args.hardPodAffinityWeight(), memo).toState();
          if (indexed == null) {
            return Status.skip();
          }
          state.write(PRE_SCORE_KEY, indexed);
          return Status.success();
        }
      }
    }
    if (scores.isEmpty()) {
      return Status.skip();
    }
    state.write(PRE_SCORE_KEY, scores.build());
    return Status.success();
  }

  @Override
  public long score(CycleState state, PodInfo pod, NodeInfo node) {
    PreScoreState s = state.read(PRE_SCORE_KEY);
    return s == null ? 0 : s.score(node.labels());
  }

  @Override
  public void normalizeScores(CycleState state, PodInfo pod, List<NodeInfo> nodes, long[] scores) {
    PreScoreState s = state.read(PRE_SCORE_KEY);
    if (s == null || s.isEmpty()) {
      return;
    }
    long min = Long.MAX_VALUE;
    long max = Long.MIN_VALUE;
    for (long v : scores) {
      min = Math.min(min, v);
      max = Math.max(max, v);
    }
    long diff = max - min;
    for (int i = 0; i < scores.length; i++) {
      scores[i] = diff > 0 ? (long) (MAX_NODE_SCORE * ((double) (scores[i] - min) / diff)) : 0;
    }
  }

  /** The incoming pod's namespace labels; none when the lookup does not know the namespace (as upstream). */
  private Map<String, String> namespaceLabels(Pod pod) {
    Map<String, String> labels = args.namespaceLabels().apply(pod.metadata().namespace());
    return labels == null ? Map.of() : labels;
  }

  @Override
  public String toString() {
    return NAME + args;
  }
}
