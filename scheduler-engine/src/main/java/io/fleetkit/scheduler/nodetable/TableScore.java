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
}
