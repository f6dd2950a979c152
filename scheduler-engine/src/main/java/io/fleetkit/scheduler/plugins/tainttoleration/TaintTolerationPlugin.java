package io.fleetkit.scheduler.plugins.tainttoleration;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.framework.ClusterEvent;
import io.fleetkit.api.framework.CycleState;
import io.fleetkit.api.framework.EnqueueExtensions;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.PluginFactory;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.PreScorePlugin;
import io.fleetkit.api.framework.StateKey;
import io.fleetkit.api.framework.Status;
import io.fleetkit.api.scheduling.Taint;
import io.fleetkit.api.scheduling.TaintEffect;
import io.fleetkit.api.scheduling.Taints;
import io.fleetkit.api.scheduling.Toleration;
import io.fleetkit.scheduler.plugins.helper.NormalizeScore;
import io.fleetkit.scheduler.nodetable.NodeTable;
import io.fleetkit.scheduler.nodetable.TableFilter;
import io.fleetkit.scheduler.nodetable.TableScore;
import io.fleetkit.scheduler.plugins.helper.ObjectChange;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/**
 * Taints and tolerations, as kube-scheduler's {@code TaintToleration}
 * ({@code pkg/scheduler/framework/plugins/tainttoleration/taint_toleration.go}).
 *
 * <ul>
 *   <li>Filter: the first NoSchedule or NoExecute taint no toleration tolerates rejects the node as
 *       UNSCHEDULABLE_AND_UNRESOLVABLE with {@code node(s) had untolerated taint {key: value}} (preemption cannot
 *       remove a taint). When a Gt or Lt toleration with the taint's key and effect could not compare because the
 *       taint's value is not an integer, the reason is instead that parse error, as upstream's
 *       ({@code failed to parse taint value "high" as int64: ...}). It applies to every pod, so there is no PreFilter
 *       to skip.
 *   <li>PreScore keeps the pod's tolerations whose effect is PreferNoSchedule or unset; Score counts the node's
 *       PreferNoSchedule taints none of them tolerates (a taint a Gt or Lt toleration cannot parse counts as
 *       untolerated, with no error); normalization reverses the counts, so 0 untolerated taints
 *       scores 100 and the worst node 0.
 *   <li>Queueing hints ({@link EnqueueExtensions}): a pod this plugin rejected is retried when a node it tolerates is
 *       added, or a node's taints change from untolerated to tolerated, not for other node changes; and when the pod
 *       itself gets a toleration.
 * </ul>
 *
 * <p>Every operator is matched by {@link Toleration#toleratesTaint}, the one implementation of Equal, Exists, Gt and
 * Lt; FleetKit has no feature gates, so Gt and Lt are always honoured (upstream's
 * {@code TaintTolerationComparisonOperators} on).
 *
 * <p>Thread-safe. Filter and Score allocate nothing: rejection statuses are cached per taint (up to a bound).
 */
public final class TaintTolerationPlugin implements TableFilter, PreScorePlugin, TableScore, EnqueueExtensions {
  /** The name this plugin is registered under. */
  public static final String NAME = "TaintToleration";
  /** The rejection reason's format, verbatim from kube-scheduler: taint key, then taint value. */
  public static final String ERR_REASON_FORMAT = "node(s) had untolerated taint {%s: %s}";

  /** Creates the plugin for a profile (no arguments). */
  public static final PluginFactory FACTORY = handle -> new TaintTolerationPlugin();

  private static final StateKey<PreScoreState> PRE_SCORE_KEY = StateKey.of("PreScore" + NAME, PreScoreState.class);
  /** Bound on cached rejection statuses; past it, rejections allocate their status. */
  private static final int MAX_CACHED_STATUSES = 4096;

  /** Rejection statuses by taint: a cluster has few distinct blocking taints, and each is rejected many times. */
  private final ConcurrentHashMap<Taint, Status> rejections = new ConcurrentHashMap<>();
  /** Rejection statuses by comparison error (a Gt/Lt toleration facing a taint value that is not an integer). */
  private final ConcurrentHashMap<String, Status> comparisonRejections = new ConcurrentHashMap<>();

