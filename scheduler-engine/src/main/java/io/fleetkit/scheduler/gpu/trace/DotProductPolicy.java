package io.fleetkit.scheduler.gpu.trace;

import java.util.Random;

/**
 * {@code dot_product_score.go} (merge, max norm; Tetris-like): ⌊100·(1 − v·r/2)⌋ with v the node's free
 * [cpu/128000, GPU/8000] and r the pod's demand; the smallest dot product wins.
 */
final class DotProductPolicy extends ScoredPolicy {
  DotProductPolicy(Cluster c, Random rng) {
    super(c, rng);
  }

  @Override
  long score(SimPod p, int i) {
    if (c.cpuLeft[i] < p.cpu()) {
      return 0;
    }
    double dot = (c.cpuLeft[i] / MAX_SPEC_CPU) * (p.cpu() / MAX_SPEC_CPU)
        + (c.sumLeft[i] / MAX_SPEC_GPU) * (p.gpuTotal() / MAX_SPEC_GPU);
    return (long) (100 * (1 - dot / 2));
  }
}
