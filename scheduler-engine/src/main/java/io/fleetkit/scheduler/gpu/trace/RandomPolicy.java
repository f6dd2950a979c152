package io.fleetkit.scheduler.gpu.trace;

import java.util.Random;

/** {@code random_score.go}: a uniformly random feasible node; a share goes to a random GPU that fits. */
final class RandomPolicy extends Policy {
  RandomPolicy(Cluster c, Random rng) {
    super(c, rng);
  }

  @Override
  int choose(SimPod p, int[] feasible, int count) {
    return feasible[rng.nextInt(count)];
  }

  @Override
  int[] devices(SimPod p, int node) {
    if (!p.isShare()) {
      return super.devices(p, node);
    }
    int[] l = c.left[node];
    int fit = 0;
    for (int v : l) {
      if (v >= p.milli()) {
        fit++;
      }
    }
    int k = rng.nextInt(fit);
    for (int g = 0; g < l.length; g++) {
      if (l[g] >= p.milli() && k-- == 0) {
        return new int[] {g};
      }
    }
    throw new IllegalStateException("no GPU fits on " + c.names[node]);
  }
}
