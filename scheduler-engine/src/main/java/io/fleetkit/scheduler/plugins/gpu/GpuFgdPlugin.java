package io.fleetkit.scheduler.plugins.gpu;

import io.fleetkit.api.scheduler.CycleState;
import io.fleetkit.api.scheduler.NodeInfo;
import io.fleetkit.api.scheduler.PodInfo;
import io.fleetkit.api.scheduler.ScorePlugin;
import java.util.List;

/**
 * FGD, fragmentation gradient descent (Weng et al., USENIX ATC'23): ⌊100·sigmoid(Δ/1000)⌋ where Δ is how much the
 * placement decreases the node's GPU fragmentation against the target workload {@link GpuWorkload} (milli-GPU). A
 * share pod is scored on its best device, and Reserve gives it that device. The best score's ties (FGD's integer
 * score ties on many nodes) go to the first tied node in a fixed seeded order; the other nodes keep their order
 * below.
 */
public final class GpuFgdPlugin implements ScorePlugin {
  public static final String NAME = "GpuFgd";

  private final GpuAssignments assignments;
  private final FgdScoreCache cache;
  private final long seed;

  GpuFgdPlugin(GpuAssignments assignments, GpuWorkload workload, long seed) {
    this.assignments = assignments;
    this.cache = new FgdScoreCache(workload);
    this.seed = seed;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public long score(CycleState state, PodInfo pod, NodeInfo node) {
    return cache.score(node.name(), NodeGpu.of(assignments, node), pod, GpuPolicies.demand(state));
  }

  /** Ties on the best score go to the first node of a fixed seeded order, as in the paper's simulator. */
  @Override
  public void normalizeScores(CycleState state, PodInfo pod, List<NodeInfo> nodes, long[] scores) {
    GpuPolicies.tieBreakByNodeOrder(scores, nodes, seed);
  }

  @Override
  public String toString() {
    return NAME;
  }
}
