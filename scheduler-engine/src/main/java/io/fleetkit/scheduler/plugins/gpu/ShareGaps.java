package io.fleetkit.scheduler.plugins.gpu;

import io.fleetkit.scheduler.gpu.GapWaste;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/**
 * The gap valuation of the gap-filling policies ({@link GpuGapFillPlugin}, {@link GpuModelGapFillPlugin},
 * {@link GpuAdaptiveGapFillPlugin}), written once: what placing a share on a device adds to the expected stranded GPU
 * ({@link GapWaste#cost}), a node's cost (its cheapest device with room), the device a share gets on its node, and
 * the order of the candidate nodes for a share.
 *
 * <p>The value tables are built from the share shapes of FGD's target workload M, either one table from all of them
 * ({@link #pooled}, GapFill) or one per device model from the shapes that accept that model ({@link #perModel}: a
 * gap on a T4 that only pods asking for another model would fill counts as stranded). Without model constraints in M
 * the two agree. Thread-safe (tables are built once per model, on first use).
 */
final class ShareGaps {
  private final GpuWorkload workload;
  private final @Nullable GapWaste pooled;
  private final boolean competing;
  private final Map<String, GapWaste> byModel = new ConcurrentHashMap<>();

  private ShareGaps(GpuWorkload workload, @Nullable GapWaste pooled, boolean competing) {
    this.workload = workload;
    this.pooled = pooled;
    this.competing = competing;
  }

  /** One value table for every device, from all share shapes of {@code m}. */
  static ShareGaps pooled(GpuWorkload m) {
    return new ShareGaps(m, waste(m, null, false), false);
  }

  /** One value table per device model, from the share shapes of {@code m} that accept that model. */
  static ShareGaps perModel(GpuWorkload m) {
    return new ShareGaps(m, null, false);
  }

  /**
   * As {@link #perModel}, with the shapes' weights discounted for the gaps that compete for them
   * ({@link #competingWeights}).
   */
  static ShareGaps perModelCompeting(GpuWorkload m) {
    return new ShareGaps(m, null, true);
  }

  /**
   * {@link GapWaste} over the share shapes of {@code m} (one device, 1..999 milli) that accept {@code model} (all of
   * them when {@code model} is null), weighted by their popularity, with {@link GapWaste#DEFAULT_PATIENCE}.
   */
  static GapWaste waste(GpuWorkload m, @Nullable String model) {
    return waste(m, model, false);
  }

