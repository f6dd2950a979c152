package io.fleetkit.scheduler.plugins.nodeaffinity;

import io.fleetkit.api.ValidationException;
import io.fleetkit.api.Violation;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.framework.ClusterEvent;
import io.fleetkit.api.framework.CycleState;
import io.fleetkit.api.framework.EnqueueExtensions;
import io.fleetkit.api.framework.FilterPlugin;
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
import io.fleetkit.api.scheduling.NodeAffinity;
import io.fleetkit.api.scheduling.NodeSelector;
import io.fleetkit.api.scheduling.NodeSelectorMatcher;
import io.fleetkit.api.scheduling.PreferredSchedulingTerms;
import io.fleetkit.api.scheduling.RequiredNodeAffinity;
import io.fleetkit.api.scheduling.SchedulingValidation;
import io.fleetkit.scheduler.plugins.helper.NormalizeScore;
import io.fleetkit.scheduler.plugins.helper.ObjectChange;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Node selector and node affinity, as kube-scheduler's {@code NodeAffinity}
 * ({@code pkg/scheduler/framework/plugins/nodeaffinity/node_affinity.go}).
 *
 * <ul>
 *   <li>PreFilter compiles the pod's {@code nodeSelector} AND required node affinity once per cycle. It returns Skip
 *       when the pod has neither (and the profile adds no affinity); it narrows the candidates to the node names
 *       that {@code matchFields metadata.name In} pins in every term, and rejects the pod when those pins conflict.
 *   <li>Filter rejects, as UNSCHEDULABLE_AND_UNRESOLVABLE, nodes failing the profile's added affinity
 *       ({@value #ERR_REASON_ENFORCED}) or the pod's ({@value #ERR_REASON_POD}).
 *   <li>PreScore compiles the preferred terms (Skip when there are none); Score sums the weights of the terms a
 *       node matches, the added preferred terms included; normalization scales the best node to 100.
 *   <li>Queueing hints ({@link EnqueueExtensions}): a pod this plugin rejected is retried when a node matching its
 *       required affinity (and the added affinity) is added, or a node's labels change so that it starts matching.
 * </ul>
 *
 * <p>Immutable and thread-safe; Filter and Score allocate nothing once PreFilter/PreScore ran.
 */
public final class NodeAffinityPlugin
    implements PreFilterPlugin, FilterPlugin, PreScorePlugin, ScorePlugin, EnqueueExtensions {
  /** The name this plugin is registered under. */
  public static final String NAME = "NodeAffinity";
  /** Rejection: the node fails the pod's nodeSelector or required node affinity (upstream {@code ErrReasonPod}). */
  public static final String ERR_REASON_POD = "node(s) didn't match Pod's node affinity/selector";
  /** Rejection: the node fails the profile's added affinity (upstream {@code errReasonEnforced}). */
  public static final String ERR_REASON_ENFORCED = "node(s) didn't match scheduler-enforced node affinity";
  /** PreFilter rejection: every term pins conflicting node names (upstream {@code errReasonConflict}). */
  public static final String ERR_REASON_CONFLICT = "pod affinity terms conflict";
  /** The plugin argument holding a {@link NodeAffinity} every pod must also satisfy (NodeAffinityArgs). */
  public static final String ARG_ADDED_AFFINITY = "addedAffinity";

  /** Creates the plugin from the profile's arguments for {@value #NAME} (see {@link #fromArgs}). */
  public static final PluginFactory FACTORY = handle -> fromArgs(handle.pluginArgs(NAME));

  private static final StateKey<RequiredNodeAffinity> PRE_FILTER_KEY =
      StateKey.of("PreFilter" + NAME, RequiredNodeAffinity.class);
  private static final StateKey<PreferredSchedulingTerms> PRE_SCORE_KEY =
      StateKey.of("PreScore" + NAME, PreferredSchedulingTerms.class);
  private static final PreferredSchedulingTerms NO_TERMS = PreferredSchedulingTerms.of(List.of());

  private static final Status REJECTED_POD =
      new Status(Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE, List.of(ERR_REASON_POD), NAME);
  private static final Status REJECTED_ENFORCED =
      new Status(Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE, List.of(ERR_REASON_ENFORCED), NAME);
  private static final PreFilterResult CONFLICT = PreFilterResult.of(
      new Status(Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE, List.of(ERR_REASON_CONFLICT), NAME));

  private final @Nullable NodeSelectorMatcher addedNodeSelector;
  private final @Nullable PreferredSchedulingTerms addedPreferred;

  /**
   * A plugin enforcing {@code addedAffinity} ({@code null} for none) on every pod, in addition to the pod's own.
   *
   * @throws ValidationException listing every invalid field of {@code addedAffinity}, under {@code addedAffinity.}
   */
  public NodeAffinityPlugin(@Nullable NodeAffinity addedAffinity) {
    if (addedAffinity == null) {
      addedNodeSelector = null;
      addedPreferred = null;
      return;
    }
    List<Violation> violations = new ArrayList<>();
    for (Violation v : SchedulingValidation.validateNodeAffinity(addedAffinity, ARG_ADDED_AFFINITY)) {
      violations.add(new Violation(NAME + " args", v.field(), v.rule(), v.value()));
    }
    if (!violations.isEmpty()) {
      throw new ValidationException(violations);
    }
    NodeSelector required = addedAffinity.requiredDuringSchedulingIgnoredDuringExecution();
    addedNodeSelector = required == null ? null : NodeSelectorMatcher.of(required);
    PreferredSchedulingTerms preferred =
        PreferredSchedulingTerms.of(addedAffinity.preferredDuringSchedulingIgnoredDuringExecution());
    addedPreferred = preferred.isEmpty() ? null : preferred;
  }

  /** A plugin without added affinity. */
  public NodeAffinityPlugin() {
    this(null);
  }

  /**
   * A plugin from profile arguments: {@value #ARG_ADDED_AFFINITY} may hold a {@link NodeAffinity}.
   *
   * @throws IllegalArgumentException for an unknown argument or one of the wrong type
   * @throws ValidationException for an invalid added affinity
   */
  public static NodeAffinityPlugin fromArgs(Map<String, Object> args) {
    for (String key : args.keySet()) {
      if (!ARG_ADDED_AFFINITY.equals(key)) {
        throw new IllegalArgumentException(NAME + " args: unknown argument \"" + key + "\" (known: "
            + ARG_ADDED_AFFINITY + ")");
      }
    }
    Object added = args.get(ARG_ADDED_AFFINITY);
    if (added != null && !(added instanceof NodeAffinity)) {
      throw new IllegalArgumentException(NAME + " args: " + ARG_ADDED_AFFINITY + " must be a NodeAffinity, got "
          + added.getClass().getName());
    }
    return new NodeAffinityPlugin((NodeAffinity) added);
  }

  @Override
  public String name() {
    return NAME;
  }

  /**
   * Upstream's {@code Node/Add} and {@code Node/UpdateNodeLabel}: {@link ClusterEvent#NODE_ADD} and
   * {@link ClusterEvent#NODE_UPDATE}, FleetKit's single update event for every node change a plugin reads, which
   * {@link #isSchedulableAfter} narrows to label changes that make the node match.
   */
  @Override
  public Set<ClusterEvent> eventsToRegister() {
    return EnumSet.of(ClusterEvent.NODE_ADD, ClusterEvent.NODE_UPDATE);
  }

  /**
   * Upstream's {@code isSchedulableAfterNodeChange}: no when the node fails the added affinity or the pod's
   * {@code nodeSelector} and required node affinity; yes when it matches and was added, or did not match before the
   * update; no for an update of a node that matched already (a heartbeat, a taint, an unrelated label). Objects that
   * are not nodes, and other events, re-queue. Upstream also re-queues when the pod's terms do not parse; FleetKit
   * validates them when the pod is built. "Matched before" covers the added affinity too: upstream checks only the
   * pod's terms there, so a node that starts matching the added affinity alone would leave the pod parked until the
   * periodic flush.
   */
  @Override
  public boolean isSchedulableAfter(Pod pod, ClusterEvent event, @Nullable Object oldObject,
      @Nullable Object newObject) {
    RequiredNodeAffinity required =
        RequiredNodeAffinity.fromAffinity(pod.spec().nodeSelector(), pod.spec().affinity());
    return ObjectChange.startsToPass(Node.class, oldObject, newObject,
        n -> (addedNodeSelector == null || addedNodeSelector.matches(n.name(), n.metadata().labels()))
            && required.match(n.name(), n.metadata().labels()));
  }

  @Override
  public PreFilterResult preFilter(CycleState state, PodInfo pod, Snapshot snapshot) {
    NodeAffinity affinity = pod.pod().spec().affinity().nodeAffinity();
    NodeSelector required = affinity == null ? null : affinity.requiredDuringSchedulingIgnoredDuringExecution();
    Map<String, String> nodeSelector = pod.pod().spec().nodeSelector();
    if (required == null && nodeSelector.isEmpty() && addedNodeSelector == null) {
      return PreFilterResult.skip();
    }
    RequiredNodeAffinity compiled = RequiredNodeAffinity.of(nodeSelector, affinity);
    state.write(PRE_FILTER_KEY, compiled);
    Optional<Set<String>> names = compiled.nodeNames();
    if (names.isEmpty()) {
      return PreFilterResult.success();
    }
    return names.get().isEmpty() ? CONFLICT : PreFilterResult.onlyNodes(names.get());
  }

  @Override
  public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
    String nodeName = node.name();
    Map<String, String> labels = node.labels();
    if (addedNodeSelector != null && !addedNodeSelector.matches(nodeName, labels)) {
      return REJECTED_ENFORCED;
    }
    RequiredNodeAffinity required = state.read(PRE_FILTER_KEY);
    if (required == null) {
      // PreFilter did not run (upstream falls back the same way); this path compiles per call.
      required = RequiredNodeAffinity.fromAffinity(pod.pod().spec().nodeSelector(), pod.pod().spec().affinity());
    }
    // Invalid terms simply never match, as upstream ignores parse errors here.
    return required.match(nodeName, labels) ? Status.success() : REJECTED_POD;
  }

  @Override
  public Status preScore(CycleState state, PodInfo pod, List<NodeInfo> feasibleNodes) {
    PreferredSchedulingTerms preferred;
    try {
      preferred = podPreferred(pod);
    } catch (IllegalArgumentException e) {
      return Status.error(String.valueOf(e.getMessage())).withPlugin(NAME);
    }
    if (preferred.isEmpty() && addedPreferred == null) {
      return Status.skip();
    }
    state.write(PRE_SCORE_KEY, preferred);
    return Status.success();
  }

  @Override
  public long score(CycleState state, PodInfo pod, NodeInfo node) {
    String nodeName = node.name();
    Map<String, String> labels = node.labels();
    long count = addedPreferred == null ? 0 : addedPreferred.score(nodeName, labels);
    PreferredSchedulingTerms preferred = state.read(PRE_SCORE_KEY);
    if (preferred == null) {
      // PreScore did not run: compile here. Broken terms, which PreScore reports as an error, score nothing.
      try {
        preferred = podPreferred(pod);
      } catch (IllegalArgumentException e) {
        preferred = NO_TERMS;
      }
    }
    return count + preferred.score(nodeName, labels);
  }

  @Override
  public void normalizeScores(CycleState state, PodInfo pod, List<NodeInfo> nodes, long[] scores) {
    NormalizeScore.defaultNormalizeScore(MAX_NODE_SCORE, false, scores);
  }

  private static PreferredSchedulingTerms podPreferred(PodInfo pod) {
    NodeAffinity affinity = pod.pod().spec().affinity().nodeAffinity();
    if (affinity == null || affinity.preferredDuringSchedulingIgnoredDuringExecution().isEmpty()) {
      return NO_TERMS;
    }
    return PreferredSchedulingTerms.of(affinity.preferredDuringSchedulingIgnoredDuringExecution());
  }

  @Override
  public String toString() {
    return NAME + (addedNodeSelector != null || addedPreferred != null ? "(with addedAffinity)" : "");
  }
}
