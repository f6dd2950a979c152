package io.fleetkit.scheduler.plugins.noderesources;

import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.scheduler.nodetable.NodeTable;
import io.fleetkit.api.framework.ScorePlugin;

/**
 * kube's {@code leastResourceScorer}: per resource {@code (allocatable - requested) * 100 / allocatable} (0 when
 * over-committed), then the weighted mean with integer division. Resources the node lacks are left out.
 */
final class LeastAllocatedScorer implements FitScorer {
  static final LeastAllocatedScorer INSTANCE = new LeastAllocatedScorer();

  private LeastAllocatedScorer() {}

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

  /** Exactly {cpu, memory}: the general loop's arithmetic, in the same order, without the per-resource dispatch. */
  private static long cpuMemory(ResourceVector resources, long cpuAlloc, long memAlloc, long cpuRequested,
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

  private static long general(ResourceVector resources, NodeInfo node, long[] podRequests) {
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

  static long resourceScore(long requested, long capacity) {
    if (capacity == 0 || requested > capacity) {
      return 0;
    }
    return (capacity - requested) * ScorePlugin.MAX_NODE_SCORE / capacity;
  }
}
