package io.fleetkit.scheduler.plugins.gpu;

/**
 * BestFit, as the FGD paper's baseline ({@code best_fit_score.go}): ⌊100·(1 − (½·cpuLeft/128 cores + ½·gpuLeft/8
 * GPUs))⌋ after the placement, then min-max normalised over the feasible nodes, so the tightest node wins.
 */
public final class GpuBestFitPlugin implements GpuScorer {
  public static final String NAME = "GpuBestFit";

  GpuBestFitPlugin() {}

  @Override
  public long score(GpuPod pod, NodeGpu n) {
    double cpu = (n.cpuLeft() - pod.milliCpu()) / NodeGpu.MAX_SPEC_CPU;
    double gpu = (n.freeTotal() - pod.demand().totalMilli()) / NodeGpu.MAX_SPEC_GPU;
    return (long) (100 * (1 - (0.5 * cpu + 0.5 * gpu)));
  }

  @Override
  public void normalize(GpuPod pod, Candidates nodes, long[] scores) {
    GpuPolicies.minMax(scores, nodes.size());
  }

  @Override
  public String toString() {
    return NAME;
  }
}
