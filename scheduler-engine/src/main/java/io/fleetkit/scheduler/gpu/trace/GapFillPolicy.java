package io.fleetkit.scheduler.gpu.trace;

import io.fleetkit.scheduler.gpu.GapWaste;
import java.util.Random;

/**
 * FleetKit's best policy, "GapFill": a share pod goes to the device where it adds the least expected stranded GPU
 * ({@link GapWaste}: what the gap it leaves is worth to the typical share pods of M, given the node's CPU); whole-GPU
 * and CPU-only pods, and the share pods' ties within {@value #TIE} milli, are decided as FgdBalanced decides them
 * (FGD's score, then CPU/GPU balance, then the node order).
 *
 * <p>Why: at 100% arrival on the openb traces no fully free GPU is left; every idle milli-GPU is a gap on a shared
 * device, so the allocation is capacity minus the gaps. FGD fills a gap with whatever typical pod fits it now (a 0.23
 * pod into a 0.35 gap, leaving 0.12 that almost nothing fills); GapFill keeps the 0.35 gap for the common 0.32 pods and
 * opens a device for the 0.23 pod where 0.55 + 0.22 can complete it, and counts gaps on nodes without CPU for their
 * fillers as stranded. Online: one decision per pod from the current cluster and M only.
 *
 * <p>Measured (seeds 42..51, 100% arrival, {@code docs/gpu-benchmarks.md}): default 96.05% (FGD 95.29%,
 * FgdBalanced 95.69%), multigpu20 96.05, multigpu50 97.48, gpushare40 94.61, gpushare100 87.68.
 */
final class GapFillPolicy extends CpuBalancedFgdPolicy {
  /** Share placements whose costs differ by at most this many milli-GPU count as tied. */
  static final double TIE = 0.5;

  private final GapWaste waste;
  private int chosenGpu = -1;

  GapFillPolicy(Cluster c, Random rng, FragLedger frag, int shapes) {
    super(c, rng, frag, shapes);
    this.waste = shareWaste(frag.workload());
  }

  /** {@link GapWaste} over M's share shapes, weighted by their popularity. */
  static GapWaste shareWaste(TargetWorkload m) {
    int k = 0;
    for (int i = 0; i < m.size(); i++) {
      k += isShare(m, i) ? 1 : 0;
    }
    int[] milli = new int[k];
    long[] cpu = new long[k];
    double[] weight = new double[k];
    k = 0;
    for (int i = 0; i < m.size(); i++) {
      if (isShare(m, i)) {
        milli[k] = m.milli[i];
        cpu[k] = m.cpu[i];
        weight[k++] = m.p[i];
      }
    }
    return GapWaste.of(milli, cpu, weight, GapWaste.DEFAULT_PATIENCE);
  }

  private static boolean isShare(TargetWorkload m, int i) {
    return m.num[i] == 1 && m.milli[i] > 0 && m.milli[i] < Cluster.FULL;
  }

  @Override
  int choose(SimPod p, int[] feasible, int count) {
    if (!p.isShare()) {
      return super.choose(p, feasible, count);
    }
    int s = p.milli();
    double bestCost = Double.POSITIVE_INFINITY;
    long bestScore = Long.MIN_VALUE;
    double bestBalance = 0;
    int bestNode = -1;
    int bestGpu = -1;
    for (int k = 0; k < count; k++) {
      int i = feasible[k];
      int[] l = c.left[i];
      boolean scored = false;
      long score = 0;
      double balance = 0;
      for (int g = 0; g < l.length; g++) {
        if (l[g] < s) {
          continue;
        }
        double cost = waste.cost(l[g], c.cpuLeft[i], s, p.cpu());
        if (cost > bestCost + TIE) {
          continue;
        }
        if (!scored) {
          score = score(p, i);
          balance = balance(p, i);
          scored = true;
        }
        if (cost < bestCost - TIE || score > bestScore || (score == bestScore && balance > bestBalance)) {
          bestCost = Math.min(cost, bestCost);
          bestScore = score;
          bestBalance = balance;
          bestNode = i;
          bestGpu = g;
        }
      }
    }
    chosenGpu = bestGpu;
    return bestNode;
  }

  @Override
  int[] devices(SimPod p, int node) {
    return p.isShare() ? new int[] {chosenGpu} : super.devices(p, node);
  }
}
