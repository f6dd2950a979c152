package io.fleetkit.scheduler.plugins.podtopologyspread;

import io.fleetkit.api.labels.Selector;
import io.fleetkit.api.framework.NodeInfo;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import io.fleetkit.scheduler.nodetable.NodeTable;
import org.jspecify.annotations.Nullable;

/**
 * Running per-domain totals of the pods matching one (selector, namespace), for one topology key, over the nodes
 * that hold every key in {@code requiredKeys} (a node lacking the topology key, when it is not required, counts under
 * the value ""): the PreFilter and PreScore counts of every pod whose constraints need no per-pod eligibility check
 * (nodeAffinityPolicy Honor with no node selector or affinity, or Ignore; nodeTaintsPolicy Ignore).
 *
 * <p>{@link #refresh} revisits only the snapshot positions whose {@link NodeInfo} object or generation changed since
 * the last pod, retracting the old contribution and adding the new one (a changed node's count follows from its old
 * count and the pods that differ, {@link SpreadConstraint#recount}), so a pod costs one identity check per node
 * instead of a walk over every pod in the cluster. {@link #toCounts()} hands out a copy. The value index is copied
 * before growing once handed out. Not thread-safe: used under the {@link MatchCountCache} monitor.
 */
final class DomainTotals {
  private final String[] requiredKeys;
  private final String topologyKey;
  private NodeInfo[] nodes = new NodeInfo[0];
  private long[] generations = new long[0];
  private int[] slots = new int[0];
  private int[] counts = new int[0];
  private int known;
  /** The table whose change log these totals followed, and how far ({@code -1}: none). */
  private @Nullable NodeTable table;
  private long tableSeen = -1;
  private HashMap<String, Integer> index = new HashMap<>();
  private boolean indexShared;
  private int[] totals = new int[4];
  private int[] members = new int[4];

  DomainTotals(String[] requiredKeys, String topologyKey) {
    this.requiredKeys = requiredKeys;
    this.topologyKey = topologyKey;
  }

  /**
   * Brings the totals up to date with {@code list} (the snapshot's node list), visiting only the positions
   * {@code table}'s change log names when {@code list} is that table's nodes and these totals followed it since the
   * log's base; every position otherwise.
   */
  void refresh(List<NodeInfo> list, Selector selector, String namespace, @Nullable NodeTable table) {
    int size = list.size();
    if (table == null || table != this.table || tableSeen < table.logBase() || size < known) {
      refresh(list, selector, namespace);
    } else {
      grow(size);
      for (int n = known; n < size; n++) {
        place(n, list.get(n), selector, namespace);
      }
      known = size;
      for (long seq = tableSeen, end = table.logEnd(); seq < end; seq++) {
        int n = table.changedAt(seq);
        if (n < size) {
          visit(n, list.get(n), selector, namespace);
        }
      }
    }
    this.table = table;
    tableSeen = table == null ? -1 : table.logEnd();
  }

  /** Brings the totals up to date with {@code list} (the snapshot's node list), visiting every position. */
  void refresh(List<NodeInfo> list, Selector selector, String namespace) {
    int size = list.size();
    grow(size);
    for (int n = 0; n < size; n++) {
      NodeInfo node = list.get(n);
      if (n < known) {
        visit(n, node, selector, namespace);
      } else {
        place(n, node, selector, namespace);
      }
    }
    for (int n = size; n < known; n++) {
      retract(n);
      nodes[n] = null;
    }
    known = size;
    this.table = null;
    tableSeen = -1;
  }

  private void grow(int size) {
    if (size > nodes.length) {
      nodes = Arrays.copyOf(nodes, size);
      generations = Arrays.copyOf(generations, size);
      slots = Arrays.copyOf(slots, size);
      counts = Arrays.copyOf(counts, size);
    }
  }

  /** Re-counts known position {@code n} unless {@code node} is the one counted there. */
  private void visit(int n, NodeInfo node, Selector selector, String namespace) {
    if (nodes[n] == node && generations[n] == node.generation()) {
      return;
    }
    NodeInfo before = nodes[n];
    int c = before == null || slots[n] < 0 ? -1 : SpreadConstraint.recount(before, counts[n], node, selector, namespace);
    retract(n);
    place(n, node, c, selector, namespace);
  }

  /** Counts {@code node} at position {@code n} (nothing counted there). */
  private void place(int n, NodeInfo node, Selector selector, String namespace) {
    place(n, node, -1, selector, namespace);
  }

  /**
   * Counts {@code node} at position {@code n} (nothing counted there) with {@code known} matching pods, or counting
   * them when -1. A node lacking the topology key counts under the value "" (a node lacking a required key not at all).
   */
  private void place(int n, NodeInfo node, int known, Selector selector, String namespace) {
    nodes[n] = node;
    generations[n] = node.generation();
    Map<String, String> labels = node.labels();
    int slot = -1;
    int c = 0;
    if (hasAll(labels)) {
      slot = slotOf(labels.getOrDefault(topologyKey, ""));
      c = known >= 0 ? known : SpreadConstraint.countMatching(node.pods(), selector, namespace);
      totals[slot] += c;
      members[slot]++;
    }
    slots[n] = slot;
    counts[n] = c;
  }

  /** The current totals as a pod's domain counts (domains: values with at least one member node). */
  DomainCounts toCounts() {
    indexShared = true;
    int n = index.size();
    boolean[] present = new boolean[Math.max(4, n)];
    int domains = 0;
    for (int i = 0; i < n; i++) {
      if (members[i] > 0) {
        present[i] = true;
        domains++;
      }
    }
    return new DomainCounts(index, Arrays.copyOf(totals, Math.max(4, n)), present, domains);
  }

  /**
   * The matching pods over the member nodes whose topology value is {@code value} (0 when there is none), as of the
   * last refresh.
   */
  int total(String value) {
    Integer s = index.get(value);
    return s == null ? 0 : totals[s];
  }

  private void retract(int n) {
    int slot = slots[n];
    if (slot >= 0) {
      totals[slot] -= counts[n];
      members[slot]--;
    }
  }

  private boolean hasAll(Map<String, String> labels) {
    for (String k : requiredKeys) {
      if (!labels.containsKey(k)) {
        return false;
      }
    }
    return true;
  }

  private int slotOf(String value) {
    Integer s = index.get(value);
    if (s != null) {
      return s;
    }
    if (indexShared) {
      index = new HashMap<>(index);
      indexShared = false;
    }
    int slot = index.size();
    index.put(value, slot);
    if (slot >= totals.length) {
      totals = Arrays.copyOf(totals, slot * 2);
      members = Arrays.copyOf(members, slot * 2);
    }
    return slot;
  }
}
