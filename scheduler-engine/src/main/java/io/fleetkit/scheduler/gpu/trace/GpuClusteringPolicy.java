package io.fleetkit.scheduler.gpu.trace;

import java.util.Random;

/**
 * {@code gpu_clustering_score.go}: prefer nodes hosting only GPU pods of the same kind (share, or k whole GPUs):
 * 75+b there, 50+b with mixed kinds, 25+b on nodes without GPU pods, b otherwise, with
 * b = ⌊25·(8000 − free GPU milli)/8000⌋. CPU-only pods score 0.
 */
final class GpuClusteringPolicy extends ScoredPolicy {
  GpuClusteringPolicy(Cluster c, Random rng) {
    super(c, rng);
  }

  @Override
  long score(SimPod p, int i) {
    if (p.isCpuOnly()) {
      return 0;
    }
    long b = 25L * (8000 - c.sumLeft[i]) / 8000;
    int tag = p.isShare() ? 0 : Math.min(p.num(), 8);
    int[] t = c.tags[i];
    int same = t[tag];
    int others = 0;
    for (int k = 0; k < t.length; k++) {
      if (k != tag) {
        others += t[k];
      }
    }
    if (same > 0) {
      return (others == 0 ? 75 : 50) + b;
    }
    return (others == 0 ? 25 : 0) + b;
  }
}
