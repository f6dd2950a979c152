package io.fleetkit.scheduler.nodetable;

import io.fleetkit.api.framework.CycleState;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.ScorePlugin;
import org.jspecify.annotations.Nullable;

/**
 * A Score plugin's fast path over the {@link NodeTable}: the same score as
 * {@link ScorePlugin#score(CycleState, PodInfo, io.fleetkit.api.framework.NodeInfo) score} on
 * {@code table.view(node)}, reading the table's arrays where they suffice. The engine calls it instead of
 * {@code score} for every feasible node; thread-safe, as {@code score}.
 */
public interface TableScore extends ScorePlugin {
  /** {@link #uniformScore}'s answer when the nodes may score differently. */
  long NOT_UNIFORM = -1;

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

  /**
   * What this cycle's scores depend on besides the node: a key such that, for any two cycles (of this plugin instance)
   * whose keys are equal element by element, {@link #score(CycleState, PodInfo, NodeTable, int)} gives the same score
   * on a node whose {@link NodeTable#rowVersion row} has not changed in between. The engine then keeps each node's
   * score and computes it again only for rows that changed: identical pods (a ReplicaSet's) see identical scores on
   * the nodes nobody bound to. Called once per cycle, after PreScore, on the scheduling thread; the array is not
   * modified by the caller and may be the plugin's cycle state. Return null (the default) when the score depends on
   * anything else (other nodes, the clock, mutable state), and the engine scores every node as before.
   */
  default long @Nullable [] scoreKey(CycleState state, PodInfo pod) {
    return null;
  }

  /**
   * The score every node of {@code table} gets in this cycle after {@link ScorePlugin#normalizeScores}, when it is one
   * and the same for all of them, whichever of them are scored; else {@link #NOT_UNIFORM} (the default). A value in
   * [{@link ScorePlugin#MIN_NODE_SCORE}, {@link ScorePlugin#MAX_NODE_SCORE}] promises that Score and NormalizeScore
   * would succeed and give exactly that value on every node: the engine may then add {@code weight * value} to every
   * node's total instead of running them (the same totals, so the same choice). Called once per cycle, after
   * PreScore, on the scheduling thread; it must not write cycle state.
   */
  default long uniformScore(CycleState state, PodInfo pod, NodeTable table) {
    return NOT_UNIFORM;
  }
}
