package io.fleetkit.scheduler.gpu.trace;

import java.util.Random;

/**
 * FleetKit's own policy, "FgdBalanced": FGD's fragmentation gradient first, then CPU/GPU balance.
 *
 * <p>Level 1 is FGD unchanged: ⌊100·sigmoid(Δ/1000)⌋ where Δ is the decrease of the node's fragmentation against the
 * typical-pod distribution M (the same M FGD uses); the share pod's GPU is FGD's. That integer score ties on many
 * nodes (often hundreds), and FGD breaks the ties by the random node order. Level 2 breaks them by CPU balance
 * instead, measured as the node's spare CPU after the placement relative to what its remaining free GPUs will need
 * at {@value #CPU_PER_GPU} cores per GPU (about the trace's CPU per requested GPU):
 * <ul>
 *   <li>a GPU pod goes to the tied node whose leftover is closest to that ratio ({@code -|cpuLeft − 13·gpuLeft|}),
 *       so CPU-poor nodes (8 cores per GPU: P100, V100M16) get CPU-light pods and CPU-heavy pods go where CPU is
 *       plentiful, and no node ends with free GPUs but no CPU (stranded) or free CPU but no GPU;</li>
 *   <li>a CPU-only pod goes to the tied node with the most CPU beyond what its free GPUs need
 *       ({@code cpuLeft − 13·gpuLeft}), i.e. the CPU-rich T4 nodes (52 cores per GPU), not the 8-GPU nodes.</li>
 * </ul>
 * The last ties go to the node order as in FGD. Online: each pod is decided on arrival from the current cluster and
 * M only, with no retries.
 *
 * <p>Measured (seeds 42..51, 100% arrival, see {@code docs/gpu-benchmarks.md}): default 95.69% (FGD 95.29%),
 * multigpu20 95.60 (95.51), multigpu50 97.24 (97.09), gpushare40 94.30 (93.97), gpushare100 87.05 (86.60). It does
 * not reach 96.0% on default; {@link GapFillPolicy}, which places share pods by expected stranded GPU, does.
 */
class CpuBalancedFgdPolicy extends FgdPolicy {
  /** The CPU (milli) the balance reserves per free GPU milli: 13 cores per GPU. */
  static final double CPU_PER_GPU = 13;

  CpuBalancedFgdPolicy(Cluster c, Random rng, FragLedger frag, int shapes) {
    super(c, rng, frag, shapes);
  }

  @Override
  int choose(SimPod p, int[] feasible, int count) {
    long max = Long.MIN_VALUE;
    for (int k = 0; k < count; k++) {
      scores[k] = score(p, feasible[k]);
      max = Math.max(max, scores[k]);
    }
    int best = -1;
    double bestKey = 0;
    for (int k = 0; k < count; k++) {
      if (scores[k] != max) {
        continue;
      }
      double key = balance(p, feasible[k]);
      if (best < 0 || key > bestKey) {
        best = k;
        bestKey = key;
      }
    }
    return feasible[best];
  }

  /** Higher is better: see the class comment. */
  double balance(SimPod p, int i) {
    double spare = (c.cpuLeft[i] - p.cpu()) - CPU_PER_GPU * (c.sumLeft[i] - p.gpuTotal());
    return p.isCpuOnly() ? spare : -Math.abs(spare);
  }
}
