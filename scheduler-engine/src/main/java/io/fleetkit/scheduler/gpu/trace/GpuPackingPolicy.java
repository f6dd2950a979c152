package io.fleetkit.scheduler.gpu.trace;

import java.util.Arrays;
import java.util.Random;

/**
 * {@code gpu_packing_score.go}: already shared GPUs first (tightest first), then free GPUs of used nodes, then idle
 * nodes (smallest first). CPU-only pods score 0.
 */
final class GpuPackingPolicy extends ScoredPolicy {

  GpuPackingPolicy(Cluster c, Random rng) {
    super(c, rng);
  }

  @Override
  long score(SimPod p, int i) {
    if (p.isCpuOnly()) {
      return 0;
    }
    int g = c.gpus[i];
    if (c.sumLeft[i] == g * Cluster.FULL) {
      return Math.max(33 - g, g);
    }
    int[] l = Arrays.copyOf(c.left[i], g);
    Arrays.sort(l);
    int taken = 0;
    int freeUsed = 0;
    long sum = 0;
    for (int k = 0; k < g && taken < p.num(); k++) {
      if (l[k] >= p.milli()) {
        taken++;
        if (l[k] == Cluster.FULL) {
          freeUsed++;
        }
        sum += l[k] * 100L / 1000;
      }
    }
    if (freeUsed > 0) {
      return Math.max(50 - freeUsed, 33);
    }
    return Math.max(100 - sum / 10, 50);
  }
}
