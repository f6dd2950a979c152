package io.fleetkit.scheduler.nodetable;

import io.fleetkit.api.framework.CycleState;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.ScorePlugin;

/**
 * A Score plugin's fast path over the {@link NodeTable}: the same score as
 * {@link ScorePlugin#score(CycleState, PodInfo, io.fleetkit.api.framework.NodeInfo) score} on
 * {@code table.view(node)}, reading the table's arrays where they suffice. The engine calls it instead of
 * {@code score} for every feasible node; thread-safe, as {@code score}.
 */
public interface TableScore extends ScorePlugin {
  long score(CycleState state, PodInfo pod, NodeTable table, int node);

  /**
   * Score over a range of nodes in one call: {@code out[pos]} = {@link #score(CycleState, PodInfo, NodeTable, int)} of
   * node {@code nodes[pos]} for each {@code pos} in {@code [from, to)}. The engine calls this instead of the per-node
   * method, so that a plugin can run a tight loop over the table's arrays; the default loops over {@code score}.
   */
  default void scoreAll(CycleState state, PodInfo pod, NodeTable table, int[] nodes, int from, int to, long[] out) {
    for (int pos = from; pos < to; pos++) {
      out[pos] = score(state, pod, table, nodes[pos]);
    }
  }
}
