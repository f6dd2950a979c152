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
  /**
   * The most pods a replay's arrival sequence may hold (the paper's traces need about 10,000); a larger inflation
   * is refused up front rather than running out of memory while resampling.
   */
  public static final int MAX_ARRIVALS = 5_000_000;

  private TraceReplay() {}

  /** Replays with the paper's inflation, 1.3. */
  public static ReplayResult run(List<TraceNode> nodes, List<TracePod> pods, TracePolicy policy, long seed) {
    return run(nodes, pods, policy, seed, 1.3);
  }

  /**
   * @param inflate the target GPU demand as a multiple of GPU capacity (the paper: 1.3)
   * @throws IllegalArgumentException when there are no GPU nodes, two nodes share a name, {@code inflate} is not
   *     positive, or it would need more than {@link #MAX_ARRIVALS} arrivals
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
    for (int i = 1; i < gpuNodes.size(); i++) {
      if (gpuNodes.get(i).name().equals(gpuNodes.get(i - 1).name())) {
        throw new IllegalArgumentException("trace replay: node \"" + gpuNodes.get(i).name()
            + "\" appears twice in the node list; names must be unique");
      }
    }
    TreeSet<String> modelSet = new TreeSet<>(OpenbCsv.KNOWN_MODELS);
    gpuNodes.forEach(n -> modelSet.add(n.model()));
    pods.forEach(p -> modelSet.addAll(p.models()));
    List<String> models = List.copyOf(modelSet);
    TargetWorkload m = new TargetWorkload(pods, models);

    Random rng = new Random(seed);
    long capacity = gpuNodes.stream().mapToLong(n -> 1000L * n.gpus()).sum();
    checkArrivalBound(pods, inflate, capacity);
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

  /** Refuses an inflation whose resampled arrivals would not fit in memory, estimated from the mean demand. */
  private static void checkArrivalBound(List<TracePod> pods, double inflate, long capacity) {
    long demand = 0;
    for (TracePod p : pods) {
      demand += p.totalGpuMilli();
    }
    if (demand == 0) {
      return; // nothing to resample: the arrivals are the pods
    }
    double estimate = inflate * capacity / ((double) demand / pods.size());
    if (estimate > MAX_ARRIVALS) {
      throw new IllegalArgumentException("trace replay: inflate " + inflate + " would need about "
          + String.format(java.util.Locale.ROOT, "%.0f", estimate) + " arriving pods (GPU capacity " + capacity
          + " milli, mean demand " + demand / pods.size() + " milli per pod); at most " + MAX_ARRIVALS
          + " are allowed");
    }
  }

  private static void tune(List<TracePod> arrival, List<TracePod> byName, Random rng, double target) {
    long total = arrival.stream().mapToLong(TracePod::totalGpuMilli).sum();
    if (total < target) {
      // A pod adds its whole demand (num_gpu x gpu_milli); without any, the target is never reached.
      if (byName.stream().noneMatch(t -> t.totalGpuMilli() > 0)) {
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
      removeRandomly(arrival, rng, total, target);
    }
  }

  /**
   * Removes uniformly drawn pods until the demand is at most {@code target}: the draws and the survivors' order are
   * those of repeatedly calling {@code arrival.remove(rng.nextInt(arrival.size()))}, in O(n log n) rather than
   * O(n^2): the k-th surviving position is found in a Fenwick tree of survivor counts.
   */
  private static void removeRandomly(List<TracePod> arrival, Random rng, long total, double target) {
    int n = arrival.size();
    int[] tree = new int[n + 1];
    for (int i = 1; i <= n; i++) {
      tree[i] += 1;
      int parent = i + (i & -i);
      if (parent <= n) {
        tree[parent] += tree[i];
      }
    }
    boolean[] removed = new boolean[n];
    int left = n;
    int top = Integer.highestOneBit(Math.max(1, n));
    while (total > target && left > 0) {
      int k = rng.nextInt(left); // 0-based rank among survivors
      int pos = 0;
      int rest = k;
      for (int step = top; step > 0; step >>= 1) {
        int next = pos + step;
        if (next <= n && tree[next] <= rest) {
          pos = next;
          rest -= tree[next];
        }
      }
      // pos is the 1-based index just before the survivor of rank k
      removed[pos] = true;
      for (int i = pos + 1; i <= n; i += i & -i) {
        tree[i]--;
      }
      left--;
      total -= arrival.get(pos).totalGpuMilli();
    }
    List<TracePod> kept = new ArrayList<>(left);
    for (int i = 0; i < n; i++) {
      if (!removed[i]) {
        kept.add(arrival.get(i));
      }
    }
    arrival.clear();
    arrival.addAll(kept);
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
