package io.fleetkit.queueing.internal;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.NodeCondition;
import io.fleetkit.api.meta.ConditionStatus;
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
 * <p>A node fails when it is deleted or has no {@code Ready} condition (at once), or when its {@code Ready} condition
 * has not been {@code True} for {@code delay} (Kueue's {@code NodeFailureDelay}, 30 seconds, from the condition's
 * {@code lastTransitionTime}, or from when the engine first saw it not Ready). Then every admitted workload whose
 * topology assignment names the node gets it recorded, unless it has another unhealthy node already: that one is
 * evicted ({@value io.fleetkit.queueing.NodeReplacement#MULTIPLE_FAILURES_MESSAGE}). A node that is Ready again is
 * taken off the records. Like Kueue's controller this acts on node events (and on the delay running out), so a record
 * restored for a node that is Ready stays until the node changes.
 *
 * <p>Not modelled: Kueue's {@code TASReplaceNodeOnPodTermination}, which marks a NotReady node's workloads unhealthy
 * before the delay once their pods there have terminated (the engine does not see pods), and node taints ({@code
 * TASReplaceNodeOnNodeTaints}). Not thread-safe; the engine serializes calls.
 */
final class NodeFailures {
  private final Duration delay;
  /** The workloads' unhealthy nodes, in the order they failed. */
  private final Map<String, List<String>> unhealthy = new HashMap<>();
  /** Nodes not Ready whose delay has not run out yet: when it does. */
  private final Map<String, Instant> deadlines = new LinkedHashMap<>();

  NodeFailures(Duration delay) {
    this.delay = delay;
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

  /** Clears the record of {@code workload} (Kueue clears it on eviction and on a successful replacement). */
  void clear(String workload) {
    unhealthy.remove(workload);
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
