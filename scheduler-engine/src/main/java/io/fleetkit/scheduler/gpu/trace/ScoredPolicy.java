package io.fleetkit.scheduler.gpu.trace;

import java.util.Random;

/** A policy that scores each feasible node (integer score, as the Go plugins) and takes the best. */
abstract class ScoredPolicy extends Policy {
  static final double MAX_SPEC_CPU = 128000;
  static final double MAX_SPEC_GPU = 8000;

  long[] scores;

  ScoredPolicy(Cluster c, Random rng) {
    super(c, rng);
    scores = new long[c.n];
  }

  abstract long score(SimPod p, int node);

  /** Rescales {@code scores[0..count)} in place; nothing by default. */
  void normalize(int count) {}

  @Override
  int choose(SimPod p, int[] feasible, int count) {
    for (int k = 0; k < count; k++) {
      scores[k] = score(p, feasible[k]);
    }
    normalize(count);
    return argMax(scores, feasible, count);
  }
}
