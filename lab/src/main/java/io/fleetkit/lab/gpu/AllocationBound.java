package io.fleetkit.lab.gpu;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

/**
 * A provable upper bound on the GPU allocation ratio that <em>any</em> policy (online or offline, with or without
 * dropping pods on purpose) can reach in one arrival bucket of a {@link TraceReplay} run.
 *
 * <p>The pods that have arrived at an event are a set P; whatever was placed is a subset of P packed into the
 * cluster's D devices. The bound relaxes everything but the share-pod geometry: nodes, GPU models, CPU and memory are
 * ignored (a whole-GPU pod may take any free devices), and small shares may be split fractionally. What remains:
 * <ul>
 *   <li>a share above 500 milli ("big") needs a device of its own among the shares above 500, so n placed big shares
 *       occupy n devices, and the gap 1000 − b next to a big share b can only hold shares of size ≤ 1000 − b;</li>
 *   <li>every other device holds at most 1000 milli.</li>
 * </ul>
 * For n big shares B placed and F milli of small shares in their gaps, allocated ≤ min(ΣB + F + 1000·(D − n),
 * ΣB + whole + small), where whole and small are the arrived demand of whole-GPU and small-share pods. F is a flow of
 * small shares into gaps that fit them; for any threshold t, cutting the small shares below t and the gaps of at
 * least t gives F ≤ Σ{s &lt; t} + Σ{1000 − b : 1000 − b ≥ t}. Each term is maximised separately over the n largest
 * values and over n, which only over-estimates: {@code bound ≥ every achievable allocation}. A replay records the
 * allocation after each arrival, and the bucket's value is the mean of those events; since each event's allocation is
 * at most the bound of its prefix, the bucket's mean of the prefix bounds bounds the bucket. {@link #atArrival} also
 * takes the tighter {@link ConfigurationBound} (a configuration LP) of the bucket's last prefix, which bounds every
 * event of the bucket because the allocation never decreases, and uses the smaller of the two per event.
 */
public final class AllocationBound {
  /** Shares above this (milli) cannot share a device with one another. */
  static final int HALF = 500;

  private AllocationBound() {}

  /**
   * The upper bound (%) on {@link ReplayResult#allocationAt(int)} for bucket {@code percent} of
   * {@link TraceReplay#run(List, List, io.fleetkit.scheduler.plugins.gpu.GpuPolicy, long, double)} with these arguments, for every policy; rounded
   * like the replay (to 0.01 per event, which is monotone and so keeps the bound).
   *
   * @throws IllegalArgumentException when no arrival event falls in the bucket, or there are no GPU nodes
   */
  public static double atArrival(List<TraceNode> nodes, List<TracePod> pods, long seed, double inflate,
      int percent) {
    long devices = nodes.stream().mapToLong(n -> n.gpus() > 0 ? n.gpus() : 0).sum();
    if (devices == 0) {
      throw new IllegalArgumentException("allocation bound: the node list has no GPU node");
    }
    double total = 1000.0 * devices;
    List<TracePod> arrival = TraceReplay.arrivals(pods, new Random(seed), inflate * total);
    List<TracePod> prefix = new ArrayList<>();
    List<Long> simple = new ArrayList<>();
    long arrived = 0;
    int last = -1;
    for (TracePod t : arrival) {
      prefix.add(t);
      arrived += t.totalGpuMilli();
      int bucket = (int) Math.rint(arrived / total * 100);
      if (bucket == percent) {
        simple.add(bound(devices, prefix));
        last = prefix.size();
      } else if (bucket > percent) {
        break;
      }
    }
    if (simple.isEmpty()) {
      throw new IllegalArgumentException("allocation bound: no arrival event in bucket " + percent + "% (seed "
          + seed + ")");
    }
    // the allocation never decreases, so the LP bound of the bucket's last prefix bounds every event of the bucket
    long lp = ConfigurationBound.bound(devices, prefix.subList(0, last));
    double sum = 0;
    for (long s : simple) {
      sum += Math.round(Math.min(s, lp) / total * 100 * 100) / 100.0;
    }
    return sum / simple.size();
  }

  /** Upper bound (milli-GPU) on what any packing of a subset of {@code pods} into {@code devices} GPUs allocates. */
  static long bound(long devices, List<TracePod> pods) {
    long whole = 0;
    long small = 0;
    TreeMap<Integer, Integer> smallSizes = new TreeMap<>();
    List<Integer> big = new ArrayList<>();
    for (TracePod t : pods) {
      if (t.numGpu() == 1 && t.gpuMilli() > 0 && t.gpuMilli() < 1000) {
        if (t.gpuMilli() > HALF) {
          big.add(t.gpuMilli());
        } else {
          small += t.gpuMilli();
          smallSizes.merge(t.gpuMilli(), 1, Integer::sum);
        }
      } else {
        whole += t.totalGpuMilli();
      }
    }
    big.sort((a, b) -> Integer.compare(b, a));
    int nb = big.size();
    // thresholds t: every small size and "above all" (no small share reaches a gap: F <= all small shares)
    List<Integer> thresholds = new ArrayList<>(smallSizes.keySet());
    thresholds.add(Integer.MAX_VALUE);
    long[][] top = new long[thresholds.size()][];
    long[] below = new long[thresholds.size()];
    for (int k = 0; k < thresholds.size(); k++) {
      int t = thresholds.get(k);
      for (Map.Entry<Integer, Integer> e : smallSizes.headMap(t, false).entrySet()) {
        below[k] += (long) e.getKey() * e.getValue();
      }
      // h_t(b) = b + (its gap if the gap is >= t): what one big device can hold at most under cut t
      long[] h = new long[nb];
      for (int i = 0; i < nb; i++) {
        int b = big.get(i);
        h[i] = 1000 - b >= t ? 1000 : b;
      }
      java.util.Arrays.sort(h);
      long[] prefix = new long[nb + 1];
      for (int i = 0; i < nb; i++) {
        prefix[i + 1] = prefix[i] + h[nb - 1 - i];
      }
      top[k] = prefix;
    }
    long best = 0;
    long bigTop = 0;
    for (int n = 0; n <= nb && n <= devices; n++) {
      if (n > 0) {
        bigTop += big.get(n - 1);
      }
      long capacityTerm = Long.MAX_VALUE;
      for (int k = 0; k < thresholds.size(); k++) {
        capacityTerm = Math.min(capacityTerm, below[k] + top[k][n]);
      }
      capacityTerm += 1000 * (devices - n);
      long demandTerm = bigTop + whole + small;
      best = Math.max(best, Math.min(capacityTerm, demandTerm));
    }
    return best;
  }
}