  /** As {@link #waste(GpuWorkload, String)}, the weights discounted by {@link #competingWeights} when asked. */
  static GapWaste waste(GpuWorkload m, @Nullable String model, boolean competing) {
    List<Integer> shares = new ArrayList<>();
    for (int i = 0; i < m.size(); i++) {
      List<String> accepted = m.shapes().get(i).models();
      if (m.num(i) == 1 && m.milli(i) > 0 && m.milli(i) < NodeGpu.FULL
          && (model == null || accepted.isEmpty() || accepted.contains(model))) {
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
    return GapWaste.of(milli, cpu, competing ? competingWeights(milli, weight) : weight,
        GapWaste.DEFAULT_PATIENCE);
  }

  /**
   * The weights of share shapes discounted for competition among gaps. A share above half a device (0.81) leaves a
   * complement (0.19) that only smaller shares fill, and they are not shared among complements: the largest share
   * size that fits a complement (0.16) is its filler. When the big shares whose complement a size fills outweigh that
   * size's own shares (openb's default: 1078 shares of 0.81 leave 0.19 each, 74 shares of 0.16 fill them), a gap
   * waits for such a share in vain in that proportion, so the weight of each shape of that size is multiplied by
   * (weight of the size) / (weight of the big shares it fills). The other weights are unchanged. Sizes are compared
   * exactly (shapes of one size but different CPU count together).
   */
  static double[] competingWeights(int[] milli, double[] weight) {
    Map<Integer, Double> bySize = new java.util.HashMap<>();
    for (int k = 0; k < milli.length; k++) {
      bySize.merge(milli[k], weight[k], Double::sum);
    }
    Map<Integer, Double> asked = new java.util.HashMap<>();
    for (int k = 0; k < milli.length; k++) {
      if (2 * milli[k] > NodeGpu.FULL) {
        int complement = NodeGpu.FULL - milli[k];
        int filler = 0;
        for (int size : bySize.keySet()) {
          if (size <= complement && size > filler) {
            filler = size;
          }
        }
        if (filler > 0) {
          asked.merge(filler, weight[k], Double::sum);
        }
      }
    }
    double[] out = weight.clone();
    for (int k = 0; k < milli.length; k++) {
      double own = bySize.get(milli[k]);
      double demand = asked.getOrDefault(milli[k], 0.0);
      if (demand > own) {
        out[k] = weight[k] * own / demand;
      }
    }
    return out;
  }

  private GapWaste table(String model) {
    return pooled != null ? pooled : byModel.computeIfAbsent(model, x -> waste(workload, x, competing));
  }

  /** What the share adds to the expected waste on device {@code g} of {@code n}, which must have room for it. */
  double deviceCost(NodeGpu n, long cpu, GpuDemand d, int g) {
    return table(n.models().get(g)).cost(n.free()[g], n.cpuLeft(), d.milli(), cpu);
  }

  /** The lowest {@link #deviceCost} of the share on a device of {@code n} with room for it; infinite if none. */
  double nodeCost(NodeGpu n, long cpu, GpuDemand d) {
    return nodeCost(n, cpu, d, false);
  }

  /** As {@link #nodeCost(NodeGpu, long, GpuDemand)}, only over devices already shared when {@code sharedOnly}. */
  double nodeCost(NodeGpu n, long cpu, GpuDemand d, boolean sharedOnly) {
    double best = Double.POSITIVE_INFINITY;
    for (int g = 0; g < n.devices(); g++) {
      if (fits(n, d, g, sharedOnly)) {
        best = Math.min(best, deviceCost(n, cpu, d, g));
      }
    }
    return best;
  }

  /**
   * The device a share gets on its chosen node: among the devices whose cost is within {@link GpuGapFillPlugin#TIE}
   * of the node's ({@link #nodeCost}), the one FGD scores best, then the lowest index; -1 when none has room.
   */
  int bestDevice(NodeGpu n, long cpu, GpuDemand d) {
    return bestDevice(n, cpu, d, false);
  }

  /** As {@link #bestDevice(NodeGpu, long, GpuDemand)}, only among devices already shared when {@code sharedOnly}. */
  int bestDevice(NodeGpu n, long cpu, GpuDemand d, boolean sharedOnly) {
    double lowest = nodeCost(n, cpu, d, sharedOnly);
    int best = -1;
    long bestScore = Long.MIN_VALUE;
    for (int g = 0; g < n.devices(); g++) {
      if (fits(n, d, g, sharedOnly) && deviceCost(n, cpu, d, g) <= lowest + GpuGapFillPlugin.TIE) {
        long sc = Fgd.shareScore(workload, n, cpu, d, g);
        if (sc > bestScore) {
          best = g;
          bestScore = sc;
        }
      }
    }
    return best;
  }

  /**
   * Normalises the scores of a share pod: nodes by cost ({@link #nodeCost} plus {@code extra[k]} when given), those
   * within {@link GpuGapFillPlugin#TIE} of the lowest tied and ordered by FGD's score (the raw {@code scores}), then
   * FgdBalanced's CPU/GPU balance, then the node order ({@link GpuPolicies#rankTied}).
   */
  void rank(GpuPod pod, GpuScorer.Candidates nodes, long[] scores, double @Nullable [] extra) {
    rank(pod, nodes, scores, extra, false);
  }

  /**
   * As {@link #rank(GpuPod, GpuScorer.Candidates, long[], double[])}, the nodes costed by their devices that already
   * hold shares only when {@code sharedOnly}.
   */
  void rank(GpuPod pod, GpuScorer.Candidates nodes, long[] scores, double @Nullable [] extra, boolean sharedOnly) {
    GpuDemand d = pod.demand();
    long cpu = pod.milliCpu();
    int n = nodes.size();
    double[] cost = new double[n];
    double[] fgd = new double[n];
    double[] balance = new double[n];
    for (int k = 0; k < n; k++) {
      NodeGpu g = nodes.node(k);
      cost[k] = nodeCost(g, cpu, d, sharedOnly) + (extra == null ? 0 : extra[k]);
      fgd[k] = scores[k];
      balance[k] = GpuFgdBalancedPlugin.balance(g, cpu, d);
    }
    GpuPolicies.rankTied(nodes, scores, cost, GpuGapFillPlugin.TIE, fgd, balance);
  }

  private static boolean fits(NodeGpu n, GpuDemand d, int g, boolean sharedOnly) {
    return n.free()[g] >= d.milli() && d.accepts(n.models().get(g)) && !(sharedOnly && n.free()[g] == NodeGpu.FULL);
  }
}
