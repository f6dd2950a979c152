package io.fleetkit.scheduler.plugins.gpu;

import io.fleetkit.api.scheduler.CycleState;
import io.fleetkit.api.scheduler.NodeInfo;
import io.fleetkit.api.scheduler.PodInfo;
import io.fleetkit.api.scheduler.ScorePlugin;

/**
 * DotProduct, the FGD paper's Tetris-like baseline ({@code dot_product_score.go}, max norm): ⌊100·(1 − v·r/2)⌋ with
 * v the node's free [cpu/128 cores, GPU/8 GPUs] and r the pod's demand on the same scale; the smallest product
 * wins.
 */
public final class GpuDotProductPlugin implements ScorePlugin {
  public static final String NAME = "GpuDotProduct";

  private final GpuAssignments assignments;

  GpuDotProductPlugin(GpuAssignments assignments) {
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
    long cpu = NodeGpu.cpu(pod);
    if (n.cpuLeft() < cpu) {
      return 0;
    }
    double dot = (n.cpuLeft() / NodeGpu.MAX_SPEC_CPU) * (cpu / NodeGpu.MAX_SPEC_CPU)
        + (n.freeTotal() / NodeGpu.MAX_SPEC_GPU) * (NodeGpu.gpuTotal(d) / NodeGpu.MAX_SPEC_GPU);
    return GpuPolicies.clamp((long) (100 * (1 - dot / 2)));
  }

  @Override
  public String toString() {
    return NAME;
  }
}
