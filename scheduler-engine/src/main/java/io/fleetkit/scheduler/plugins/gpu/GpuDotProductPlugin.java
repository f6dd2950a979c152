package io.fleetkit.scheduler.plugins.gpu;

/**
 * DotProduct, the FGD paper's Tetris-like baseline ({@code dot_product_score.go}, max norm): ⌊100·(1 − v·r/2)⌋ with
 * v the node's free [cpu/128 cores, GPU/8 GPUs] and r the pod's demand on the same scale; the smallest product
 * wins.
 */
public final class GpuDotProductPlugin implements GpuScorer {
  public static final String NAME = "GpuDotProduct";

  GpuDotProductPlugin() {}

  @Override
  public long score(GpuPod pod, NodeGpu n) {
    long cpu = pod.milliCpu();
    if (n.cpuLeft() < cpu) {
      return 0;
    }
    double dot = (n.cpuLeft() / NodeGpu.MAX_SPEC_CPU) * (cpu / NodeGpu.MAX_SPEC_CPU)
        + (n.freeTotal() / NodeGpu.MAX_SPEC_GPU) * (pod.demand().totalMilli() / NodeGpu.MAX_SPEC_GPU);
    return GpuPolicies.clamp((long) (100 * (1 - dot / 2)));
  }

  @Override
  public String toString() {
    return NAME;
  }
}
