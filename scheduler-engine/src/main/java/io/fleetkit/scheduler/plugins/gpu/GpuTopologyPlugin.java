package io.fleetkit.scheduler.plugins.gpu;

import io.fleetkit.api.framework.CycleState;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.PreScorePlugin;
import io.fleetkit.api.framework.ScorePlugin;
import io.fleetkit.api.framework.Status;
import java.util.List;

/**
 * Prefers nodes where a multi-GPU pod gets all its devices from one interconnect group (or NUMA node): 100 there,
 * else 100 × (most free devices in one group) / (devices asked). PreScore Skips pods asking for fewer than 2 GPUs.
 */
public final class GpuTopologyPlugin implements PreScorePlugin, ScorePlugin {
  public static final String NAME = "GpuTopology";

  private final GpuAssignments assignments;

  GpuTopologyPlugin(GpuAssignments assignments) {
    this.assignments = assignments;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public Status preScore(CycleState state, PodInfo pod, List<NodeInfo> nodes) {
    GpuDemand d = state.read(GpuFilterPlugin.DEMAND);
    return d == null || d.whole() < 2 ? Status.skip() : Status.success();
  }

  @Override
  public long score(CycleState state, PodInfo pod, NodeInfo node) {
    GpuDemand d = state.read(GpuFilterPlugin.DEMAND);
    if (d == null || d.whole() < 2) {
      return 0;
    }
    int best = assignments.ledger(node).maxFreeInOneGroup(d);
    return Math.min(MAX_NODE_SCORE, MAX_NODE_SCORE * best / d.whole());
  }

  @Override
  public String toString() {
    return NAME;
  }
}
