package io.fleetkit.scheduler.plugins.noderesources;

import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.scheduler.nodetable.NodeTable;

/**
 * One of {@code NodeResourcesFit}'s scoring strategies: a node score in [0, 100] from the node and the pod's
 * precomputed request vector. Implementations allocate nothing and are thread-safe.
 */
interface FitScorer {
  long score(ResourceVector resources, NodeInfo node, long[] podRequests);

  /** {@link #score(ResourceVector, NodeInfo, long[])} for the node at position {@code node} of {@code table}. */
  default long score(ResourceVector resources, NodeTable table, int node, long[] podRequests) {
    return score(resources, table.view(node), podRequests);
  }

  /** {@link #score(ResourceVector, NodeTable, int, long[])} of nodes {@code nodes[from..to)} into {@code out}. */
  default void scoreAll(ResourceVector resources, NodeTable table, int[] nodes, int from, int to, long[] podRequests,
      long[] out) {
    for (int pos = from; pos < to; pos++) {
      out[pos] = score(resources, table, nodes[pos], podRequests);
    }
  }

  static FitScorer of(ScoringStrategy strategy) {
    return switch (strategy.type()) {
      case LeastAllocated -> AllocationScorer.LEAST;
      case MostAllocated -> AllocationScorer.MOST;
      case RequestedToCapacityRatio -> new RequestedToCapacityRatioScorer(strategy.shape());
    };
  }
}
