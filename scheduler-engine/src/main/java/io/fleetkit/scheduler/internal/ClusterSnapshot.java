package io.fleetkit.scheduler.internal;

import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.Snapshot;
import io.fleetkit.scheduler.nodetable.NodeTable;
import java.util.AbstractList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.RandomAccess;
import org.jspecify.annotations.Nullable;

/**
 * The scheduler's one snapshot, refreshed by {@link SchedulerCache#updateSnapshot} before each cycle: only nodes whose
 * generation moved are replaced; a removed node's position is closed by moving the later rows down (one block move
 * per column), an added one is appended, and the affinity lists are rebuilt from the table's flags when membership
 * changes.
 * The nodes live in a {@link NodeTable} (object views plus the hot fields in primitive arrays), which the Filter and
 * Score loops walk by position. Immutable while a cycle runs (plugins may read it from several threads).
 */
public final class ClusterSnapshot implements Snapshot, NodeTable.Source {
  long generation = -1;
  long nodeListVersion = -1;
  final NodeTable table = new NodeTable();
  int size;
  /**
   * The cache's nodes this snapshot holds, by name; a node's position is found from its creation order
   * ({@link CacheNode#order}), which {@code orders} lists ascending by position (the cache's node order), so that
   * positions shifted by a removal need no update per node.
   */
  final Map<String, CacheNode> byName = new HashMap<>();
  long[] orders = new long[0];
  int[] affinityIdx = new int[0];
  int affinitySize;
  int[] antiIdx = new int[0];
  int antiSize;
  private final List<NodeInfo> nodeList = new ArrayView();
  private final List<NodeInfo> affinityList = new IndexView(true);
  private final List<NodeInfo> antiList = new IndexView(false);

  @Override
  public NodeTable nodeTable() {
    return table;
  }

  @Override
  public List<NodeInfo> nodes() {
    return nodeList;
  }

  @Override
  public List<NodeInfo> nodesWithAffinityPods() {
    return affinityList;
  }

  @Override
  public List<NodeInfo> nodesWithRequiredAntiAffinityPods() {
    return antiList;
  }

  @Override
  public @Nullable NodeInfo get(String nodeName) {
    int i = indexOf(nodeName);
    return i < 0 ? null : table.view(i);
  }

  /** The position of {@code nodeName} in {@link #nodes()}, or -1. */
  int indexOf(String nodeName) {
    CacheNode n = byName.get(nodeName);
    return n == null ? -1 : positionOf(n);
  }

  /**
   * The position of {@code n}, which this snapshot holds: its {@link CacheNode#snapshotIndex} when that still names
   * it (the last position the cache placed or found it at), else a binary search of {@link #orders}.
   */
  int positionOf(CacheNode n) {
    int i = n.snapshotIndex;
    if (i >= 0 && i < size && orders[i] == n.order) {
      return i;
    }
    return Arrays.binarySearch(orders, 0, size, n.order);
  }

  @Override
  public int size() {
    return size;
  }

  private final class ArrayView extends AbstractList<NodeInfo> implements RandomAccess {
    @Override
    public NodeInfo get(int index) {
      if (index >= size) {
        throw new IndexOutOfBoundsException("node index " + index + " of " + size);
      }
      return table.view(index);
    }

    @Override
    public int size() {
      return size;
    }
  }

  private final class IndexView extends AbstractList<NodeInfo> implements RandomAccess {
    private final boolean affinity;

    IndexView(boolean affinity) {
      this.affinity = affinity;
    }

    @Override
    public NodeInfo get(int index) {
      int n = affinity ? affinitySize : antiSize;
      if (index >= n) {
        throw new IndexOutOfBoundsException("node index " + index + " of " + n);
      }
      return table.view(affinity ? affinityIdx[index] : antiIdx[index]);
    }

    @Override
    public int size() {
      return affinity ? affinitySize : antiSize;
    }
  }
}
