package io.fleetkit.scheduler.plugins.gpu;

/**
 * FGD, fragmentation gradient descent (Weng et al., USENIX ATC'23): ⌊100·sigmoid(Δ/1000)⌋ where Δ is how much the
 * placement decreases the node's GPU fragmentation against the target workload {@link GpuWorkload} (milli-GPU). A
 * share pod is scored on its best device, and gets that device. The best score's ties (FGD's integer score ties on
 * many nodes) go to the first tied node in the host's fixed node order; the other nodes keep their order below.
 */
public final class GpuFgdPlugin implements GpuScorer {
  public static final String NAME = "GpuFgd";

  private final GpuWorkload workload;
  private final FgdScoreCache cache;

  GpuFgdPlugin(GpuWorkload workload) {
    this.workload = workload;
    this.cache = new FgdScoreCache(workload);
  }

  @Override
  public long score(GpuPod pod, NodeGpu node) {
    return cache.score(pod, node);
  }

  /** Ties on the best score go to the first node of the host's node order, as in the paper's simulator. */
  @Override
  public void normalize(GpuPod pod, Candidates nodes, long[] scores) {
    GpuPolicies.tieBreakByNodeOrder(scores, nodes);
  }

  @Override
  public int shareDevice(GpuPod pod, NodeGpu node) {
    return Fgd.bestShareDevice(workload, node, pod.milliCpu(), pod.demand());
  }

  @Override
  public String toString() {
    return NAME;
  }
}
