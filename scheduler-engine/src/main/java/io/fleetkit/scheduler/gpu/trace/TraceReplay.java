package io.fleetkit.scheduler.gpu.trace;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;

/**
 * Replays a trace under the FGD paper's protocol ({@code kubernetes-scheduler-simulator}, {@code core.go: Simulate}):
 * GPU nodes only; pods sorted by name then shuffled with the seed; appended i.i.d. resamples until the GPU demand
 * reaches {@code inflate} × GPU capacity (or random removals down to it); node tie-break order from a seeded
 * permutation; pods placed one by one, never deleted, a pod that fits nowhere dropped without retry. The allocation
 * is measured after every arrival and bucketed by arrived demand.
 *
 * <p>The RNG is {@link java.util.Random} seeded with {@code seed}, consumed in the Go simulator's order (one draw,
 * shuffle, resampling, node permutation, then the policy); the streams differ from Go's {@code math/rand}, so single
 * runs differ from the published ones, but the distribution over seeds matches. Stateless; each call is independent.
 */
public final class TraceReplay {
  private TraceReplay() {}

  /** Replays with the paper's inflation, 1.3. */
  public static ReplayResult run(List<TraceNode> nodes, List<TracePod> pods, TracePolicy policy, long seed) {
    return run(nodes, pods, policy, seed, 1.3);
  }

  /**
   * @param inflate the target GPU demand as a multiple of GPU capacity (the paper: 1.3)
   * @throws IllegalArgumentException when there are no GPU nodes or {@code inflate} is not positive
   */
  public static ReplayResult run(List<TraceNode> nodes, List<TracePod> pods, TracePolicy policy, long seed,
      double inflate) {
    if (!(inflate > 0)) {
      throw new IllegalArgumentException("trace replay: inflate must be positive, got " + inflate);
    }
    List<TraceNode> gpuNodes = new ArrayList<>(nodes.stream().filter(n -> n.gpus() > 0).toList());
    if (gpuNodes.isEmpty()) {
      throw new IllegalArgumentException("trace replay: the node list has no GPU node");
    }
    gpuNodes.sort(Comparator.comparing(TraceNode::name));
    TreeSet<String> modelSet = new TreeSet<>(OpenbCsv.KNOWN_MODELS);
    gpuNodes.forEach(n -> modelSet.add(n.model()));
    pods.forEach(p -> modelSet.addAll(p.models()));
    List<String> models = List.copyOf(modelSet);
    TargetWorkload m = new TargetWorkload(pods, models);

    Random rng = new Random(seed);
    long capacity = gpuNodes.stream().mapToLong(n -> 1000L * n.gpus()).sum();
    List<TracePod> arrival = arrivals(pods, rng, inflate * capacity);

    int[] perm = permutation(gpuNodes.size(), rng);
    Integer[] order = new Integer[gpuNodes.size()];
    Arrays.setAll(order, i -> i);
    Arrays.sort(order, Comparator.comparingInt(i -> perm[i]));
    List<TraceNode> ordered = Arrays.stream(order).map(gpuNodes::get).toList();
    Cluster c = new Cluster(ordered, models);

    Map<List<Object>, Integer> shapes = new HashMap<>();
    SimPod[] sim = new SimPod[arrival.size()];
    for (int i = 0; i < sim.length; i++) {
      TracePod t = arrival.get(i);
      int mask = TargetWorkload.mask(t.models(), models);
      long cpu = TargetWorkload.nonZeroCpu(t.milliCpu());
      int shape = shapes.computeIfAbsent(List.of(cpu, t.numGpu(), t.gpuMilli(), mask), k -> shapes.size());
      sim[i] = new SimPod(cpu, t.memoryMiB(), t.numGpu(), t.gpuMilli(), mask, shape);
    }
    FragLedger frag = new FragLedger(c, m);
    Policy p = policy.create(c, rng, frag, shapes.size());
    return replay(policy, seed, c, frag, p, sim);
  }

