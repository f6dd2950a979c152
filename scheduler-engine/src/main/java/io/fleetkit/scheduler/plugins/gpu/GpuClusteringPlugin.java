package io.fleetkit.scheduler.plugins.gpu;

/**
 * GpuClustering, the FGD paper's baseline ({@code gpu_clustering_score.go}): prefer nodes hosting only GPU pods of
 * the same kind (a share, or k whole GPUs): 75+b there, 50+b among mixed kinds, 25+b on nodes without GPU pods, b
 * otherwise, with b = ⌊25·(8000 − free GPU milli)/8000⌋. CPU-only pods score 0 everywhere.
 */
public final class GpuClusteringPlugin implements GpuScorer {
  public static final String NAME = "GpuClustering";
  private static final int KINDS = 9;

  GpuClusteringPlugin() {}

  @Override
  public long score(GpuPod pod, NodeGpu n) {
    GpuDemand d = pod.demand();
    if (d.isNone()) {
      return 0;
    }
    long b = Math.max(0, 25L * (8000 - n.freeTotal()) / 8000);
    int tag = NodeGpu.kind(d);
    int same = n.gpuPods(tag);
    int others = 0;
    for (int k = 0; k < KINDS; k++) {
      if (k != tag) {
        others += n.gpuPods(k);
      }
    }
    if (same > 0) {
      return GpuPolicies.clamp((others == 0 ? 75 : 50) + b);
    }
    return GpuPolicies.clamp((others == 0 ? 25 : 0) + b);
  }

  @Override
  public String toString() {
    return NAME;
  }
}
