package io.fleetkit.queueing.internal;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.resource.ResourceNames;
import io.fleetkit.queueing.Topology;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * The domains of one flavor's {@link Topology} over its nodes (Kueue's {@code topologyTree} with the snapshot's
 * per-leaf capacities): a domain per distinct path of level values, its parent and children, and for every leaf
 * (lowest-level domain) the summed allocatable of its nodes minus what is in use there. Built for one assignment run;
 * the per-run counts of the algorithm live on the {@link Domain}s. Not thread-safe.
 *
 * <p>Nodes count as Kueue's node cache counts them: only nodes that are Ready and not unschedulable, whose labels
 * match the flavor's node labels and carry every level's label.
 */
final class TopologyTree {
  final String topologyName;
  final List<String> levelKeys;
  /** Whether {@code kubernetes.io/hostname} is the lowest level: leaves are then nodes, keyed by hostname alone. */
  final boolean lowestLevelIsNode;
  /** Leaves by id, in node-name order of their first node. */
  final Map<String, Domain> leaves = new LinkedHashMap<>();
  final Map<String, Domain> roots = new LinkedHashMap<>();
  final List<Map<String, Domain>> domainsPerLevel = new ArrayList<>();
  /** Every domain, parents after their first leaf. */
  final List<Domain> all = new ArrayList<>();

  /**
   * @param topology the levels
   * @param flavorNodeLabels the flavor's node labels, which the nodes must carry
   * @param nodes the cluster's nodes
   * @param usedByNode what pods not placed by topology-aware scheduling use on a node, by node name (Kueue's non-TAS
   *     usage); a node missing from the map uses nothing
   * @param usedByDomain what admitted workloads' topology assignments use, by leaf domain id (Kueue's TAS usage);
   *     usage of a domain the tree does not have is ignored, as Kueue does for a node that went away
   */
  TopologyTree(Topology topology, Map<String, String> flavorNodeLabels, Collection<Node> nodes,
      Map<String, ResourceList> usedByNode, Map<String, ResourceList> usedByDomain) {
    this.topologyName = topology.name();
    this.levelKeys = topology.levels();
    this.lowestLevelIsNode = topology.lowestLevelIsHostname();
    for (int i = 0; i < levelKeys.size(); i++) {
      domainsPerLevel.add(new LinkedHashMap<>());
    }
    List<Node> sorted = new ArrayList<>(nodes);
    sorted.sort(Comparator.comparing(Node::name));
    for (Node node : sorted) {
      if (!node.isReady() || node.spec().unschedulable() || !matchesFlavor(node, flavorNodeLabels)) {
        continue;
      }
      addNode(node, usedByNode.get(node.name()));
    }
    for (Map.Entry<String, ResourceList> e : usedByDomain.entrySet()) {
      Domain leaf = leaves.get(e.getKey());
      if (leaf != null) {
        add(Objects.requireNonNull(leaf.free), units(e.getValue()), -1);
      }
    }
    for (Domain leaf : leaves.values()) {
      all.add(leaf);
      domainsPerLevel.get(leaf.levelValues.size() - 1).put(leaf.id, leaf);
      link(leaf);
    }
  }

  private boolean matchesFlavor(Node node, Map<String, String> flavorNodeLabels) {
    Map<String, String> labels = node.metadata().labels();
    for (Map.Entry<String, String> e : flavorNodeLabels.entrySet()) {
      if (!e.getValue().equals(labels.get(e.getKey()))) {
        return false;
      }
    }
    for (String level : levelKeys) {
      if (!labels.containsKey(level)) {
        return false;
      }
    }
    return true;
  }

  private void addNode(Node node, @Nullable ResourceList used) {
    Map<String, String> labels = node.metadata().labels();
    List<String> values = new ArrayList<>(levelKeys.size());
    for (String level : levelKeys) {
      values.add(labels.get(level));
    }
    String id = lowestLevelIsNode ? values.get(values.size() - 1) : domainId(values);
    Domain leaf = leaves.get(id);
    if (leaf == null) {
      leaf = new Domain(id, values);
      leaf.free = new TreeMap<>();
      if (lowestLevelIsNode) {
        leaf.node = node;
      }
      leaves.put(id, leaf);
    }
    add(leaf.free, units(node.allocatable()), 1);
    if (used != null) {
      add(leaf.free, units(used), -1);
    }
  }

  private void link(Domain dom) {
    if (dom.levelValues.size() == 1) {
      roots.put(dom.id, dom);
      return;
    }
    List<String> parentValues = dom.levelValues.subList(0, dom.levelValues.size() - 1);
    String parentId = domainId(parentValues);
    Map<String, Domain> level = domainsPerLevel.get(parentValues.size() - 1);
    Domain parent = level.get(parentId);
    if (parent == null) {
      parent = new Domain(parentId, parentValues);
      all.add(parent);
      level.put(parentId, parent);
      link(parent);
    }
    dom.parent = parent;
    parent.children.add(dom);
  }

  /** Kueue's {@code DomainID}: the level values joined with commas. */
  static String domainId(List<String> values) {
    return String.join(",", values);
  }

  /** Resource values as Kueue's scheduler counts them: cpu in milli-units, everything else in units. */
  static Map<String, Long> units(ResourceList list) {
    Map<String, Long> out = new TreeMap<>();
    for (String r : list.names()) {
      out.put(r, r.equals(ResourceNames.CPU) ? list.milliValue(r) : list.value(r));
    }
    return out;
  }

  static void add(Map<String, Long> into, Map<String, Long> values, int sign) {
    for (Map.Entry<String, Long> e : values.entrySet()) {
      into.merge(e.getKey(), sign * e.getValue(), Long::sum);
    }
  }

  /** Clears the per-run counts of every domain. */
  void clearCounts() {
    for (Domain d : all) {
      d.podCount = 0;
      d.sliceCount = 0;
      d.podCountWithLeader = 0;
      d.sliceCountWithLeader = 0;
      d.leaderCount = 0;
    }
  }

  /** One topology domain, with the assignment algorithm's per-run counts (Kueue's {@code domain} and its state). */
  static final class Domain {
    final String id;
    final List<String> levelValues;
    @Nullable Domain parent;
    final List<Domain> children = new ArrayList<>();
    /** Leaves only: allocatable minus usage. */
    @Nullable Map<String, Long> free;
    /** Leaves of a hostname-lowest topology: the node, for its labels and taints. */
    @Nullable Node node;

    /**
     * Phase one: how many pods fit in the domain; phase two: how many it gets.
     */
    int podCount;
    /** How many slices fit (0 below the slice level). */
    int sliceCount;
    int podCountWithLeader;
    int sliceCountWithLeader;
    int leaderCount;

    Domain(String id, List<String> levelValues) {
      this.id = id;
      this.levelValues = List.copyOf(levelValues);
    }

    /** A copy sharing the tree links, with its own counts (Kueue's {@code shallowCloneWithState}). */
    Domain copy() {
      Domain c = new Domain(id, levelValues);
      c.parent = parent;
      c.children.addAll(children);
      c.free = free;
      c.node = node;
      c.podCount = podCount;
      c.sliceCount = sliceCount;
      c.podCountWithLeader = podCountWithLeader;
      c.sliceCountWithLeader = sliceCountWithLeader;
      c.leaderCount = leaderCount;
      return c;
    }

    @Override
    public String toString() {
      return id + "{pods=" + podCount + ", slices=" + sliceCount + "}";
    }
  }
}
