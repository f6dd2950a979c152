package io.fleetkit.scheduler.gpu.trace;

import java.util.Random;

/**
 * {@code best_fit_score.go}: ⌊100·(1 − [0.5·cpu leftover/128000 + 0.5·GPU leftover/8000])⌋, min-max normalised
 * over the feasible nodes in integer arithmetic (0 when all are equal).
 */
final class BestFitPolicy extends ScoredPolicy {
  BestFitPolicy(Cluster c, Random rng) {
    super(c, rng);
  }

  @Override
  long score(SimPod p, int i) {
    double cpu = (c.cpuLeft[i] - p.cpu()) / MAX_SPEC_CPU;
    double gpu = (c.sumLeft[i] - p.gpuTotal()) / MAX_SPEC_GPU;
    return (long) (100 * (1 - (0.5 * cpu + 0.5 * gpu)));
  }

  @Override
  void normalize(int count) {
    long min = Long.MAX_VALUE;
    long max = Long.MIN_VALUE;
    for (int k = 0; k < count; k++) {
      min = Math.min(min, scores[k]);
      max = Math.max(max, scores[k]);
    }
    for (int k = 0; k < count; k++) {
      scores[k] = max == min ? 0 : (scores[k] - min) * 100 / (max - min);
    }
  }
}