  /**
   * The arrival sequence of a replay (the first RNG draws of {@link #run}): sorted by name, shuffled, resampled to
   * {@code target} milli-GPU of demand. {@code rng} is left where the node permutation starts.
   */
  static List<TracePod> arrivals(List<TracePod> pods, Random rng, double target) {
    rng.nextInt(); // the Go simulator spends one draw on a log line
    List<TracePod> byName = new ArrayList<>(pods);
    byName.sort(Comparator.comparing(TracePod::name));
    List<TracePod> arrival = new ArrayList<>(byName);
    Collections.shuffle(arrival, rng);
    tune(arrival, byName, rng, target);
    return arrival;
  }

  private static void tune(List<TracePod> arrival, List<TracePod> byName, Random rng, double target) {
    long total = arrival.stream().mapToLong(TracePod::totalGpuMilli).sum();
    if (total < target) {
      if (byName.stream().noneMatch(t -> t.gpuMilli() > 0)) {
        return;
      }
      for (int i = 0; ; i++) {
        TracePod t = byName.get(rng.nextInt(byName.size()));
        if (total + t.gpuMilli() > target) {
          break;
        }
        arrival.add(t.renamed(t.name() + "-tuned-" + i));
        total += t.totalGpuMilli();
      }
    } else {
      while (total > target && !arrival.isEmpty()) {
        TracePod t = arrival.remove(rng.nextInt(arrival.size()));
        total -= t.totalGpuMilli();
      }
    }
  }

  /** Go's {@code rand.Perm} shape: an inside-out Fisher-Yates shuffle of 0..n-1. */
  private static int[] permutation(int n, Random rng) {
    int[] m = new int[n];
    for (int i = 0; i < n; i++) {
      int j = rng.nextInt(i + 1);
      m[i] = m[j];
      m[j] = i;
    }
    return m;
  }

  private static ReplayResult replay(TracePolicy policy, long seed, Cluster c, FragLedger frag, Policy p,
      SimPod[] pods) {
    long start = System.nanoTime();
    int buckets = ReplayResult.MAX_PERCENT + 1;
    double[] allocSum = new double[buckets];
    double[] fragSum = new double[buckets];
    int[] count = new int[buckets];
    int[] feasible = new int[c.n];
    long arrived = 0;
    int placed = 0;
    double total = c.totalMilli;
    for (SimPod pod : pods) {
      int f = 0;
      for (int i = 0; i < c.n; i++) {
        if (c.fits(pod, i)) {
          feasible[f++] = i;
        }
      }
      if (f > 0) {
        int node = p.choose(pod, feasible, f);
        c.place(pod, node, p.devices(pod, node));
        frag.update(node);
        placed++;
      }
      arrived += pod.gpuTotal();
      int bucket = (int) Math.rint(arrived / total * 100);
      if (bucket < buckets) {
        allocSum[bucket] += Math.round(c.usedMilli / total * 100 * 100) / 100.0;
        fragSum[bucket] += fragRatio(c, frag);
        count[bucket]++;
      }
    }
    long nanos = System.nanoTime() - start;
    return new ReplayResult(policy.displayName(), seed, buckets(allocSum, count), buckets(fragSum, count),
        c.usedMilli / total * 100, fragRatio(c, frag), pods.length, placed, nanos);
  }

  private static double fragRatio(Cluster c, FragLedger frag) {
    long idle = c.totalMilli - c.usedMilli;
    return idle == 0 ? 0 : 100 * frag.total() / idle;
  }

  private static double[] buckets(double[] sum, int[] count) {
    double[] out = new double[sum.length];
    for (int x = 0; x < sum.length; x++) {
      if (count[x] > 0) {
        out[x] = sum[x] / count[x];
      } else {
        double s = 0;
        int n = 0;
        for (int y = Math.max(0, x - 1); y <= Math.min(sum.length - 1, x + 1); y++) {
          s += sum[y];
          n += count[y];
        }
        out[x] = n == 0 ? Double.NaN : Math.round(s / n * 100) / 100.0;
      }
    }
    return out;
  }
}
