package io.fleetkit.autoscale.cluster;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.resource.dra.ResourceSlice;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.PodInfos;
import io.fleetkit.api.framework.Status;
import io.fleetkit.api.scheduling.TopologySpreadConstraint;
import io.fleetkit.autoscale.cluster.simulator.SimulatedCluster;
import io.fleetkit.autoscale.cluster.simulator.SimulatedNodes;
import io.fleetkit.scheduler.plugins.podtopologyspread.PodTopologySpreadPlugin;
import java.util.HashSet;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.IntFunction;

/**
 * How many template nodes a set of pending pods needs (upstream {@code estimator/binpacking_estimator.go},
 * {@code BinpackingNodeEstimator} of cluster-autoscaler-release-1.37, without the optional fast path, off by
 * default upstream): First-Fit Decreasing with the scheduler's real filters.
 *
 * <ol>
 *   <li>Pods are grouped into scale-up's equivalence groups ({@link PodGroups#of}: same controller, equal labels and
 *       the same spec but for projected volumes, hostname and {@code env}, at most 10 groups per controller; a pod
 *       without a controller and a DaemonSet pod are alone; upstream's estimator is handed the groups scale-up
 *       made, and scale-up hands a pool's estimate only those whose first pod fits the pool's empty template node:
 *       {@link PodGroups#only}, {@link #schedulableGroups}) and the groups sorted by
 *       {@code cpu/nodeCpu + memory/nodeMemory} of one pod, largest first ({@code decreasing_pod_orderer.go}); the
 *       sort is stable.
 *   <li>Each group's pods are first placed, in order, on the new nodes added so far
 *       ({@code tryToScheduleOnExistingNodes}): each searched for round-robin, from the position every search of the autoscaler shares
 *       ({@link SearchPosition}, upstream's plugin runner's {@code lastIndex}: the search runs over the simulation's
 *       node list, its existing nodes not acceptable, and the node found moves the position), until the first pod
 *       that fits none of them.
 *   <li>The pods left go to new nodes ({@code tryToScheduleOnNewNodes}): each tries the last node added; a pod with a
 *       {@code kubernetes.io/hostname} spread constraint refused there by that constraint is searched for on any
 *       other node, round-robin from the shared position (upstream counts the node found, whatever it is, as a node
 *       with pods). A pod that fits neither adds a new template node, unless the last one added is still empty (then
 *       the group is done: a pod that does not fit an empty node fits no new one) or {@code maxNodes} nodes were added
 *       (then no group adds any more nodes); a pod that does not fit even the new node ends its group, the empty node
 *       staying for the groups after it, as upstream keeps it in the snapshot.
 * </ol>
 *
 * New template nodes may come with pods they run from the start (their DaemonSet pods: {@link TemplateNodes}); those
 * take their share of the node before any pending pod is tried, as upstream's template NodeInfos do. The estimate is
 * the number of new nodes that received a pod, and the pods placed, in placement order.
 *
 * The simulation is left as it was found: the new nodes are removed before returning (upstream's {@code Revert}); the
 * search position is not (upstream's plugin runner outlives the fork). Stateless.
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
   * Pending pods split into scale-up's equivalence groups once per loop (upstream's {@code equivalence.PodGroup}s):
   * the pools' schedulability checks and every pool's estimate read the same groups. Immutable, so nothing a check
   * or an estimate learns about one pool stays on them for the next (upstream clones its groups for that).
   */
  public static final class PodGroups {
    private final List<Group> groups;
    private final int size;

    private PodGroups(List<Group> groups, int size) {
      this.groups = groups;
      this.size = size;
    }

    /**
     * Groups {@code pods} as scale-up groups them once per loop (upstream's {@code BuildPodGroups} and
     * {@code groupPodsBySchedulingProperties} of {@code core/scaleup/equivalence/groups.go}): a pod joins the group of
     * an earlier pod of the same controller with equal labels and the same spec as {@code PodSpecSemanticallyEqual}
     * compares it ({@link SimilarPods}, {@link PodSpecEquivalence}: projected volumes, hostname and {@code env}
     * aside). A pod without a controller and a DaemonSet pod ({@link TemplateNodes#isDaemonSetPod}) are each a group
     * of their own, and so is every pod that starts a new variant of a controller that already has
     * {@value SimilarPods#MAX_PER_CONTROLLER} groups (even pods equal to one another: upstream keeps no representative
     * for them). The labels keep apart what the spec no longer does: a StatefulSet's pods (their own hostname, and
     * label {@code statefulset.kubernetes.io/pod-name}), an indexed Job's (their own {@code JOB_COMPLETION_INDEX},
     * and the completion-index label).
     *
     * <p>The groups are in the order of their first pods in {@code pods}, each group's pods in list order (upstream
     * returns its groups from a map, in no particular order; the estimator's sort is stable, so this order breaks its
     * ties).
     */
    public static PodGroups of(List<Pod> pods) {
      List<List<PodInfo>> groups = new ArrayList<>();
      SimilarPods<List<PodInfo>> kinds = new SimilarPods<>();
      for (Pod p : pods) {
        PodInfo pi = PodInfos.of(p);
        // a DaemonSet pod is alone even where a pod of its controller is remembered (upstream checks it first)
        List<PodInfo> group = TemplateNodes.isDaemonSetPod(p) ? null : kinds.find(p);
        if (group == null) {
          group = new ArrayList<>(1);
          groups.add(group);
          kinds.remember(p, group);
        }
        group.add(pi);
      }
      List<Group> out = new ArrayList<>(groups.size());
      for (List<PodInfo> g : groups) {
        out.add(new Group(List.copyOf(g)));
      }
      return new PodGroups(List.copyOf(out), pods.size());
    }

    /**
     * The groups {@code keep} marks (by index, in the order the groups were made; as {@link #schedulableGroups} gives
     * them), in their order: what scale-up hands a pool's estimate (upstream's {@code SchedulablePodGroups} result).
     *
     * @throws IllegalArgumentException if {@code keep} does not have one entry per group
     */
    PodGroups only(boolean[] keep) {
      if (keep.length != groups.size()) {
        throw new IllegalArgumentException("keep: " + keep.length + " entries for " + groups.size()
            + " pod groups, must be one per group");
      }
      List<Group> out = new ArrayList<>(groups.size());
      int pods = 0;
      for (int i = 0; i < keep.length; i++) {
        if (keep[i]) {
          out.add(groups.get(i));
          pods += groups.get(i).pods().size();
        }
      }
      return out.size() == groups.size() ? this : new PodGroups(List.copyOf(out), pods);
    }

    /** The pods of each group, in the groups' order. */
    List<List<Pod>> pods() {
      List<List<Pod>> out = new ArrayList<>(groups.size());
      for (int i = 0; i < groups.size(); i++) {
        out.add(groupPods(i));
      }
      return out;
    }

    /** How many groups there are. */
    int groupCount() {
      return groups.size();
    }

    /** The pods of group {@code i}. */
    List<Pod> groupPods(int i) {
      return groups.get(i).pods().stream().map(PodInfo::pod).toList();
    }

    public int size() {
      return size;
    }
  }

  /** One equivalence group. */
  private record Group(List<PodInfo> pods) {}

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
    return estimate(sim, pending, templates, podsOnNew, slicesOnNew, maxNodes, new SearchPosition());
  }

  /**
   * Like {@link #estimate(SimulatedCluster, PodGroups, IntFunction, Function, Function, int)}, the searches going on
   * from {@code position} and moving it (the autoscaler's, shared with its other searches).
   */
  static Estimate estimate(SimulatedCluster sim, PodGroups pending, IntFunction<Node> templates,
      Function<Node, List<Pod>> podsOnNew, Function<Node, List<ResourceSlice>> slicesOnNew, int maxNodes,
      SearchPosition position) {
    Objects.requireNonNull(sim, "sim");
    Objects.requireNonNull(slicesOnNew, "slicesOnNew");
    Objects.requireNonNull(templates, "templates");
    Objects.requireNonNull(podsOnNew, "podsOnNew");
    Objects.requireNonNull(position, "position");
    if (pending.size() == 0 || maxNodes <= 0) {
      return new Estimate(0, List.of());
    }
    Node first = templates.apply(0);
    List<Group> groups = new ArrayList<>(pending.groups);
    ResourceList alloc = first.allocatable();
    groups.sort(Comparator.comparingDouble((Group g) -> score(g.pods().get(0), alloc)).reversed());
    Packing packing = new Packing(sim, templates, first, podsOnNew, slicesOnNew, maxNodes, position);
    try {
      boolean newNodesAvailable = true;
      for (Group group : groups) {
        List<PodInfo> pods = group.pods();
        int placed = packing.onNewNodes(pods);
        if (newNodesAvailable) {
          newNodesAvailable = packing.addingNodes(pods.subList(placed, pods.size()));
        }
      }
      return new Estimate(packing.withPods.size(), packing.placed);
    } finally {
      for (NodeInfo n : packing.newNodes) {
        sim.removeNode(n.name());
      }
    }
  }

  /** One estimation's state (upstream's {@code estimationState}). */
  private static final class Packing {
    private final SimulatedCluster sim;
    private final IntFunction<Node> templates;
    private final Node first;
    private final Function<Node, List<Pod>> podsOnNew;
    private final Function<Node, List<ResourceSlice>> slicesOnNew;
    private final int maxNodes;
    private final SearchPosition position;
    /** The template nodes added, in order (their views when added: searches read the current ones by name). */
    final List<NodeInfo> newNodes = new ArrayList<>();
    /** The nodes that received a pod. */
    final Set<String> withPods = new HashSet<>();
    final List<Pod> placed = new ArrayList<>();
    private @Nullable String last;

    Packing(SimulatedCluster sim, IntFunction<Node> templates, Node first, Function<Node, List<Pod>> podsOnNew,
        Function<Node, List<ResourceSlice>> slicesOnNew, int maxNodes, SearchPosition position) {
      this.sim = sim;
      this.templates = templates;
      this.first = first;
      this.podsOnNew = podsOnNew;
      this.slicesOnNew = slicesOnNew;
      this.maxNodes = maxNodes;
      this.position = position;
    }

    /**
     * Upstream's {@code tryToScheduleOnExistingNodes}: places {@code pods}, in order, each on a new node found
     * round-robin from the shared position, until one fits none.
     *
     * @return how many were placed (the first ones)
     */
    int onNewNodes(List<PodInfo> pods) {
      for (int i = 0; i < pods.size(); i++) {
        if (newNodes.isEmpty()) {
          return i;
        }
        // the search over the node list from the position, only new nodes acceptable: the new nodes are the last
        // ones of the list, so it visits them from the one at the position (or the first, when the position is on an
        // existing node), wrapping around
        int size = sim.size();
        int existing = size - newNodes.size();
        int from = Math.floorMod(position.next(), size);
        int j = sim.findFitFrom(pods.get(i), newNodes, from >= existing ? from - existing : 0, n -> true);
        if (j < 0) {
          return i;
        }
        position.found(existing + j);
        place(pods.get(i), newNodes.get(j).name());
      }
      return pods.size();
    }

    /**
     * Upstream's {@code tryToScheduleOnNewNodes}.
     *
     * @return whether the groups after this one may still add nodes (the limit was not reached)
     */
    boolean addingNodes(List<PodInfo> pods) {
      for (PodInfo pi : pods) {
        boolean found = false;
        String lastNode = last;
        if (lastNode != null) {
          Status st = sim.check(pi, lastNode);
          if (st.isSuccess()) {
            place(pi, lastNode);
            found = true;
          } else if (usesHostnameSpread(pi.pod())
              && st.reasons().contains(PodTopologySpreadPlugin.ERR_REASON_CONSTRAINTS_NOT_MATCH)) {
            List<NodeInfo> all = sim.nodes();
            int at = sim.findFitFrom(pi, all, position.next(), n -> !n.name().equals(lastNode));
            if (at >= 0) {
              String name = all.get(at).name();
              position.found(at);
              place(pi, name);
              found = true;
            }
          }
        }
        if (!found) {
          if (lastNode != null && !withPods.contains(lastNode)) {
            return true; // the last node added is empty and the pod does not fit it: no new node would help
          }
          if (newNodes.size() >= maxNodes) {
            return false;
          }
          Node n = newNodes.isEmpty() ? first : templates.apply(newNodes.size());
          addTemplate(sim, n, podsOnNew, slicesOnNew);
          newNodes.add(Objects.requireNonNull(sim.nodeInfo(n.name())));
          last = n.name();
          if (!sim.check(pi, n.name()).isSuccess()) {
            break; // the empty node stays for the groups after this one
          }
          place(pi, n.name());
        }
      }
      return true;
    }

    private void place(PodInfo pi, String node) {
      sim.addPod(node, pi);
      withPods.add(node);
      placed.add(pi.pod());
    }
  }

  /**
   * Upstream's {@code SchedulablePodGroups}: which of {@code pending}'s groups (by index, in the order the groups were
   * made) have a first pod that passes the filters on an empty {@code template} node, added to {@code sim} with the
   * pods and slices it starts with and removed again.
   */
  static boolean[] schedulableGroups(SimulatedCluster sim, PodGroups pending, Node template,
      Function<Node, List<Pod>> podsOnNew, Function<Node, List<ResourceSlice>> slicesOnNew) {
    return schedulableGroups(sim, pending, template, podsOnNew, slicesOnNew, null);
  }

  /**
   * {@link #schedulableGroups(SimulatedCluster, PodGroups, Node, Function, Function)}, also writing each group's
   * check into {@code checks} (upstream's {@code SchedulingErrors} of the group for this template) when not null.
   */
  static boolean[] schedulableGroups(SimulatedCluster sim, PodGroups pending, Node template,
      Function<Node, List<Pod>> podsOnNew, Function<Node, List<ResourceSlice>> slicesOnNew,
      io.fleetkit.api.framework.Status @Nullable [] checks) {
    boolean[] out = new boolean[pending.groups.size()];
    addTemplate(sim, template, podsOnNew, slicesOnNew);
    try {
      for (int i = 0; i < out.length; i++) {
        io.fleetkit.api.framework.Status st = sim.check(pending.groups.get(i).pods().get(0), template.name());
        out[i] = st.isSuccess();
        if (checks != null) {
          checks[i] = st;
        }
      }
    } finally {
      sim.removeNode(template.name());
    }
    return out;
  }

  /** Upstream's {@code isPodUsingHostNameTopologyKey}: a spread constraint over {@code kubernetes.io/hostname}. */
  private static boolean usesHostnameSpread(Pod p) {
    for (TopologySpreadConstraint c : p.spec().topologySpreadConstraints()) {
      if (c.topologyKey().equals(SimulatedNodes.HOSTNAME_LABEL)) {
        return true;
      }
    }
    return false;
  }

  /** Adds template node {@code n} with the pods it runs from the start. */
  private static void addTemplate(SimulatedCluster sim, Node n, Function<Node, List<Pod>> podsOnNew,
      Function<Node, List<ResourceSlice>> slicesOnNew) {
    sim.addNode(n, slicesOnNew.apply(n));
    for (Pod p : podsOnNew.apply(n)) {
      sim.addPod(n.name(), PodInfos.of(p));
    }
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