  public TaintTolerationPlugin() {}

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
    List<Taint> taints = node.taints();
    if (taints.isEmpty()) {
      return Status.success();
    }
    List<Toleration> tolerations = pod.pod().spec().tolerations();
    Taint untolerated = firstUntolerated(taints, tolerations);
    if (untolerated == null) {
      return Status.success();
    }
    String comparisonError = Taints.comparisonError(tolerations, untolerated);
    return comparisonError == null ? rejection(untolerated) : comparisonRejection(comparisonError);
  }

  /**
   * The first NoSchedule or NoExecute taint none of {@code tolerations} tolerates, or {@code null}:
   * {@link Taints#findMatchingUntoleratedTaint} with {@link Taints#NO_SCHEDULE_OR_NO_EXECUTE}, unrolled, since its
   * Optional result would allocate on every rejection.
   */
  private static @Nullable Taint firstUntolerated(List<Taint> taints, List<Toleration> tolerations) {
    for (int i = 0, n = taints.size(); i < n; i++) {
      Taint taint = taints.get(i);
      if (taint.effect() != TaintEffect.PreferNoSchedule && !Taints.tolerationsTolerateTaint(tolerations, taint)) {
        return taint;
      }
    }
    return null;
  }

  @Override
  public Status filter(CycleState state, PodInfo pod, NodeTable table, int node) {
    return table.tainted(node) ? filter(state, pod, table.view(node)) : Status.success();
  }

  /** Over a range: untainted nodes pass on their flag, tainted ones are judged on their view. */
  @Override
  public void filterAll(CycleState state, PodInfo pod, NodeTable table, int[] nodes, int from, int to, int[] failed,
      int mark, Status[] statuses) {
    if (table.taintedCount() == 0) {
      return; // no node has a taint: every node passes
    }
    for (int pos = from; pos < to; pos++) {
      int node = nodes[pos];
      if (failed[pos] < 0 && table.tainted(node)) {
        Status s = filter(state, pod, table.view(node));
        if (s.code() != Status.Code.SUCCESS) {
          failed[pos] = mark;
          statuses[pos] = s;
        }
      }
    }
  }

  /** The reason Filter gives for an untolerated {@code taint}. */
  public static String reason(Taint taint) {
    return String.format(ERR_REASON_FORMAT, taint.key(), taint.value());
  }

  private Status rejection(Taint taint) {
    Status cached = rejections.get(taint);
    if (cached != null) {
      return cached;
    }
    Status status = new Status(Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE, List.of(reason(taint)), NAME);
    if (rejections.size() < MAX_CACHED_STATUSES) {
      Status raced = rejections.putIfAbsent(taint, status);
      return raced != null ? raced : status;
    }
    return status;
  }

  private Status comparisonRejection(String error) {
    Status cached = comparisonRejections.get(error);
    if (cached != null) {
      return cached;
    }
    Status status = new Status(Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE, List.of(error), NAME);
    if (comparisonRejections.size() < MAX_CACHED_STATUSES) {
      Status raced = comparisonRejections.putIfAbsent(error, status);
      return raced != null ? raced : status;
    }
    return status;
  }

  @Override
  public Status preScore(CycleState state, PodInfo pod, List<NodeInfo> feasibleNodes) {
    state.write(PRE_SCORE_KEY, PreScoreState.of(pod.pod().spec().tolerations()));
    return Status.success();
  }

  @Override
  public long score(CycleState state, PodInfo pod, NodeInfo node) {
    List<Taint> taints = node.taints();
    if (taints.isEmpty()) {
      return 0;
    }
    PreScoreState s = state.read(PRE_SCORE_KEY);
    // Without PreScore (a framework that skipped it) the pod's own list gives the same count: the helper ignores
    // tolerations of other effects.
    List<Toleration> tolerations = s != null ? s.tolerations() : pod.pod().spec().tolerations();
    return Taints.countIntolerableTaintsPreferNoSchedule(taints, tolerations);
  }

  @Override
  public long score(CycleState state, PodInfo pod, NodeTable table, int node) {
    return table.tainted(node) ? score(state, pod, table.view(node)) : 0;
  }

  @Override
  public void scoreAll(CycleState state, PodInfo pod, NodeTable table, int[] nodes, int from, int to, long[] out) {
    if (table.taintedCount() == 0) {
      Arrays.fill(out, from, to, 0L); // no node has a taint to count
      return;
    }
    for (int pos = from; pos < to; pos++) {
      int node = nodes[pos];
      out[pos] = table.tainted(node) ? score(state, pod, table.view(node)) : 0;
    }
  }

  /**
   * With no tainted node in the table every node scores 0 intolerable taints, and the reversed normalisation gives
   * each of them {@link #MAX_NODE_SCORE} (upstream's {@code DefaultNormalizeScore} with a maximum count of 0), whichever
   * nodes are scored.
   */
  @Override
  public long uniformScore(CycleState state, PodInfo pod, NodeTable table) {
    return table.taintedCount() == 0 ? MAX_NODE_SCORE : NOT_UNIFORM;
  }

  @Override
  public void normalizeScores(CycleState state, PodInfo pod, List<NodeInfo> nodes, long[] scores) {
    NormalizeScore.defaultNormalizeScore(MAX_NODE_SCORE, true, scores);
  }

  /**
   * Upstream's {@code Node/Add} and {@code Node/UpdateNodeTaint}: {@link ClusterEvent#NODE_ADD} and
   * {@link ClusterEvent#NODE_UPDATE}, FleetKit's single update event for every node change a plugin reads, which
   * {@link #isSchedulableAfter} narrows to taint changes that matter; and upstream's
   * {@code TargetPod/UpdatePodToleration}, {@link ClusterEvent#TARGET_POD_UPDATE_TOLERATION}.
   */
  @Override
  public Set<ClusterEvent> eventsToRegister() {
    return EnumSet.of(ClusterEvent.NODE_ADD, ClusterEvent.NODE_UPDATE, ClusterEvent.TARGET_POD_UPDATE_TOLERATION);
  }

  /**
   * For node events upstream's {@code isSchedulableAfterNodeChange}: yes when the pod tolerates every NoSchedule and
   * NoExecute taint of the added node, or of the updated node whose taints it did not all tolerate before; no
   * otherwise (a node it cannot tolerate, a change of labels or of taints that leaves the verdict as it was). For
   * {@link ClusterEvent#TARGET_POD_UPDATE_TOLERATION} upstream's {@code isSchedulableAfterTargetPodTolerationChange}:
   * yes when the updated pod is {@code pod} (by namespace and name) and its tolerations changed. Objects of another
   * type re-queue.
   */
  @Override
  public boolean isSchedulableAfter(Pod pod, ClusterEvent event, @Nullable Object oldObject,
      @Nullable Object newObject) {
    if (event == ClusterEvent.TARGET_POD_UPDATE_TOLERATION) {
      if (!(newObject instanceof Pod after) || (oldObject != null && !(oldObject instanceof Pod))) {
        return true;
      }
      return after.metadata().key().equals(pod.metadata().key())
          && (oldObject == null || !((Pod) oldObject).spec().tolerations().equals(after.spec().tolerations()));
    }
    List<Toleration> tolerations = pod.spec().tolerations();
    return ObjectChange.startsToPass(Node.class, oldObject, newObject,
        n -> firstUntolerated(n.spec().taints(), tolerations) == null);
  }

  @Override
  public String toString() {
    return NAME;
  }

  /** The pod's tolerations that can tolerate a PreferNoSchedule taint (effect PreferNoSchedule or unset). */
  private record PreScoreState(List<Toleration> tolerations) {
    private static final PreScoreState NONE = new PreScoreState(List.of());

    static PreScoreState of(List<Toleration> all) {
      int kept = 0;
      for (Toleration t : all) {
        if (appliesToPreferNoSchedule(t)) {
          kept++;
        }
      }
      if (kept == 0) {
        return NONE;
      }
      if (kept == all.size()) {
        return new PreScoreState(all);
      }
      List<Toleration> out = new ArrayList<>(kept);
      for (Toleration t : all) {
        if (appliesToPreferNoSchedule(t)) {
          out.add(t);
        }
      }
      return new PreScoreState(List.copyOf(out));
    }

    private static boolean appliesToPreferNoSchedule(Toleration t) {
      return t.effect() == null || t.effect() == TaintEffect.PreferNoSchedule;
    }
  }
}
