package io.fleetkit.scheduler.gpu.trace;

import java.util.Random;

/**
 * A placement policy of the replay: picks a node among the feasible ones (in tie-break order) and the devices on
 * it. Implementations are single-threaded and keep per-replay state.
 */
abstract class Policy {
  final Cluster c;
  final Random rng;

  Policy(Cluster c, Random rng) {
    this.c = c;
    this.rng = rng;
  }

  /** The chosen node among {@code feasible[0..count)}, which is not empty. */
  abstract int choose(SimPod p, int[] feasible, int count);

  /** The devices {@code p} takes on {@code node}. */
  int[] devices(SimPod p, int node) {
    return c.bestDevices(p, node);
  }

  /** The feasible node with the highest score; the first (tie-break order) among equals. */
  static int argMax(long[] scores, int[] feasible, int count) {
    int best = 0;
    for (int k = 1; k < count; k++) {
      if (scores[k] > scores[best]) {
        best = k;
      }
    }
    return feasible[best];
  }
}
