package io.fleetkit.scheduler.plugins.gpu;

import io.fleetkit.api.scheduler.CycleState;
import io.fleetkit.api.scheduler.NodeInfo;
import io.fleetkit.api.scheduler.PodInfo;
import io.fleetkit.api.scheduler.ScorePlugin;

/**
 * GpuClustering, the FGD paper's baseline ({@code gpu_clustering_score.go}): prefer nodes hosting only GPU pods of
 * the same kind (a share, or k whole GPUs): 75+b there, 50+b among mixed kinds, 25+b on nodes without GPU pods, b
 * otherwise, with b = ⌊25·(8000 − free GPU milli)/8000⌋. CPU-only pods score 0 everywhere.
 */
public final class GpuClusteringPlugin implements ScorePlugin {
  public static final String NAME = "GpuClustering";

  private final GpuAssignments assignments;

  GpuClusteringPlugin(GpuAssignments assignments) {
    this.assignments = assignments;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public long score(CycleState state, PodInfo pod, NodeInfo node) {
    GpuDemand d = GpuPolicies.demand(state);
    if (d.isNone()) {
      return 0;
    }
    NodeGpu n = NodeGpu.of(assignments, node);
    long b = Math.max(0, 25L * (8000 - n.freeTotal()) / 8000);
    int tag = kind(d);
    int same = 0;
    int others = 0;
    for (PodInfo p : node.pods()) {
      GpuDemand o = GpuDemand.of(p.pod());
      if (o.isNone() || p.key().equals(pod.key())) {
        continue;
      }
      if (kind(o) == tag) {
        same++;
      } else {
        others++;
      }
    }
    if (same > 0) {
      return GpuPolicies.clamp((others == 0 ? 75 : 50) + b);
    }
    return GpuPolicies.clamp((others == 0 ? 25 : 0) + b);
  }

  private static int kind(GpuDemand d) {
    return d.isShare() ? 0 : Math.min(d.whole(), 8);
  }

  @Override
  public String toString() {
    return NAME;
  }
}
