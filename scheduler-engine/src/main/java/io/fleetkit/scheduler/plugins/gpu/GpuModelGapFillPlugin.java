package io.fleetkit.scheduler.plugins.gpu;

import io.fleetkit.scheduler.gpu.GapWaste;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

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
  private final Map<String, GapWaste> wasteByModel = new ConcurrentHashMap<>();

  GpuModelGapFillPlugin(GpuWorkload workload) {
    this.workload = workload;
    this.cache = new FgdScoreCache(workload);
    this.balanced = new GpuFgdBalancedPlugin(workload);
  }

  /** {@link GapWaste} over the share shapes of {@code m} that accept {@code model}, weighted by popularity. */
  static GapWaste shareWaste(GpuWorkload m, String model) {
    List<Integer> shares = new ArrayList<>();
    for (int i = 0; i < m.size(); i++) {
      List<String> accepted = m.shapes().get(i).models();
      if (m.num(i) == 1 && m.milli(i) > 0 && m.milli(i) < NodeGpu.FULL
          && (accepted.isEmpty() || accepted.contains(model))) {
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

  /** Whether the pod is placed by the gap valuation (a share accepting any model). */
  private static boolean byGap(GpuDemand d) {
    return d.isShare() && d.models().isEmpty();
  }

  private GapWaste waste(String model) {
    return wasteByModel.computeIfAbsent(model, x -> shareWaste(workload, x));
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
      return;
    }
    if (!byGap(d)) {
      GpuPolicies.tieBreakByNodeOrder(scores, nodes);
      return;
    }
    int n = nodes.size();
    long cpu = pod.milliCpu();
    double[] cost = new double[n];
    double lowest = Double.POSITIVE_INFINITY;
    for (int k = 0; k < n; k++) {
      cost[k] = nodeCost(nodes.node(k), cpu, d);
      lowest = Math.min(lowest, cost[k]);
    }
    List<Integer> tied = new ArrayList<>();
    double[] balance = new double[n];
    long[] order = new long[n];
    double lo = Double.POSITIVE_INFINITY;
    double hi = Double.NEGATIVE_INFINITY;
    for (int k = 0; k < n; k++) {
      if (cost[k] <= lowest + GpuGapFillPlugin.TIE) {
        tied.add(k);
        balance[k] = GpuFgdBalancedPlugin.balance(nodes.node(k), cpu, d);
        order[k] = nodes.order(k);
      } else if (cost[k] < Double.POSITIVE_INFINITY) {
        lo = Math.min(lo, cost[k]);
        hi = Math.max(hi, cost[k]);
      }
    }
    long[] fgd = scores.clone();
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

  /** An unconstrained share: the device of lowest cost, its ties to FGD's choice; otherwise FGD's device. */
  @Override
  public int shareDevice(GpuPod pod, NodeGpu node) {
    GpuDemand d = pod.demand();
    long cpu = pod.milliCpu();
    if (!byGap(d)) {
      return Fgd.bestShareDevice(workload, node, cpu, d);
    }
    double lowest = nodeCost(node, cpu, d);
    int best = -1;
    long bestScore = Long.MIN_VALUE;
    for (int g = 0; g < node.devices(); g++) {
      if (fits(node, d, g) && deviceCost(node, cpu, d, g) <= lowest + GpuGapFillPlugin.TIE) {
        long sc = Fgd.shareScore(workload, node, cpu, d, g);
        if (sc > bestScore) {
          best = g;
          bestScore = sc;
        }
      }
    }
    return best;
  }

  private double deviceCost(NodeGpu n, long cpu, GpuDemand d, int g) {
    return waste(n.models().get(g)).cost(n.free()[g], n.cpuLeft(), d.milli(), cpu);
  }

  private double nodeCost(NodeGpu n, long cpu, GpuDemand d) {
    double best = Double.POSITIVE_INFINITY;
    for (int g = 0; g < n.devices(); g++) {
      if (fits(n, d, g)) {
        best = Math.min(best, deviceCost(n, cpu, d, g));
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
