package io.fleetkit.scheduler.plugins.gpu;

import io.fleetkit.scheduler.gpu.GapWaste;

/**
 * ModelGapFill: GapFill's gap valuation for the share pods that accept any GPU model, measured per device model; FGD
 * for the pods that name their models and for whole-GPU pods; FgdBalanced for CPU-only pods.
 * <ul>
 *   <li>A share pod that accepts any model goes where it adds the least expected stranded GPU, as in
 *       {@link GpuGapFillPlugin}, except that a device's gap is valued ({@link GapWaste}) against the typical share
 *       pods of {@link GpuWorkload} that accept <em>that device's model</em>: a gap on a T4 that only pods asking for
 *       another model would fill counts as stranded. Ties (within {@value GpuGapFillPlugin#TIE} milli-GPU of the
 *       lowest cost) go by FGD's score, then FgdBalanced's CPU/GPU balance, then the node order.</li>
 *   <li>A model-constrained pod (one naming the GPU models it accepts, share or whole) and a whole-GPU pod are placed
 *       exactly as {@link GpuFgdPlugin} places them: FGD's fragmentation measure counts, per typical shape, only the
 *       devices of the models that shape accepts, so it steers pods away from fragmenting the models that
 *       constrained pods need; a constrained share gets FGD's device.</li>
 *   <li>A CPU-only pod is placed as {@link GpuFgdBalancedPlugin} places it (FGD, ties to the node with the most
 *       CPU to spare beyond its free GPUs' needs).</li>
 * </ul>
 * Without model constraints in the workload the per-model valuation equals GapFill's. The same parameters serve
 * every trace (GapWaste's patience, GapFill's tie, FgdBalanced's CPU per GPU). Measured on the openb traces in
 * {@code docs/gpu-benchmarks.md}.
 */
public final class GpuModelGapFillPlugin implements GpuScorer {
  public static final String NAME = "GpuModelGapFill";

  private final GpuWorkload workload;
  private final FgdScoreCache cache;
  private final GpuFgdBalancedPlugin balanced;
  private final ShareGaps gaps;

  GpuModelGapFillPlugin(GpuWorkload workload) {
    this.workload = workload;
    this.cache = new FgdScoreCache(workload);
    this.balanced = new GpuFgdBalancedPlugin(workload);
    this.gaps = ShareGaps.perModel(workload);
  }

  /** Whether the pod is placed by the gap valuation (a share accepting any model). */
  static boolean byGap(GpuDemand d) {
    return d.isShare() && d.models().isEmpty();
  }

  /** FGD's score. */
  @Override
  public long score(GpuPod pod, NodeGpu node) {
    return cache.score(pod, node);
  }

  @Override
  public void normalize(GpuPod pod, Candidates nodes, long[] scores) {
    GpuDemand d = pod.demand();
    if (d.isNone()) {
      balanced.normalize(pod, nodes, scores);
    } else if (byGap(d)) {
      gaps.rank(pod, nodes, scores, null);
    } else {
      GpuPolicies.tieBreakByNodeOrder(scores, nodes);
    }
  }

  /** An unconstrained share: the device of lowest cost, its ties to FGD's choice; otherwise FGD's device. */
  @Override
  public int shareDevice(GpuPod pod, NodeGpu node) {
    GpuDemand d = pod.demand();
    return byGap(d) ? gaps.bestDevice(node, pod.milliCpu(), d)
        : Fgd.bestShareDevice(workload, node, pod.milliCpu(), d);
  }

  @Override
  public String toString() {
    return NAME;
  }
}
