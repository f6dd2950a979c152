package io.fleetkit.scheduler.plugins.gpu;

import java.util.Arrays;

/**
 * GpuPacking, the FGD paper's baseline ({@code gpu_packing_score.go}): GPUs already shared first (the tightest
 * first: 50..100), then free GPUs of nodes already in use (33..49), then idle nodes, small ones first (≤ 32).
 * CPU-only pods score 0 everywhere.
 */
public final class GpuPackingPlugin implements GpuScorer {
  public static final String NAME = "GpuPacking";

  GpuPackingPlugin() {}

  @Override
  public long score(GpuPod pod, NodeGpu n) {
    GpuDemand d = pod.demand();
    if (d.isNone()) {
      return 0;
    }
    int g = n.devices();
    if (g == 0) {
      return 0;
    }
    if (n.freeTotal() == g * NodeGpu.FULL) {
      return GpuPolicies.clamp(Math.max(33 - g, g));
    }
    int[] l = n.free().clone();
    Arrays.sort(l);
    int need = d.isShare() ? d.milli() : NodeGpu.FULL;
    int num = d.isShare() ? 1 : d.whole();
    int taken = 0;
    int freeUsed = 0;
    long sum = 0;
    for (int k = 0; k < g && taken < num; k++) {
      if (l[k] >= need) {
        taken++;
        if (l[k] == NodeGpu.FULL) {
          freeUsed++;
        }
        sum += l[k] * 100L / 1000;
      }
    }
    if (freeUsed > 0) {
      return Math.max(50 - freeUsed, 33);
    }
    return GpuPolicies.clamp(Math.max(100 - sum / 10, 50));
  }

  @Override
  public String toString() {
    return NAME;
  }
}
