package io.fleetkit.scheduler.plugins.defaultpreemption;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodCondition;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.policy.PodDisruptionBudget;
import io.fleetkit.api.framework.CycleState;
import io.fleetkit.api.framework.FrameworkHandle;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.NodeToStatus;
import io.fleetkit.api.framework.PluginFactory;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.PostFilterPlugin;
import io.fleetkit.api.framework.PostFilterResult;
import io.fleetkit.api.framework.Snapshot;
import io.fleetkit.api.framework.Status;
import io.fleetkit.api.scheduling.PreemptionPolicy;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Random;
import java.util.function.IntUnaryOperator;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * kube-scheduler's DefaultPreemption PostFilter plugin: when no node fits the pod, find a node where evicting
 * lower-priority pods makes room, and name the victims. The framework executes the result: it deletes the victims
 * (marking them {@code DisruptionTarget=True, reason PreemptionByScheduler} while they terminate), clears the
 * nomination of lower-priority pods nominated to that node, and records the nominated node on the pod, which is then
 * retried (it does not bind in this cycle).
 *
 * <p>Results, as upstream's {@code Evaluator.Preempt}:
 * <ul>
 *   <li>success: {@code nominatedNodeName} is the chosen node, {@code victims} the {@code namespace/name} keys to evict;
 *   <li>unschedulable with {@code nominatedNodeName} {@code ""}: no node can be made to fit (clear any nomination); the
 *       single reason is kube's message, e.g.
 *       {@code preemption: 0/5 nodes are available: 5 Preemption is not helpful for scheduling.};
 *   <li>unschedulable or error with {@code nominatedNodeName} {@code null}: not eligible (e.g.
 *       {@code preemptionPolicy: Never}, or victims of an earlier preemption still terminating) or a plugin error;
 *       leave the nomination unchanged.
 * </ul>
 *
 * <p>Thread-safe; the dry run evaluates nodes sequentially from a seeded random offset, so a fixed seed gives
 * identical results.
 */
public final class DefaultPreemptionPlugin implements PostFilterPlugin {
  public static final String NAME = "DefaultPreemption";
  /** Prefix of every message, as upstream's PostFilter adds it. */
  public static final String MESSAGE_PREFIX = "preemption: ";
  public static final String REASON_NOT_HELPFUL = "Preemption is not helpful for scheduling";
  public static final String REASON_NO_VICTIMS = VictimSelector.NO_VICTIMS;
  public static final String REASON_POLICY_NEVER = "not eligible due to preemptionPolicy=Never.";
  public static final String REASON_TERMINATING_VICTIM = "not eligible due to a terminating pod on the nominated node.";
  public static final String REASON_NO_NODES = "no nodes available";
  /** The DisruptionTarget reason the framework sets on victims (upstream {@code PodReasonPreemptionByScheduler}). */
  public static final String PREEMPTION_BY_SCHEDULER = "PreemptionByScheduler";

  /** Creates the plugin with the profile's arguments ({@link PreemptionArgs#fromMap}). */
  public static final PluginFactory FACTORY =
      handle -> new DefaultPreemptionPlugin(handle, PreemptionArgs.fromMap(handle.pluginArgs(NAME)));

  private static final Logger LOG = LoggerFactory.getLogger(DefaultPreemptionPlugin.class);

  /** Which lower-priority pods may be evicted (upstream {@code IsEligiblePodFunc}); thread-safe. */
  @FunctionalInterface
  public interface VictimEligibility {
    /** The default: every lower-priority pod. */
    VictimEligibility ANY = (node, victim, preemptor) -> true;

    boolean test(NodeInfo node, PodInfo victim, PodInfo preemptor);
  }

  private final FrameworkHandle handle;
  private final PreemptionArgs args;
  private final IntUnaryOperator offsets;
  private final VictimEligibility eligibility;
  private final @Nullable Comparator<PodInfo> importance;

  /** The plugin with kube's defaults: any lower-priority pod is a victim, ordered by priority then start time. */
  public DefaultPreemptionPlugin(FrameworkHandle handle, PreemptionArgs args) {
    this(handle, args, new Random(args.randomSeed())::nextInt, VictimEligibility.ANY, null);
  }

