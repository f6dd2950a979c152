package io.fleetkit.autoscale.cluster;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.scheduler.NodeInfo;
import io.fleetkit.api.scheduler.PodInfo;
import io.fleetkit.api.scheduler.PodInfos;
import io.fleetkit.autoscale.cluster.simulator.SimulatedCluster;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.IntFunction;

/**
 * How many template nodes a set of pending pods needs (upstream {@code estimator/binpacking_estimator.go}): First-Fit
 * Decreasing with the scheduler's real filters.
 *
 * <ol>
 *   <li>Pods are grouped into equivalence groups (same controller and same spec; a pod without a controller is alone)
 *       and the groups sorted by {@code cpu/nodeCpu + memory/nodeMemory} of one pod, largest first
 *       ({@code decreasing_pod_orderer.go}); the sort is stable.
 *   <li>Each pod tries the last added new node, then every new node in order (existing nodes are never used: pods
 *       that fit there were filtered out before estimating).
 *   <li>When none fits, a new template node is added if the limit allows; if the pod does not fit even on that empty
 *       node, the node is dropped and the rest of the pod's group is skipped (its twins would not fit either).
 * </ol>
 *
 * The simulation is left as it was found: the new nodes are removed before returning. Stateless.
 */
public final class BinpackingEstimator {
  private BinpackingEstimator() {}

  /**
   * The estimate.
   *
   * @param nodeCount new nodes that received at least one pod
   * @param pods the pods placed on them, in placement order
   */
  public record Estimate(int nodeCount, List<Pod> pods) {
    public Estimate {
      pods = List.copyOf(pods);
    }
  }

  /**
   * Estimates on {@code sim} (the cluster as it is, used for topology and affinity counts).
   *
   * @param templates makes the i-th new node (0-based); names must be unique in the simulation
   * @param maxNodes at most this many new nodes (0 or less: none)
   */
  public static Estimate estimate(SimulatedCluster sim, List<Pod> pending, IntFunction<Node> templates, int maxNodes) {
    Objects.requireNonNull(sim, "sim");
    Objects.requireNonNull(templates, "templates");
    if (pending.isEmpty() || maxNodes <= 0) {
      return new Estimate(0, List.of());
    }
    Node first = templates.apply(0);
    List<List<PodInfo>> groups = orderedGroups(pending, first.allocatable());
    List<NodeInfo> newNodes = new ArrayList<>();
    List<String> added = new ArrayList<>();
    List<Pod> placed = new ArrayList<>();
    int used = 0;
    try {
      groups:
      for (List<PodInfo> group : groups) {
        for (PodInfo pi : group) {
          String target = null;
          if (!newNodes.isEmpty()) {
            String last = newNodes.get(newNodes.size() - 1).name();
            if (sim.check(pi, last).isSuccess()) {
              target = last;
            } else {
              target = sim.findFit(pi, newNodes, n -> !n.name().equals(last));
            }
          }
          if (target == null) {
            if (newNodes.size() >= maxNodes) {
              break groups;
            }
            Node n = used == 0 ? first : templates.apply(used);
            used++;
            sim.addNode(n);
            added.add(n.name());
            if (!sim.check(pi, n.name()).isSuccess()) {
              sim.removeNode(n.name());
              added.remove(added.size() - 1);
              continue groups;
            }
            target = n.name();
            newNodes.add(Objects.requireNonNull(sim.nodeInfo(target)));
          }
          sim.addPod(target, pi);
          placed.add(pi.pod());
          for (int i = 0; i < newNodes.size(); i++) {
            if (newNodes.get(i).name().equals(target)) {
              newNodes.set(i, Objects.requireNonNull(sim.nodeInfo(target)));
            }
          }
        }
      }
      return new Estimate(newNodes.size(), placed);
    } finally {
      for (String n : added) {
        sim.removeNode(n);
      }
    }
  }

  private record GroupKey(String controllerUid, PodSpec spec) {}

  /** Equivalence groups, sorted largest first by one pod's score against the template's allocatable. */
  static List<List<PodInfo>> orderedGroups(List<Pod> pods, ResourceList alloc) {
    Map<Object, List<PodInfo>> groups = new LinkedHashMap<>();
    for (Pod p : pods) {
      OwnerReference c = p.metadata().controllerRef();
      Object key = c == null ? p.metadata().key() : new GroupKey(c.uid(), p.spec());
      groups.computeIfAbsent(key, k -> new ArrayList<>()).add(PodInfos.of(p));
    }
    List<List<PodInfo>> out = new ArrayList<>(groups.values());
    out.sort(Comparator.comparingDouble((List<PodInfo> g) -> score(g.get(0), alloc)).reversed());
    return out;
  }

  private static double score(PodInfo p, ResourceList alloc) {
    ResourceList r = p.requests();
    double s = 0;
    if (alloc.milliCpu() > 0) {
      s += (double) r.milliCpu() / alloc.milliCpu();
    }
    if (alloc.memoryBytes() > 0) {
      s += (double) r.memoryBytes() / alloc.memoryBytes();
    }
    return s;
  }
}
