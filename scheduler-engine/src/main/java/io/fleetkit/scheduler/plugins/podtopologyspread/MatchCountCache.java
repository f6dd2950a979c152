package io.fleetkit.scheduler.plugins.podtopologyspread;

import io.fleetkit.api.labels.Selector;
import io.fleetkit.api.framework.NodeInfo;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.LinkedHashMap;
import java.util.Map;
import io.fleetkit.scheduler.nodetable.NodeTable;
import org.jspecify.annotations.Nullable;

/**
 * Per-node counts of the pods matching a (selector, namespace) pair, remembered across scheduling cycles and reused
 * while the node's {@link NodeInfo} is the same object at the same {@link NodeInfo#generation() generation} (the
 * generation changes whenever the node or its pods change). Successive pods of one workload share their selector, so
 * PreFilter recounts only the nodes that changed since the previous pod instead of every pod in the cluster.
 *
 * <p>Bounded: at most {@value #MAX_SELECTORS} selectors are remembered (least recently used dropped). Not
 * thread-safe by itself: callers hold this object's monitor for a whole PreFilter/PreScore pass (one lock per pod,
 * uncontended because a profile schedules one pod at a time).
 */
final class MatchCountCache {
  private static final int MAX_SELECTORS = 256;

  private final Map<String, PerSelector> bySelector = new LinkedHashMap<>(16, 0.75f, true) {
    private static final long serialVersionUID = 1L;

    @Override
    protected boolean removeEldestEntry(Map.Entry<String, PerSelector> eldest) {
      return size() > MAX_SELECTORS;
    }
  };

  /** The counter for pods matching {@code selector} in {@code namespace}. */
  PerSelector forSelector(Selector selector, String namespace) {
    return bySelector.computeIfAbsent(namespace + '\u0000' + selector, k -> new PerSelector(selector, namespace));
  }

  /** Remembered counts for one selector, indexed by the node's position in the snapshot. */
  static final class PerSelector {
    private final Selector selector;
    private final String namespace;
    private NodeInfo[] nodes = new NodeInfo[0];
    private long[] generations = new long[0];
    private int[] counts = new int[0];
    private final Map<String, DomainTotals> totals = new HashMap<>();

    PerSelector(Selector selector, String namespace) {
      this.selector = selector;
      this.namespace = namespace;
    }

    /**
     * The running domain totals for {@code topologyKey} over nodes holding all {@code requiredKeys}, refreshed to
     * {@code nodes} (only where {@code table}, when the nodes are its, logged changes).
     */
    DomainTotals totals(String[] requiredKeys, String topologyKey, List<NodeInfo> nodes,
        @Nullable NodeTable table) {
      DomainTotals t = totals.computeIfAbsent(String.join(",", requiredKeys) + '|' + topologyKey,
          k -> new DomainTotals(requiredKeys, topologyKey));
      t.refresh(nodes, selector, namespace, table);
      return t;
    }

    /** The matching pods on {@code node}, the {@code position}-th node of the snapshot. */
    int count(int position, NodeInfo node) {
      if (position < nodes.length && nodes[position] == node && generations[position] == node.generation()) {
        return counts[position];
      }
      NodeInfo before = position < nodes.length ? nodes[position] : null;
      int c = before == null ? SpreadConstraint.countMatching(node.pods(), selector, namespace)
          : SpreadConstraint.recount(before, counts[position], node, selector, namespace);
      if (position >= nodes.length) {
        int n = Math.max(position + 1, nodes.length * 2);
        nodes = Arrays.copyOf(nodes, n);
        generations = Arrays.copyOf(generations, n);
        counts = Arrays.copyOf(counts, n);
      }
      nodes[position] = node;
      generations[position] = node.generation();
      counts[position] = c;
      return c;
    }
  }
}
