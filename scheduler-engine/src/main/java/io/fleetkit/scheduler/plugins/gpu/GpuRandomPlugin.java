package io.fleetkit.scheduler.plugins.gpu;

/**
 * Random, the FGD paper's baseline: a pseudo-random score in [0, 100] per (seed, pod, node), so that the same seed
 * gives the same placements whatever the other plugins or the thread count; a share pod gets a pseudo-random fitting
 * device per (seed, pod).
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

  @Override
  public long score(GpuPod pod, NodeGpu node) {
    return Math.floorMod(GpuPolicies.mix(seed, pod.key().hashCode(), node.name().hashCode()), 101L);
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