  /**
   * A customised plugin, as upstream's exported {@code IsEligiblePod} and {@code MoreImportantPod} hooks.
   *
   * @param offsets given the number of potential nodes {@code n}, where the dry run starts, in {@code [0, n)}
   * @param importance orders the most important pod first (the least likely victim); {@code null} for priority
   *     descending, then the older start time first
   */
  public DefaultPreemptionPlugin(FrameworkHandle handle, PreemptionArgs args, IntUnaryOperator offsets,
      VictimEligibility eligibility, @Nullable Comparator<PodInfo> importance) {
    this.handle = Objects.requireNonNull(handle, "handle");
    this.args = Objects.requireNonNull(args, "args");
    this.offsets = Objects.requireNonNull(offsets, "offsets");
    this.eligibility = Objects.requireNonNull(eligibility, "eligibility");
    this.importance = importance;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public PostFilterResult postFilter(CycleState state, PodInfo pod, Snapshot snapshot, NodeToStatus filteredStatuses) {
    Instant now = handle.clock().instant();
    VictimSelector selector = new VictimSelector(handle, eligibility,
        importance != null ? importance : PodImportance.mostImportantFirst(now));
    String nominated = pod.pod().status().nominatedNodeName();
    Status.Code nominatedCode = nominated.isEmpty() ? Status.Code.SUCCESS : filteredStatuses.codeOf(nominated);
    String ineligible = ineligibility(selector, pod, snapshot, nominatedCode);
    if (ineligible != null) {
      LOG.debug("pod {} is not eligible for preemption: {}", pod.key(), ineligible);
      return PostFilterResult.of(Status.unschedulable(MESSAGE_PREFIX + ineligible));
    }
    List<NodeInfo> allNodes = snapshot.nodes();
    if (allNodes.isEmpty()) {
      return PostFilterResult.of(Status.error(MESSAGE_PREFIX + REASON_NO_NODES));
    }
    DryRun.Result found = findCandidates(selector, state, pod, allNodes, filteredStatuses);
    if (found.candidates().isEmpty()) {
      if (!found.errors().isEmpty()) {
        return PostFilterResult.of(Status.error(MESSAGE_PREFIX + found.aggregateError()));
      }
      String message = FitErrorMessage.format(allNodes.size(), found.nodeStatuses(), REASON_NOT_HELPFUL);
      LOG.debug("no preemption candidate for pod {}: {}", pod.key(), message);
      return new PostFilterResult(Status.unschedulable(MESSAGE_PREFIX + message), "", List.of());
    }
    Candidate best = Objects.requireNonNull(CandidatePicker.pick(found.candidates(), now), "best candidate");
    List<String> victims = withWholeGangs(best.victims(), snapshot);
    LOG.debug("pod {} preempts {} on node {}", pod.key(), victims, best.nodeName());
    return new PostFilterResult(Status.success(), best.nodeName(), victims);
  }

  /**
   * The victims' keys, and with a victim that belongs to a gang (label {@value Pod#POD_GROUP_LABEL}) every other
   * scheduled pod of that gang: a gang that loses a member cannot run, so it is evicted whole.
   */
  static List<String> withWholeGangs(List<PodInfo> victims, Snapshot snapshot) {
    java.util.LinkedHashSet<String> out = new java.util.LinkedHashSet<>();
    java.util.Set<String> gangs = new java.util.HashSet<>();
    for (PodInfo v : victims) {
      out.add(v.key());
      String g = v.pod().podGroupName();
      if (g != null) {
        gangs.add(v.pod().metadata().namespace() + "/" + g);
      }
    }
    if (!gangs.isEmpty()) {
      for (NodeInfo ni : snapshot.nodes()) {
        for (PodInfo p : ni.pods()) {
          String g = p.pod().podGroupName();
          if (g != null && gangs.contains(p.pod().metadata().namespace() + "/" + g)) {
            out.add(p.key());
          }
        }
      }
    }
    return new ArrayList<>(out);
  }

  /** Upstream {@code findCandidates}: potential nodes, PDBs, offset and window, then the dry run. */
  DryRun.Result findCandidates(VictimSelector selector, CycleState state, PodInfo pod, List<NodeInfo> allNodes,
      NodeToStatus filteredStatuses) {
    List<NodeInfo> potential = DryRun.potentialNodes(allNodes, filteredStatuses);
    if (potential.isEmpty()) {
      return DryRun.Result.EMPTY;
    }
    PdbViolations pdbs = PdbViolations.of(handle.list(PodDisruptionBudget.class));
    int offset = offsets.applyAsInt(potential.size());
    return DryRun.run(selector, state, pod, potential, pdbs, offset, args.numCandidates(potential.size()));
  }

  /** A selector with this plugin's hooks, for tests of the stages. */
  VictimSelector victimSelector() {
    return new VictimSelector(handle, eligibility,
        importance != null ? importance : PodImportance.mostImportantFirst(handle.clock().instant()));
  }

  /**
   * Why {@code pod} may not preempt, or {@code null} when it may (upstream {@code PodEligibleToPreemptOthers}):
   * {@code preemptionPolicy: Never}; or it is nominated to a node (not ruled out as unresolvable by this cycle's
   * filters) where a pod it could preempt is still terminating because of an earlier preemption.
   */
  @Nullable String ineligibility(VictimSelector selector, PodInfo pod, Snapshot snapshot,
      Status.Code nominatedNodeCode) {
    Pod p = pod.pod();
    if (p.spec().preemptionPolicy() == PreemptionPolicy.Never) {
      return REASON_POLICY_NEVER;
    }
    String nominated = p.status().nominatedNodeName();
    if (!nominated.isEmpty()) {
      if (nominatedNodeCode == Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE) {
        return null; // the nominated node no longer fits: preempt again
      }
      NodeInfo node = snapshot.get(nominated);
      if (node != null) {
        for (PodInfo other : node.pods()) {
          if (selector.preemptible(node, other, pod) && terminatingByPreemption(other.pod())) {
            return REASON_TERMINATING_VICTIM;
          }
        }
      }
    }
    return null;
  }

  /** Whether the pod is terminating because the scheduler preempted it (DisruptionTarget=True, by the scheduler). */
  static boolean terminatingByPreemption(Pod p) {
    if (p.metadata().deletionTimestamp() == null) {
      return false;
    }
    PodCondition c = p.status().condition(PodCondition.DISRUPTION_TARGET);
    return c != null && c.status() == ConditionStatus.True && PREEMPTION_BY_SCHEDULER.equals(c.reason());
  }
}
