package io.fleetkit.scheduler.plugins.gpu;

import org.jspecify.annotations.Nullable;

/**
 * The FGD score ({@code fgd_score.go}): ⌊100·sigmoid(Δ/1000)⌋ with Δ the decrease of the node's fragmentation
 * F_n(M) if the pod went there. A share is tried on every device that fits; the best device is also the one it
 * gets (see {@link #bestShareDevice}). Whole devices are the lowest-indexed free ones of an accepted model.
 */
final class Fgd {
  private Fgd() {}

  static long sigmoidScore(double delta) {
    return (long) (100 / (1 + Math.exp(-delta / 1000)));
  }

  /** The score of the pod ({@code cpu}, {@code d}) on node {@code n}; writes the best share device to {@code best}. */
  static long score(GpuWorkload m, NodeGpu n, long cpu, GpuDemand d, int @Nullable [] best) {
    int[] free = n.free();
    double before = m.fragmentation(n.cpuLeft(), free, n.models());
    long cpuAfter = n.cpuLeft() - cpu;
    if (d.isShare()) {
      long bestScore = Long.MIN_VALUE;
      for (int g = 0; g < free.length; g++) {
        if (free[g] < d.milli() || !d.accepts(n.models().get(g)) || (best == null && seenBefore(n, g))) {
          continue;
        }
        free[g] -= d.milli();
        double after = m.fragmentation(cpuAfter, free, n.models());
        free[g] += d.milli();
        long sc = sigmoidScore(before - after);
        if (sc > bestScore) {
          bestScore = sc;
          if (best != null) {
            best[0] = g;
          }
        }
      }
      return bestScore == Long.MIN_VALUE ? 0 : bestScore;
    }
    int[] taken = new int[d.whole()];
    int t = 0;
    for (int g = 0; g < free.length && t < taken.length; g++) {
      if (free[g] == NodeGpu.FULL && d.accepts(n.models().get(g))) {
        taken[t++] = g;
      }
    }
    for (int k = 0; k < t; k++) {
      free[taken[k]] = 0;
    }
    double after = m.fragmentation(cpuAfter, free, n.models());
    for (int k = 0; k < t; k++) {
      free[taken[k]] = NodeGpu.FULL;
    }
    return sigmoidScore(before - after);
  }

  /** Whether an earlier device has the same free amount and model (so the same score). */
  private static boolean seenBefore(NodeGpu n, int g) {
    for (int k = 0; k < g; k++) {
      if (n.free()[k] == n.free()[g] && n.models().get(k).equals(n.models().get(g))) {
        return true;
      }
    }
    return false;
  }

  /** FGD's score of the share {@code d} on device {@code g} of {@code n}, which must have room for it. */
  static long shareScore(GpuWorkload m, NodeGpu n, long cpu, GpuDemand d, int g) {
    int[] free = n.free();
    double before = m.fragmentation(n.cpuLeft(), free, n.models());
    free[g] -= d.milli();
    double after = m.fragmentation(n.cpuLeft() - cpu, free, n.models());
    free[g] += d.milli();
    return sigmoidScore(before - after);
  }

  /** The device FGD gives a share on {@code n}, or -1 when none fits. */
  static int bestShareDevice(GpuWorkload m, NodeGpu n, long cpu, GpuDemand d) {
    int[] best = {-1};
    score(m, n, cpu, d, best);
    return best[0];
  }
}
