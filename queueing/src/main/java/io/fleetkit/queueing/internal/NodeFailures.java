package io.fleetkit.queueing.internal;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.NodeCondition;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.scheduling.Taint;
import io.fleetkit.api.scheduling.TaintEffect;
import io.fleetkit.api.scheduling.Toleration;
import io.fleetkit.queueing.PodSetAssignment;
import io.fleetkit.queueing.TopologyAssignment;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Kueue's TAS node failure controller ({@code pkg/controller/tas/node_controller.go}) and the workloads' record of
 * unhealthy nodes ({@code status.unhealthyNodes}).
 *
 * <p>A node fails for every workload whose topology assignment names it when it is deleted or has no {@code Ready}
 * condition (at once), or when its {@code Ready} condition has not been {@code True} for {@code delay} (Kueue's {@code
 * NodeFailureDelay}, 30 seconds, from the condition's {@code lastTransitionTime}, or from when the engine first saw it
 * not Ready) and the fixed-time trigger is on or the pod-termination trigger off (Kueue's {@code
 * TASReplaceNodeDueToNotReadyOverFixedTime}). Then each such workload gets it recorded, unless it has another
 * unhealthy node already: that one is evicted ({@value io.fleetkit.queueing.NodeReplacement#MULTIPLE_FAILURES_MESSAGE}).
 *
 * <p>Per workload ({@link #verdict}, Kueue's {@code getWorkloadStatus}): on a NotReady node with the pod-termination
 * trigger ({@code TASReplaceNodeOnPodTermination}) a workload none of whose pods there is progressing (bound to the
 * node, not deleted, not terminated) is unhealthy before the delay; on a Ready node with the taint trigger ({@code
 * TASReplaceNodeOnNodeTaints}) a {@code NoSchedule} or {@code NoExecute} taint that one of the workload's pod sets there
 * does not tolerate makes it unhealthy (with the pod-termination trigger: once its pods there stopped progressing), and
 * one a pod set tolerates only for {@code tolerationSeconds} makes it unhealthy once its pods there stopped
 * progressing. A workload found healthy on a Ready node has the node taken off its record. The engine learns the
 * pods from {@link #progressing reports}; until a workload's pods on a node are reported, the pods its topology
 * assignment puts there count as progressing. Like Kueue's controller this acts on node events (created, Ready
 * changed, taints changed), on pod reports and on the delay running out, so a record restored for a node that is
 * Ready stays until the node changes. Not thread-safe; the engine serializes calls.
 */
final class NodeFailures {
  /**
   * Which node failure triggers are on.
   *
   * @param podTermination Kueue's {@code TASReplaceNodeOnPodTermination}: a NotReady node (or a tainted one) fails
   *     for a workload as soon as its pods there stopped progressing
   * @param fixedTime Kueue's {@code TASReplaceNodeDueToNotReadyOverFixedTime}: a NotReady node fails for every
   *     workload once the delay ran out, progressing pods or not (always so without {@code podTermination})
   * @param taints Kueue's {@code TASReplaceNodeOnNodeTaints}: {@code NoSchedule}/{@code NoExecute} taints the pods do
   *     not tolerate, or tolerate only for a while, make a Ready node fail
   */
  record Triggers(boolean podTermination, boolean fixedTime, boolean taints) {
    static final Triggers DEFAULT = new Triggers(true, true, true);

    /** Whether the NotReady delay running out fails the node. */
    boolean timer() {
      return fixedTime || !podTermination;
    }
  }

  /** What the controller concludes for a workload on a node (Kueue's {@code workloadStatus}). */
  enum Verdict { HEALTHY, UNHEALTHY }

  private final Duration delay;
  private final Triggers triggers;
  /** Reported progressing pods, by workload and node. */
  private final Map<String, Map<String, Integer>> reported = new HashMap<>();
  /** The workloads' unhealthy nodes, in the order they failed. */
  private final Map<String, List<String>> unhealthy = new HashMap<>();
  /** Nodes not Ready whose delay has not run out yet: when it does. */
  private final Map<String, Instant> deadlines = new LinkedHashMap<>();

  NodeFailures(Duration delay, Triggers triggers) {
    this.delay = delay;
    this.triggers = triggers;
  }

  Triggers triggers() {
    return triggers;
  }

  /** Records that {@code count} pods of {@code workload} bound to {@code node} are progressing. */
  void progressing(String workload, String node, int count) {
    reported.computeIfAbsent(workload, k -> new HashMap<>()).put(node, count);
  }

  /**
   * Whether a pod of {@code w} on {@code node} is progressing: as reported, or, until reported, whether its topology
   * assignments put pods there.
   */
  boolean hasProgressingPods(AdmittedWorkload w, String node) {
    Map<String, Integer> r = reported.get(w.key());
    Integer n = r == null ? null : r.get(node);
    return n == null ? names(w, node) : n > 0;
  }

  /**
   * Kueue's {@code getWorkloadStatus} for a workload {@code w} whose topology assignment names {@code node} (which has
   * a {@code Ready} condition): {@code tolerations} are the effective tolerations of each of its pod sets with pods
   * there. On a NotReady node: unhealthy, or, with the pod-termination trigger, healthy while its pods there progress
   * (the caller asks about a NotReady node only when the pods or the delay decide).
   */
  Verdict verdict(Node node, AdmittedWorkload w, List<List<Toleration>> tolerations) {
    boolean progressing = hasProgressingPods(w, node.name());
    if (!node.isReady()) {
      return triggers.podTermination() && progressing ? Verdict.HEALTHY : Verdict.UNHEALTHY;
    }
    if (!triggers.taints() || !hasSchedulingTaints(node)) {
      return Verdict.HEALTHY;
    }
    boolean untolerated = false;
    boolean temporarily = false;
    for (Taint t : node.spec().taints()) {
      if (t.effect() != TaintEffect.NoExecute && t.effect() != TaintEffect.NoSchedule) {
        continue;
      }
      boolean tolerated = true;
      boolean permanently = true;
      for (List<Toleration> ts : tolerations) {
        if (!tolerates(ts, t, false)) {
          tolerated = false;
          break;
        }
        permanently &= tolerates(ts, t, true);
      }
      untolerated |= !tolerated;
      temporarily |= tolerated && !permanently;
    }
    if (untolerated) {
      return !triggers.podTermination() || !progressing ? Verdict.UNHEALTHY : Verdict.HEALTHY;
    }
    if (temporarily) {
      return progressing ? Verdict.HEALTHY : Verdict.UNHEALTHY;
    }
    return Verdict.HEALTHY;
  }

  /** Whether {@code node} has a {@code NoSchedule} or {@code NoExecute} taint (Kueue's {@code hasSchedulingTaints}). */
  static boolean hasSchedulingTaints(Node node) {
    for (Taint t : node.spec().taints()) {
      if (t.effect() == TaintEffect.NoExecute || t.effect() == TaintEffect.NoSchedule) {
        return true;
      }
    }
    return false;
  }

  /** Whether {@code tolerations} (only those without {@code tolerationSeconds} if {@code permanent}) tolerate it. */
  private static boolean tolerates(List<Toleration> tolerations, Taint taint, boolean permanent) {
    for (Toleration t : tolerations) {
      if ((!permanent || t.tolerationSeconds() == null) && t.toleratesTaint(taint)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether a node event is one Kueue's controller reconciles (its {@code Update} predicate): the node is new, its
   * Ready status changed, or (with the taint trigger) its taints changed.
   */
  boolean reconciles(@Nullable Node before, Node after) {
    return before == null || before.isReady() != after.isReady()
        || (triggers.taints() && !before.spec().taints().equals(after.spec().taints()));
  }

  /** Takes {@code node} off the record of {@code workload} (Kueue's {@code handleHealthyNode} for one workload). */
  void healthy(String workload, String node) {
    List<String> had = unhealthy.get(workload);
    if (had != null && had.contains(node)) {
      List<String> rest = without(had, node);
      if (rest.isEmpty()) {
        unhealthy.remove(workload);
      } else {
        unhealthy.put(workload, rest);
      }
    }
  }

  /** How long a node may be not Ready before it fails. */
  Duration delay() {
    return delay;
  }

  /** The unhealthy nodes of {@code workload}, empty when none. */
  List<String> of(String workload) {
    return unhealthy.getOrDefault(workload, List.of());
  }

  /** Whether any workload has an unhealthy node (the cycle's second pass has work). */
  boolean any() {
    return !unhealthy.isEmpty();
  }

  /** Restores or replaces the record of {@code workload}; an empty list clears it. */
  void set(String workload, List<String> nodes) {
    if (nodes.isEmpty()) {
      unhealthy.remove(workload);
    } else {
      unhealthy.put(workload, List.copyOf(nodes));
    }
  }

  /**
   * Clears the record of {@code workload} (Kueue clears it on eviction and on a successful replacement), and its pod
   * reports (its pods move or go).
   */
  void clear(String workload) {
    unhealthy.remove(workload);
    reported.remove(workload);
  }

  /**
   * A node was added or changed ({@code now} the engine's time): the node's state as the controller sees it.
   *
   * @return whether it failed now (its workloads must then be {@linkplain #failed handled})
   */
  boolean put(Node node, Instant now) {
    NodeCondition ready = node.status().condition(NodeCondition.READY);
    if (ready == null) {
      deadlines.remove(node.name());
      return true;
    }
    if (ready.status() == ConditionStatus.True) {
      deadlines.remove(node.name());
      return false;
    }
    Instant since = ready.lastTransitionTime() != null ? ready.lastTransitionTime()
        : deadlines.containsKey(node.name()) ? deadlines.get(node.name()).minus(delay) : now;
    if (!triggers.timer()) {
      deadlines.remove(node.name());
      return false; // only the pods decide (Kueue with TASReplaceNodeOnPodTermination and no fixed-time marking)
    }
    Instant deadline = since.plus(delay);
    if (!deadline.isAfter(now)) {
      deadlines.remove(node.name());
      return true;
    }
    deadlines.put(node.name(), deadline);
    return false;
  }

  /** A node was deleted. */
  void removed(String node) {
    deadlines.remove(node);
  }

  /** Whether some node's NotReady delay ran out by {@code now} (the next cycle records it). */
  boolean due(Instant now) {
    for (Instant d : deadlines.values()) {
      if (!d.isAfter(now)) {
        return true;
      }
    }
    return false;
  }

  /** The nodes whose NotReady delay ran out by {@code now}, taken off the timers. */
  List<String> expired(Instant now) {
    List<String> out = new ArrayList<>();
    deadlines.entrySet().removeIf(e -> {
      if (!e.getValue().isAfter(now)) {
        out.add(e.getKey());
        return true;
      }
      return false;
    });
    return out;
  }

  /**
   * Kueue's {@code handleUnhealthyNode} for a failed {@code node}: records it on every workload of {@code admitted}
   * whose topology assignment names it, and returns those that already had another unhealthy node (to be evicted),
   * with the message.
   */
  Map<AdmittedWorkload, String> failed(String node, Collection<AdmittedWorkload> admitted) {
    Map<AdmittedWorkload, String> evict = new LinkedHashMap<>();
    for (AdmittedWorkload w : admitted) {
      if (!names(w, node)) {
        continue;
      }
      List<String> had = of(w.key());
      if (had.contains(node)) {
        continue;
      }
      if (!had.isEmpty()) {
        List<String> all = new ArrayList<>(had);
        all.add(node);
        evict.put(w, io.fleetkit.queueing.NodeReplacement.MULTIPLE_FAILURES_MESSAGE + String.join(", ", all));
        continue;
      }
      unhealthy.put(w.key(), List.of(node));
    }
    return evict;
  }

  /** Kueue's {@code handleHealthyNode}: {@code node} is Ready, so no workload's record keeps it. */
  void healthy(String node) {
    unhealthy.replaceAll((k, nodes) -> nodes.contains(node) ? without(nodes, node) : nodes);
    unhealthy.values().removeIf(List::isEmpty);
  }

  private static List<String> without(List<String> nodes, String node) {
    List<String> out = new ArrayList<>(nodes);
    out.remove(node);
    return List.copyOf(out);
  }

  /** Whether a topology assignment of {@code w} names {@code node} at its lowest level. */
  static boolean names(AdmittedWorkload w, String node) {
    for (PodSetAssignment pa : w.admission.podSets()) {
      TopologyAssignment ta = pa.topologyAssignment();
      if (ta != null && TopologyPlacer.names(ta, node)) {
        return true;
      }
    }
    return false;
  }

  /** The first unhealthy node of {@code w} its topology assignments name (Kueue replaces one per pass), or null. */
  @Nullable String toReplace(AdmittedWorkload w) {
    for (String node : of(w.key())) {
      if (names(w, node)) {
        return node;
      }
    }
    return null;
  }
}
