package io.fleetkit.scheduler.plugins.gpu;

import io.fleetkit.scheduler.gpu.GapWaste;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * FleetKit's best policy, GapFill: a share pod goes where it adds the least expected stranded GPU ({@link GapWaste}:
 * what the gap it leaves on the device is worth to the typical share pods of {@link GpuWorkload}, given the CPU left
 * on the node). FGD fills a 0.35 gap with a 0.23 pod because a typical pod fits there now, leaving 0.12 that almost
 * nothing fills; GapFill keeps that gap for the common 0.32 pods, and counts a gap on a node without CPU for its
 * fillers as stranded. Whole-GPU and CPU-only pods are placed exactly as {@link GpuFgdBalancedPlugin} places them.
 *
 * <p>For a share pod the order of the nodes is:
 * <ol>
 *   <li>a node's cost is the lowest {@link GapWaste#cost} over its devices with room for the share (of an accepted
 *       model); the nodes within {@value #TIE} milli-GPU of the lowest cost of all count as tied;</li>
 *   <li>among the tied nodes, FGD's score (higher first), then FgdBalanced's CPU/GPU balance (higher first), then
 *       the fixed seeded node order that FGD breaks its ties by.</li>
 * </ol>
 * Normalised so that this order is exact at the top: the first node scores 100, the other tied nodes 99 down to 50
 * by their place in the order, every other node 0..49 by its cost (lower higher). Reserve then gives the pod the
 * device of lowest cost on the chosen node, its ties within {@value #TIE} going to the device FGD scores best, then
 * the lowest index ({@link #bestDevice}), so the device is one the node's cost was computed on.
 *
 * <p>The tie is taken against the lowest cost of all nodes, which does not depend on the node order. Measured with
 * the trace replay of {@code fleetkit-lab}, which runs this class (openb default trace, mean of seeds 42..51, 100%
 * arrival): GapFill 96.05%, FGD 95.29%, FgdBalanced 95.69% (see {@code docs/gpu-benchmarks.md}). In the engine, as
 * the only score (the lab's engine replay), on the same trace and seeds: 96.05% (FgdBalanced 95.70%, FGD 95.15%).
 */
public final class GpuGapFillPlugin implements GpuScorer {
  public static final String NAME = "GpuGapFill";
  /** Share placements whose costs differ by at most this many milli-GPU count as tied. */
  public static final double TIE = 0.5;

  private final GpuWorkload workload;
  private final GpuFgdBalancedPlugin balanced;
  private final GapWaste waste;

  GpuGapFillPlugin(GpuWorkload workload) {
    this.workload = workload;
    this.balanced = new GpuFgdBalancedPlugin(workload);
    this.waste = shareWaste(workload);
  }

  /** {@link GapWaste} over the share shapes of {@code m} (one device, 1..999 milli), weighted by their popularity. */
  static GapWaste shareWaste(GpuWorkload m) {
    List<Integer> shares = new ArrayList<>();
    for (int i = 0; i < m.size(); i++) {
      if (m.num(i) == 1 && m.milli(i) > 0 && m.milli(i) < NodeGpu.FULL) {
        shares.add(i);
      }
    }
    int[] milli = new int[shares.size()];
    long[] cpu = new long[shares.size()];
    double[] weight = new double[shares.size()];
    for (int k = 0; k < shares.size(); k++) {
      int i = shares.get(k);
      milli[k] = m.milli(i);
      cpu[k] = m.cpu(i);
      weight[k] = m.popularity(i);
    }
    return GapWaste.of(milli, cpu, weight, GapWaste.DEFAULT_PATIENCE);
  }

  /** FGD's score (the first tie-break); the cost is compared across nodes in {@link #normalize}. */
  @Override
  public long score(GpuPod pod, NodeGpu node) {
    return balanced.score(pod, node);
  }

  @Override
  public void normalize(GpuPod pod, Candidates nodes, long[] scores) {
    GpuDemand d = pod.demand();
    if (!d.isShare()) {
      balanced.normalize(pod, nodes, scores);
      return;
    }
    int n = nodes.size();
    long cpu = pod.milliCpu();
    double[] cost = new double[n];
    double[] balance = new double[n];
    double lowest = Double.POSITIVE_INFINITY;
    for (int k = 0; k < n; k++) {
      NodeGpu g = nodes.node(k);
      cost[k] = nodeCost(waste, g, cpu, d);
      balance[k] = GpuFgdBalancedPlugin.balance(g, cpu, d);
      lowest = Math.min(lowest, cost[k]);
    }
    List<Integer> tied = new ArrayList<>();
    double lo = Double.POSITIVE_INFINITY;
    double hi = Double.NEGATIVE_INFINITY;
    for (int k = 0; k < n; k++) {
      if (cost[k] <= lowest + TIE) {
        tied.add(k);
      } else if (cost[k] < Double.POSITIVE_INFINITY) {
        lo = Math.min(lo, cost[k]);
        hi = Math.max(hi, cost[k]);
      }
    }
    long[] fgd = scores.clone();
    long[] order = new long[n];
    for (int k : tied) {
      order[k] = nodes.order(k);
    }
    tied.sort(Comparator.<Integer>comparingLong(k -> -fgd[k]).thenComparingDouble(k -> -balance[k])
        .thenComparingLong(k -> order[k]));
    for (int k = 0; k < n; k++) {
      scores[k] = cost[k] == Double.POSITIVE_INFINITY ? 0
          : hi == lo ? 49 : Math.round(49 * (hi - cost[k]) / (hi - lo));
    }
    for (int r = 0; r < tied.size(); r++) {
      scores[tied.get(r)] = r == 0 ? 100 : Math.max(50, 100 - r);
    }
  }

  /** The device of lowest expected waste, its ties to FGD's choice ({@link #bestDevice}). */
  @Override
  public int shareDevice(GpuPod pod, NodeGpu node) {
    return bestDevice(workload, waste, node, pod.milliCpu(), pod.demand());
  }

  /** The lowest {@link GapWaste#cost} of the share on a device of {@code n} with room for it; infinite if none. */
  static double nodeCost(GapWaste waste, NodeGpu n, long cpu, GpuDemand d) {
    double best = Double.POSITIVE_INFINITY;
    for (int g = 0; g < n.devices(); g++) {
      if (fits(n, d, g)) {
        best = Math.min(best, waste.cost(n.free()[g], n.cpuLeft(), d.milli(), cpu));
      }
    }
    return best;
  }

  /**
   * The device a share gets on its chosen node: among the devices whose cost is within {@value #TIE} of the node's
   * ({@link #nodeCost}), the one FGD scores best, then the lowest index; -1 when none has room.
   */
  static int bestDevice(GpuWorkload m, GapWaste waste, NodeGpu n, long cpu, GpuDemand d) {
    double lowest = nodeCost(waste, n, cpu, d);
    int best = -1;
    long bestScore = Long.MIN_VALUE;
    for (int g = 0; g < n.devices(); g++) {
      if (fits(n, d, g) && waste.cost(n.free()[g], n.cpuLeft(), d.milli(), cpu) <= lowest + TIE) {
        long sc = Fgd.shareScore(m, n, cpu, d, g);
        if (sc > bestScore) {
          best = g;
          bestScore = sc;
        }
      }
    }
    return best;
  }

  private static boolean fits(NodeGpu n, GpuDemand d, int g) {
    return n.free()[g] >= d.milli() && d.accepts(n.models().get(g));
  }

  @Override
  public String toString() {
    return NAME;
  }
}
