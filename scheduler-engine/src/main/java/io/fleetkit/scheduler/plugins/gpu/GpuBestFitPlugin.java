package io.fleetkit.scheduler.plugins.gpu;

import io.fleetkit.api.scheduler.CycleState;
import io.fleetkit.api.scheduler.NodeInfo;
import io.fleetkit.api.scheduler.PodInfo;
import io.fleetkit.api.scheduler.ScorePlugin;
import java.util.List;

/**
 * BestFit, as the FGD paper's baseline ({@code best_fit_score.go}): ⌊100·(1 − (½·cpuLeft/128 cores + ½·gpuLeft/8
 * GPUs))⌋ after the placement, then min-max normalised over the feasible nodes, so the tightest node wins.
 */
public final class GpuBestFitPlugin implements ScorePlugin {
  public static final String NAME = "GpuBestFit";

  private final GpuAssignments assignments;

  GpuBestFitPlugin(GpuAssignments assignments) {
    this.assignments = assignments;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public long score(CycleState state, PodInfo pod, NodeInfo node) {
    GpuDemand d = GpuPolicies.demand(state);
    NodeGpu n = NodeGpu.of(assignments, node);
    double cpu = (n.cpuLeft() - NodeGpu.cpu(pod)) / NodeGpu.MAX_SPEC_CPU;
    double gpu = (n.freeTotal() - NodeGpu.gpuTotal(d)) / NodeGpu.MAX_SPEC_GPU;
    return (long) (100 * (1 - (0.5 * cpu + 0.5 * gpu)));
  }

  @Override
  public void normalizeScores(CycleState state, PodInfo pod, List<NodeInfo> nodes, long[] scores) {
    GpuPolicies.minMax(scores, nodes.size());
  }

  @Override
  public String toString() {
    return NAME;
  }
}
