package io.fleetkit.scheduler.internal;

import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.Snapshot;
import io.fleetkit.scheduler.nodetable.NodeTable;
import java.util.AbstractList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.RandomAccess;
import org.jspecify.annotations.Nullable;

/**
 * The scheduler's one snapshot, refreshed by {@link SchedulerCache#updateSnapshot} before each cycle: only nodes whose
 * generation moved are replaced; the node order and the affinity lists are rebuilt only when membership changes.
 * The nodes live in a {@link NodeTable} (object views plus the hot fields in primitive arrays), which the Filter and
 * Score loops walk by position. Immutable while a cycle runs (plugins may read it from several threads).
 */
public final class ClusterSnapshot implements Snapshot, NodeTable.Source {
  long generation = -1;
  long nodeListVersion = -1;
  final NodeTable table = new NodeTable();
  int size;
  final Map<String, Integer> indexByName = new HashMap<>();
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
    Integer i = indexByName.get(nodeName);
    return i == null ? null : table.view(i);
  }

  /** The position of {@code nodeName} in {@link #nodes()}, or -1. */
  int indexOf(String nodeName) {
    Integer i = indexByName.get(nodeName);
    return i == null ? -1 : i;
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
