package io.fleetkit.scheduler.plugins.noderesources;

import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.scheduler.nodetable.NodeTable;
import io.fleetkit.api.framework.ScorePlugin;

/**
 * kube's {@code leastResourceScorer} and {@code mostResourceScorer}: a per-resource score, then the weighted mean with
 * integer division; resources the node lacks are left out.
 * <ul>
 *   <li>{@link #LEAST} (spreading): {@code (allocatable - requested) * 100 / allocatable}, 0 when over-committed;
 *   <li>{@link #MOST} (bin packing): {@code requested * 100 / allocatable}, with requests above allocatable capped
 *       (pods without requests count their non-zero defaults).
 * </ul>
 */
final class AllocationScorer implements FitScorer {
  static final AllocationScorer LEAST = new AllocationScorer(false);
  static final AllocationScorer MOST = new AllocationScorer(true);

  private final boolean most;

  private AllocationScorer(boolean most) {
    this.most = most;
  }

  @Override
  public long score(ResourceVector resources, NodeInfo node, long[] podRequests) {
    if (resources.cpuMemory()) {
      ResourceList a = node.allocatable();
      return cpuMemory(resources, a.milliCpu(), a.memoryBytes(), resources.requestedCpu(node, podRequests[0]),
          resources.requestedMemory(node, podRequests[1]));
    }
    return general(resources, node, podRequests);
  }

  @Override
  public long score(ResourceVector resources, NodeTable table, int node, long[] podRequests) {
    if (resources.cpuMemory()) {
      return cpuMemory(resources, table.allocatableMilliCpu(node), table.allocatableMemory(node),
          resources.requestedCpu(table, node, podRequests[0]), resources.requestedMemory(table, node, podRequests[1]));
    }
    return general(resources, table.view(node), podRequests);
  }

  @Override
  public void scoreAll(ResourceVector resources, NodeTable table, int[] nodes, int from, int to, long[] podRequests,
      long[] out) {
    if (!resources.cpuMemory()) {
      FitScorer.super.scoreAll(resources, table, nodes, from, to, podRequests, out);
      return;
    }
    long cpuRequest = podRequests[0];
    long memRequest = podRequests[1];
    for (int pos = from; pos < to; pos++) {
      int node = nodes[pos];
      out[pos] = cpuMemory(resources, table.allocatableMilliCpu(node), table.allocatableMemory(node),
          resources.requestedCpu(table, node, cpuRequest), resources.requestedMemory(table, node, memRequest));
    }
  }

  /** Exactly {cpu, memory}: the general loop's arithmetic, in the same order, without the per-resource dispatch. */
  private long cpuMemory(ResourceVector resources, long cpuAlloc, long memAlloc, long cpuRequested,
      long memRequested) {
    long nodeScore = 0;
    long weightSum = 0;
    if (cpuAlloc != 0) {
      nodeScore += resourceScore(cpuRequested, cpuAlloc) * resources.weight(0);
      weightSum += resources.weight(0);
    }
    if (memAlloc != 0) {
      nodeScore += resourceScore(memRequested, memAlloc) * resources.weight(1);
      weightSum += resources.weight(1);
    }
    return weightSum == 0 ? 0 : nodeScore / weightSum;
  }

  private long general(ResourceVector resources, NodeInfo node, long[] podRequests) {
    long nodeScore = 0;
    long weightSum = 0;
    for (int i = 0; i < resources.size(); i++) {
      long allocatable = resources.allocatable(i, node, podRequests[i]);
      if (allocatable == 0) {
        continue;
      }
      long requested = resources.requested(i, node, podRequests[i]);
      long weight = resources.weight(i);
      nodeScore += resourceScore(requested, allocatable) * weight;
      weightSum += weight;
    }
    return weightSum == 0 ? 0 : nodeScore / weightSum;
  }

  private long resourceScore(long requested, long capacity) {
    if (most) {
      return capacity == 0 ? 0 : Math.min(requested, capacity) * ScorePlugin.MAX_NODE_SCORE / capacity;
    }
    return capacity == 0 || requested > capacity ? 0 : (capacity - requested) * ScorePlugin.MAX_NODE_SCORE / capacity;
  }
}
