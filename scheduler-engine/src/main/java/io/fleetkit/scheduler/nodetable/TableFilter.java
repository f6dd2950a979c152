package io.fleetkit.scheduler.nodetable;

import io.fleetkit.api.framework.CycleState;
import io.fleetkit.api.framework.FilterPlugin;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.Status;

/**
 * A Filter plugin's fast path over the {@link NodeTable}: the same answer as
 * {@link FilterPlugin#filter(CycleState, PodInfo, io.fleetkit.api.framework.NodeInfo) filter} on
 * {@code table.view(node)}, reading the table's arrays where they suffice (and the view where they do not). The engine
 * calls it instead of {@code filter} for every node of a cycle; thread-safe and read-only, as {@code filter}.
 */
public interface TableFilter extends FilterPlugin {
  Status filter(CycleState state, PodInfo pod, NodeTable table, int node);
}
