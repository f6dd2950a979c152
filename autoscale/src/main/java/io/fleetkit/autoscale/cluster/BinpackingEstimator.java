package io.fleetkit.autoscale.cluster;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.resource.dra.ResourceSlice;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.PodInfos;
import io.fleetkit.autoscale.cluster.simulator.SimulatedCluster;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
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
 *       that fit there were filtered out before estimating). Groups without topology spread or pod affinity take a
 *       fast path that gives the same packing: a group that does not fit an empty template node is skipped at once,
 *       and each pod starts its first-fit scan at the node its twin went to, since the nodes before it are full for
 *       this group.
 *   <li>When none fits, a new template node is added if the limit allows; if the pod does not fit even on that empty
 *       node, the node is dropped and the rest of the pod's group is skipped (its twins would not fit either).
 * </ol>
 *
 * New template nodes may come with pods they run from the start (their DaemonSet pods: {@link TemplateNodes}); those
 * take their share of the node before any pending pod is tried, as upstream's template NodeInfos do.
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
    return estimate(sim, PodGroups.of(pending), templates, maxNodes);
  }

  /**
   * Pending pods split into equivalence groups once, to estimate many templates without regrouping. Immutable.
   */
  public static final class PodGroups {
    private final List<Group> groups;
    private final int size;

    private PodGroups(List<Group> groups, int size) {
      this.groups = groups;
      this.size = size;
    }

    /** Groups {@code pods}: same controller and same spec, in order of first appearance. */
    public static PodGroups of(List<Pod> pods) {
      Map<Object, List<PodInfo>> byKey = new LinkedHashMap<>();
      for (Pod p : pods) {
        OwnerReference c = p.metadata().controllerRef();
        Object key = c == null ? p.metadata().key() : new GroupKey(c.uid(), p.spec());
        byKey.computeIfAbsent(key, k -> new ArrayList<>()).add(PodInfos.of(p));
      }
      List<Group> out = new ArrayList<>();
      for (List<PodInfo> g : byKey.values()) {
        out.add(new Group(List.copyOf(g), isFastPath(g.get(0).pod())));
      }
      return new PodGroups(List.copyOf(out), pods.size());
    }

    public int size() {
      return size;
    }
  }

  /**
   * One equivalence group. {@code fastPath}: the pods have no topology spread constraint and no pod (anti-)affinity,
   * so whether one fits a node depends only on that node and only gets worse as pods are added: a twin that did not
   * fit a node will not fit it later, and a pod that does not fit an empty template node fits no new node (upstream
   * has the same fast path for such groups).
   */
  private record Group(List<PodInfo> pods, boolean fastPath) {}

  private static boolean isFastPath(Pod p) {
    return p.spec().topologySpreadConstraints().isEmpty() && !io.fleetkit.api.framework.NodeInfos.hasAffinity(p);
  }

  /** Like {@link #estimate(SimulatedCluster, List, IntFunction, int)} with the pods grouped already. */
  public static Estimate estimate(SimulatedCluster sim, PodGroups pending, IntFunction<Node> templates, int maxNodes) {
    return estimate(sim, pending, templates, n -> List.of(), maxNodes);
  }

  /**
   * Like {@link #estimate(SimulatedCluster, PodGroups, IntFunction, int)} with template nodes that run pods from the
   * start (upstream's template NodeInfo with its DaemonSet pods, {@link TemplateNodes}): each new node, and the empty
   * node a group is first tried on, gets {@code podsOnNew} of it, placed without a check, before any pending pod.
   *
   * @param podsOnNew the pods a new node runs from the start, bound to it
   */
  public static Estimate estimate(SimulatedCluster sim, PodGroups pending, IntFunction<Node> templates,
      Function<Node, List<Pod>> podsOnNew, int maxNodes) {
    return estimate(sim, pending, templates, podsOnNew, n -> List.of(), maxNodes);
  }

  /**
   * Like {@link #estimate(SimulatedCluster, PodGroups, IntFunction, Function, int)} with template nodes that have DRA
   * devices (upstream's template NodeInfo with its {@code LocalResourceSlices}): each new node, and the empty node a
   * group is first tried on, is added with {@code slicesOnNew} of it, so that a pod whose claims only such devices can
   * satisfy fits there, and the devices pods placed earlier took are gone for the pods after them.
   *
   * @param slicesOnNew the node-local ResourceSlices of a new node ({@code spec.nodeName} the node)
   */
  public static Estimate estimate(SimulatedCluster sim, PodGroups pending, IntFunction<Node> templates,
      Function<Node, List<Pod>> podsOnNew, Function<Node, List<ResourceSlice>> slicesOnNew, int maxNodes) {
    Objects.requireNonNull(sim, "sim");
    Objects.requireNonNull(slicesOnNew, "slicesOnNew");
    Objects.requireNonNull(templates, "templates");
    Objects.requireNonNull(podsOnNew, "podsOnNew");
    if (pending.size() == 0 || maxNodes <= 0) {
      return new Estimate(0, List.of());
    }
    Node first = templates.apply(0);
    List<Group> groups = new ArrayList<>(pending.groups);
    ResourceList alloc = first.allocatable();
    groups.sort(Comparator.comparingDouble((Group g) -> score(g.pods().get(0), alloc)).reversed());
    List<NodeInfo> newNodes = new ArrayList<>();
    List<String> added = new ArrayList<>();
    List<Pod> placed = new ArrayList<>();
    int[] used = {0};
    try {
      groups:
      for (Group group : groups) {
        if (group.fastPath() && !fitsEmptyTemplate(sim, group.pods().get(0), templates, podsOnNew, slicesOnNew,
            used)) {
          continue;
        }
        int from = 0; // fast path: new nodes before this one are full for this group
        for (PodInfo pi : group.pods()) {
          String target = null;
          if (group.fastPath()) {
            if (from < newNodes.size()) {
              target = sim.findFit(pi, newNodes.subList(from, newNodes.size()), n -> true);
            }
          } else if (!newNodes.isEmpty()) {
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
            Node n = nextTemplate(templates, used, first);
            addTemplate(sim, n, podsOnNew, slicesOnNew);
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
              if (group.fastPath()) {
                from = i;
              }
              break;
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

  private static Node nextTemplate(IntFunction<Node> templates, int[] used, Node first) {
    Node n = used[0] == 0 ? first : templates.apply(used[0]);
    used[0]++;
    return n;
  }

  /** Adds template node {@code n} with the pods it runs from the start. */
  private static void addTemplate(SimulatedCluster sim, Node n, Function<Node, List<Pod>> podsOnNew,
      Function<Node, List<ResourceSlice>> slicesOnNew) {
    sim.addNode(n, slicesOnNew.apply(n));
    for (Pod p : podsOnNew.apply(n)) {
      sim.addPod(n.name(), PodInfos.of(p));
    }
  }

  /**
   * Whether {@code pod} fits a new template node, with only the pods it runs from the start (tried on a node added
   * and removed at once).
   */
  private static boolean fitsEmptyTemplate(SimulatedCluster sim, PodInfo pod, IntFunction<Node> templates,
      Function<Node, List<Pod>> podsOnNew, Function<Node, List<ResourceSlice>> slicesOnNew, int[] used) {
    Node probe = templates.apply(used[0] + 1_000_000);
    addTemplate(sim, probe, podsOnNew, slicesOnNew);
    try {
      return sim.check(pod, probe.name()).isSuccess();
    } finally {
      sim.removeNode(probe.name());
    }
  }

  private record GroupKey(String controllerUid, PodSpec spec) {}

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
