package io.fleetkit.queueing.internal;

import io.fleetkit.queueing.AdmissionCheckState;
import io.fleetkit.queueing.NodeReplacement;
import io.fleetkit.queueing.PodSet;
import io.fleetkit.queueing.PodSetAssignment;
import io.fleetkit.queueing.PodSetUpdate;
import io.fleetkit.queueing.ResourceFlavor;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The engine's side of Kueue's TAS node controller ({@code pkg/controller/tas/node_controller.go}): it reacts to node
 * events (a node put, changed or removed, pods reported progressing on it, a NotReady delay run out) by judging the
 * workloads with quota whose topology assignments name the node, records the unhealthy ones ({@code
 * handleUnhealthyNode}) and evicts a workload that gets a second unhealthy node. The records, the triggers and the
 * per-workload verdict are a {@link NodeFailures}'; the replacement of an unhealthy node in the cycle is the
 * scheduler's second pass. Not thread-safe; the engine serializes calls.
 */
final class NodeReconciler {
  private static final Logger LOG = LoggerFactory.getLogger(NodeReconciler.class);
  /** Kueue's {@code NodeFailureDelay}. */
  static final Duration DEFAULT_NODE_FAILURE_DELAY = Duration.ofSeconds(30);

  private final Clock clock;
  private final AdmittedWorkloads admitted;
  private final TopologyPlacer topology;
  private final QueueRegistry registry;
  private final AdmissionCheckStates checks;
  /** Kueue's eviction of a workload with quota (requeued, its checks reset). */
  private final Consumer<AdmittedWorkload> evict;
  /** Kueue's node failure controller and the workloads' unhealthy nodes. */
  private NodeFailures nodeFailures = new NodeFailures(DEFAULT_NODE_FAILURE_DELAY, NodeFailures.Triggers.DEFAULT);
  /** Kueue's {@code TASFailedNodeReplacementFailFast}: evict a workload whose unhealthy node has no replacement. */
  private boolean failFast = true;
  /** What node failures did between cycles (evictions for a second failed node), reported by the next cycle. */
  private final List<NodeReplacement> events = new ArrayList<>();

  NodeReconciler(Clock clock, AdmittedWorkloads admitted, TopologyPlacer topology, QueueRegistry registry,
      AdmissionCheckStates checks, Consumer<AdmittedWorkload> evict) {
    this.clock = clock;
    this.admitted = admitted;
    this.topology = topology;
    this.registry = registry;
    this.checks = checks;
    this.evict = evict;
  }

  /**
   * Configures node replacement: how long a node may be NotReady before its workloads' pods are replaced, and whether
   * a workload whose unhealthy node has no replacement is evicted ({@code failFast}) or keeps trying. Records kept.
   */
  void configure(Duration nodeFailureDelay, boolean failFast, boolean onPodTermination, boolean afterFixedTime,
      boolean onNodeTaints) {
    NodeFailures next = new NodeFailures(nodeFailureDelay,
        new NodeFailures.Triggers(onPodTermination, afterFixedTime, onNodeTaints));
    for (String key : admitted.keys()) {
      next.set(key, nodeFailures.of(key));
    }
    this.nodeFailures = next;
    this.failFast = failFast;
  }

  /** The unhealthy node records and the triggers. */
  NodeFailures failures() {
    return nodeFailures;
  }

  /** Kueue's {@code TASFailedNodeReplacementFailFast}. */
  boolean failFast() {
    return failFast;
  }

  /** Whether some node's NotReady delay has run out, so that the next cycle records it as unhealthy. */
  boolean due() {
    return nodeFailures.due(clock.instant());
  }

