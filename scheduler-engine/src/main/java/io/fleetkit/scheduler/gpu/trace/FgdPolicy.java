package io.fleetkit.scheduler.gpu.trace;

import java.util.Arrays;
import java.util.Random;

/**
 * {@code fgd_score.go}: ⌊100·sigmoid(Δ/1000)⌋ with Δ the decrease of the node's fragmentation F_n(M) if the pod went
 * there; a share is tried on every GPU that fits and the best GPU is also the one it gets. Scores are cached per
 * (pod shape, node version): only the node that changed is rescored.
 */
class FgdPolicy extends ScoredPolicy {
  final FragLedger frag;
  final TargetWorkload m;
  private final int[][] cachedVersion;
  private final long[][] cached;

  FgdPolicy(Cluster c, Random rng, FragLedger frag, int shapes) {
    super(c, rng);
    this.frag = frag;
    this.m = frag.workload();
    cachedVersion = new int[shapes][];
    cached = new long[shapes][];
  }

  @Override
  long score(SimPod p, int i) {
    int s = p.shape();
    int[] v = cachedVersion[s];
    if (v == null) {
      v = new int[c.n];
      Arrays.fill(v, -1);
      cachedVersion[s] = v;
      cached[s] = new long[c.n];
    }
    if (v[i] == c.version[i]) {
      return cached[s][i];
    }
    long sc = compute(p, i, null);
    v[i] = c.version[i];
    cached[s][i] = sc;
    return sc;
  }

  static long sigmoidScore(double delta) {
    return (long) (100 / (1 + Math.exp(-delta / 1000)));
  }

  /** Δ-based score of {@code p} on node {@code i}; for a share, writes the best GPU into {@code bestGpu[0]}. */
  long compute(SimPod p, int i, int[] bestGpu) {
    double before = frag.node(i);
    long cpuAfter = c.cpuLeft[i] - p.cpu();
    int[] l = c.left[i];
    int bit = c.modelBit[i];
    if (p.isShare()) {
      long best = Long.MIN_VALUE;
      for (int g = 0; g < l.length; g++) {
        if (l[g] < p.milli() || (bestGpu == null && seenBefore(l, g))) {
          continue;
        }
        l[g] -= p.milli();
        double after = m.frag(cpuAfter, l, bit);
        l[g] += p.milli();
        long sc = value(before - after, cpuAfter, l, g, p);
        if (sc > best) {
          best = sc;
          if (bestGpu != null) {
            bestGpu[0] = g;
          }
        }
      }
      return best;
    }
    int[] taken = p.isCpuOnly() ? Cluster.NONE : c.lowestFree(i, p.num());
    for (int g : taken) {
      l[g] = 0;
    }
    double after = m.frag(cpuAfter, l, bit);
    for (int g : taken) {
      l[g] = Cluster.FULL;
    }
    return value(before - after, cpuAfter, l, -1, p);
  }

  /** The score for a decrease {@code delta} of fragmentation; subclasses may refine ties. */
  long value(double delta, long cpuAfter, int[] left, int gpu, SimPod p) {
    return sigmoidScore(delta);
  }

  private static boolean seenBefore(int[] l, int g) {
    for (int k = 0; k < g; k++) {
      if (l[k] == l[g]) {
        return true;
      }
    }
    return false;
  }

  @Override
  int[] devices(SimPod p, int node) {
    if (!p.isShare()) {
      return super.devices(p, node);
    }
    int[] best = {-1};
    compute(p, node, best);
    return best;
  }
}
