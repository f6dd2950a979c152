package io.fleetkit.scheduler.plugins.gpu;

import io.fleetkit.api.scheduler.CycleState;
import io.fleetkit.api.scheduler.NodeInfo;
import io.fleetkit.api.scheduler.PodInfo;
import io.fleetkit.api.scheduler.ScorePlugin;

/**
 * Random, the FGD paper's baseline: a pseudo-random score in [0, 100] per (seed, pod, node), so that the same seed
 * gives the same placements whatever the other plugins or the thread count. Share pods get a random fitting GPU
 * from Reserve when this policy is enabled.
 */
public final class GpuRandomPlugin implements ScorePlugin {
  public static final String NAME = "GpuRandom";

  private final long seed;

  GpuRandomPlugin(long seed) {
    this.seed = seed;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public long score(CycleState state, PodInfo pod, NodeInfo node) {
    return Math.floorMod(GpuPolicies.mix(seed, pod.key().hashCode(), node.name().hashCode()), 101L);
  }

  @Override
  public String toString() {
    return NAME;
  }
}