  /**
   * Restores the unhealthy nodes of a workload with quota (as Kueue keeps them in its status).
   *
   * @throws IllegalArgumentException if the workload holds no quota or a node name is empty or repeated
   */
  void assumeUnhealthyNodes(String key, List<String> nodes) {
    if (!admitted.contains(key)) {
      throw new IllegalArgumentException("Workload " + key + ": status.unhealthyNodes can only be set on a workload "
          + "with quota reserved");
    }
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < nodes.size(); i++) {
      String n = nodes.get(i);
      if (n.isEmpty() || !seen.add(n)) {
        throw new IllegalArgumentException("Workload " + key + ": status.unhealthyNodes[" + i + "].name \"" + n
            + "\" must be a non-empty name, unique in the list");
      }
    }
    nodeFailures.set(key, nodes);
  }

  /** A node was put ({@code before}: the engine's previous version of it, or {@code null}). */
  void nodePut(io.fleetkit.api.core.@org.jspecify.annotations.Nullable Node before, io.fleetkit.api.core.Node node) {
    if (nodeFailures.put(node, clock.instant())) {
      nodeFailed(node.name());
    } else if (nodeFailures.reconciles(before, node)) {
      nodeChanged(node);
    }
  }

  /** A node was removed: its workloads get it recorded as unhealthy. */
  void nodeRemoved(String name) {
    nodeFailures.removed(name);
    nodeFailed(name);
  }

  /**
   * The nodes whose NotReady delay ran out by {@code now} fail; returns what node failures did since the last call
   * (evictions for a second failed node), and forgets it.
   */
  List<NodeReplacement> expire(Instant now) {
    for (String node : nodeFailures.expired(now)) {
      nodeFailed(node);
    }
    List<NodeReplacement> out = new ArrayList<>(events);
    events.clear();
    return out;
  }

  /**
   * Kueue's node controller for a node with a {@code Ready} condition that was created, or whose readiness or taints
   * changed: each workload on it is judged ({@link NodeFailures#verdict}). A Ready node without scheduling taints (or
   * with the taint trigger off) is healthy for all of them without looking at each.
   */
  private void nodeChanged(io.fleetkit.api.core.Node node) {
    if (!podsDecide(node)) {
      if (node.isReady()) {
        nodeFailures.healthy(node.name());
      }
      return; // NotReady: the delay decides
    }
    List<AdmittedWorkload> unhealthy = new ArrayList<>();
    for (AdmittedWorkload w : admitted.values()) {
      if (NodeFailures.names(w, node.name())) {
        judge(node, w, unhealthy);
      }
    }
    markUnhealthy(node.name(), unhealthy);
  }

  /**
   * Adds {@code w} to {@code unhealthy} if it is unhealthy on {@code node}; takes the node off its record if healthy
   * on a Ready node (on a NotReady one its progressing pods only make it wait: a record stays until the node is Ready).
   */
  private void judge(io.fleetkit.api.core.Node node, AdmittedWorkload w, List<AdmittedWorkload> unhealthy) {
    if (nodeFailures.verdict(node, w, tolerationsOn(w, node.name())) == NodeFailures.Verdict.UNHEALTHY) {
      unhealthy.add(w);
    } else if (node.isReady()) {
      nodeFailures.healthy(w.key(), node.name());
    }
  }

  /** Whether pods decide about {@code node} (Kueue's controller looks at each workload there). */
  private boolean podsDecide(io.fleetkit.api.core.Node node) {
    NodeFailures.Triggers t = nodeFailures.triggers();
    return node.isReady() ? t.taints() && NodeFailures.hasSchedulingTaints(node) : t.podTermination();
  }

  /**
   * The effective tolerations of each pod set of {@code w} with pods on {@code node} (Kueue's {@code
   * podSetsWithEffectiveTolerationsOnNode}): the pod set's, its flavors', and its admission checks' pod set updates'.
   */
  private List<List<io.fleetkit.api.scheduling.Toleration>> tolerationsOn(AdmittedWorkload w, String node) {
    List<List<io.fleetkit.api.scheduling.Toleration>> out = new ArrayList<>();
    for (PodSetAssignment pa : w.admission.podSets()) {
      io.fleetkit.queueing.TopologyAssignment ta = pa.topologyAssignment();
      if (ta == null || !TopologyPlacer.names(ta, node)) {
        continue;
      }
      List<io.fleetkit.api.scheduling.Toleration> ts = new ArrayList<>();
      for (PodSet ps : w.workload.podSets()) {
        if (ps.name().equals(pa.name())) {
          ts.addAll(ps.tolerations());
        }
      }
      for (String f : new java.util.LinkedHashSet<>(pa.flavors().values())) {
        ResourceFlavor rf = registry.resourceFlavor(f);
        if (rf != null) {
          ts.addAll(rf.tolerations());
        }
      }
      for (AdmissionCheckState st : checks.states(w.key())) {
        for (PodSetUpdate u : st.podSetUpdates()) {
          if (u.name().equals(pa.name())) {
            ts.addAll(u.tolerations());
          }
        }
      }
      out.add(ts);
    }
    return out;
  }

  /**
   * Records how many pods of a workload with quota bound to {@code node} are progressing (not deleted, not
   * terminated), and judges the workload there if the node is NotReady or tainted (Kueue's node controller on pod
   * events). Returns false, recording nothing, if the workload holds no quota.
   */
  boolean progressingPods(String key, String node, int count) {
    if (count < 0) {
      throw new IllegalArgumentException("Workload " + key + ": progressing pods on node " + node + ": " + count
          + " must not be negative");
    }
    AdmittedWorkload w = admitted.get(key);
    if (w == null) {
      return false;
    }
    nodeFailures.progressing(key, node, count);
    io.fleetkit.api.core.Node n = topology.nodes.get(node);
    if (n != null && n.status().condition(io.fleetkit.api.core.NodeCondition.READY) != null
        && NodeFailures.names(w, node)) {
      List<AdmittedWorkload> unhealthy = new ArrayList<>(1);
      if (podsDecide(n)) {
        judge(n, w, unhealthy);
      }
      markUnhealthy(node, unhealthy);
    }
    return true;
  }

  /** Kueue's node failure controller for a failed node: records it, or evicts workloads with a second failed node. */
  private void nodeFailed(String node) {
    markUnhealthy(node, admitted.values());
  }

  /**
   * Kueue's {@code handleUnhealthyNode} for {@code node} and the workloads of {@code candidates} whose topology
   * assignments name it: records it, or evicts a workload that has another unhealthy node.
   */
  private void markUnhealthy(String node, Collection<AdmittedWorkload> candidates) {
    if (candidates.isEmpty()) {
      return;
    }
    for (Map.Entry<AdmittedWorkload, String> e : nodeFailures.failed(node, candidates).entrySet()) {
      AdmittedWorkload w = e.getKey();
      List<String> nodes = new ArrayList<>(nodeFailures.of(w.key()));
      nodes.add(node);
      evict.accept(w);
      events.add(new NodeReplacement(w.key(), w.cq.name, nodes,
          NodeReplacement.Kind.EVICTED, e.getValue(), w.admission));
      LOG.debug("evicted {}: {}", w.key(), e.getValue());
    }
  }
}
