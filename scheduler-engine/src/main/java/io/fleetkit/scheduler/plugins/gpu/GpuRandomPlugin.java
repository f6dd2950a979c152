package io.fleetkit.scheduler.plugins.gpu;

/**
 * Random, the FGD paper's baseline ({@code random_score.go}: a uniformly random feasible node): a pseudo-random key
 * per (seed, pod, node); the node with the highest key scores 100, every other node its key modulo 100, so the choice
 * is uniform over the feasible nodes whatever the host's tie-break, and the same seed gives the same placements
 * whatever the other plugins or the thread count. A share pod gets a pseudo-random fitting device per (seed, pod).
 */
public final class GpuRandomPlugin implements GpuScorer {
  public static final String NAME = "GpuRandom";

  private final long seed;

  GpuRandomPlugin(long seed) {
    this.seed = seed;
  }

  /** {@value #NAME}. */
  public String name() {
    return NAME;
  }

  /** A pseudo-random key, not negative, per (seed, pod, node). */
  @Override
  public long score(GpuPod pod, NodeGpu node) {
    return GpuPolicies.mix(seed, pod.key().hashCode(), node.name().hashCode()) >>> 1;
  }

  @Override
  public void normalize(GpuPod pod, Candidates nodes, long[] scores) {
    int n = nodes.size();
    int best = 0;
    for (int k = 1; k < n; k++) {
      if (scores[k] > scores[best]) {
        best = k;
      }
    }
    for (int k = 0; k < n; k++) {
      scores[k] = k == best ? 100 : scores[k] % 100;
    }
  }

  @Override
  public int shareDevice(GpuPod pod, NodeGpu n) {
    GpuDemand d = pod.demand();
    int fit = 0;
    for (int g = 0; g < n.devices(); g++) {
      if (n.free()[g] >= d.milli() && d.accepts(n.models().get(g))) {
        fit++;
      }
    }
    if (fit == 0) {
      return -1;
    }
    int k = (int) Math.floorMod(GpuPolicies.mix(seed, pod.key().hashCode(), 0x5EED), (long) fit);
    for (int g = 0; g < n.devices(); g++) {
      if (n.free()[g] >= d.milli() && d.accepts(n.models().get(g)) && k-- == 0) {
        return g;
      }
    }
    return -1;
  }

  @Override
  public String toString() {
    return NAME;
  }
}
