package io.fleetkit.lab.gpu;

import io.fleetkit.scheduler.plugins.gpu.GpuDemand;
import io.fleetkit.scheduler.plugins.gpu.GpuPod;
import io.fleetkit.scheduler.plugins.gpu.GpuPolicy;
import io.fleetkit.scheduler.plugins.gpu.GpuScorer;
import io.fleetkit.scheduler.plugins.gpu.GpuWorkload;
import io.fleetkit.scheduler.plugins.gpu.NodeGpu;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;

/**
 * Replays a trace under the FGD paper's protocol ({@code kubernetes-scheduler-simulator}, {@code core.go: Simulate}):
 * GPU nodes only; pods sorted by name then shuffled with the seed; appended i.i.d. resamples until the GPU demand
 * reaches {@code inflate} × GPU capacity (or random removals down to it); node tie-break order from a seeded
 * permutation; pods placed one by one, never deleted, a pod that fits nowhere dropped without retry. The allocation
 * is measured after every arrival and bucketed by arrived demand.
 *
 * <p>The policy is the engine's own {@link GpuScorer}, created by its {@link GpuPolicy} constant: for each pod the
 * replay hands the policy every node ({@link GpuScorer#preFilter}), filters the nodes (CPU, memory, pod count, GPU
 * model and free devices, as the k8s filters and Open-Gpu-Share, and {@link GpuScorer#admits} when the policy asks
 * for it, as the engine runs the policy's Filter), drops the pod when no node is left, scores the feasible ones with
 * {@link GpuScorer#score}, lets {@link GpuScorer#normalize} rewrite the scores (its node order is the seeded
 * permutation), takes the highest (the first in node order among equals) and gives a share the device
 * {@link GpuScorer#shareDevice} names (else the tightest fitting one; whole devices are the lowest-indexed free ones).
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

  /**
   * The most node visits a replay may need, GPU nodes times arriving pods (every policy scores each node for each
   * pod; the paper's traces need about 15 million, a second or two): a node list so long that the replay would run
   * for hours (a million rows) is refused up front instead.
   */
  public static final long MAX_NODE_VISITS = 10_000_000_000L;

  private TraceReplay() {}

  /** Replays with the paper's inflation, 1.3. */
  public static ReplayResult run(List<TraceNode> nodes, List<TracePod> pods, GpuPolicy policy, long seed) {
    return run(nodes, pods, policy, seed, 1.3);
  }

  /**
   * @param inflate the target GPU demand as a multiple of GPU capacity (the paper: 1.3)
   * @throws IllegalArgumentException when there are no GPU nodes, two nodes share a name, {@code inflate} is not
   *     positive, or it would need more than {@link #MAX_ARRIVALS} arrivals or {@link #MAX_NODE_VISITS} node visits
   */
  public static ReplayResult run(List<TraceNode> nodes, List<TracePod> pods, GpuPolicy policy, long seed,
      double inflate) {
    return run(nodes, pods, policy, seed, inflate, null);
  }

  /**
   * The sizes (milli) of the share pods placed by the first arrival at which the arrived GPU demand reaches the
   * cluster's GPU capacity (the 100% point), in a replay with the paper's inflation.
   */
  static List<Integer> sharesPlacedAtCapacity(List<TraceNode> nodes, List<TracePod> pods, GpuPolicy policy,
      long seed) {
    List<Integer> shares = new ArrayList<>();
    run(nodes, pods, policy, seed, 1.3, (pod, node, arrived, c) -> {
      if (node >= 0 && pod.isShare() && arrived < c.totalMilli) {
        shares.add(pod.milli());
      }
    });
    return shares;
  }

  /** Sees every arrival of a replay after it was placed ({@code node} its index) or dropped ({@code node} -1). */
  @FunctionalInterface
  interface Observer {
    /** {@code arrivedBefore}: the GPU demand (milli) arrived before this pod. */
    void after(SimPod pod, int node, long arrivedBefore, TraceCluster c);
  }

  /** A replay with the paper's inflation whose every arrival {@code observer} sees. */
  static ReplayResult run(List<TraceNode> nodes, List<TracePod> pods, GpuPolicy policy, long seed,
      Observer observer) {
    return run(nodes, pods, policy, seed, 1.3, observer);
  }

  private static ReplayResult run(List<TraceNode> nodes, List<TracePod> pods, GpuPolicy policy, long seed,
      double inflate, @Nullable Observer observer) {
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
    GpuWorkload m = typicalWorkload(pods);

    Random rng = new Random(seed);
    long capacity = gpuNodes.stream().mapToLong(n -> 1000L * n.gpus()).sum();
    checkArrivalBound(pods, inflate, capacity, gpuNodes.size());
    List<TracePod> arrival = arrivals(pods, rng, inflate * capacity);

    int[] perm = permutation(gpuNodes.size(), rng);
    Integer[] order = new Integer[gpuNodes.size()];
    Arrays.setAll(order, i -> i);
    Arrays.sort(order, Comparator.comparingInt(i -> perm[i]));
    List<TraceNode> ordered = Arrays.stream(order).map(gpuNodes::get).toList();
    TraceCluster c = new TraceCluster(ordered, models);

    SimPod[] sim = new SimPod[arrival.size()];
    for (int i = 0; i < sim.length; i++) {
      TracePod t = arrival.get(i);
      long cpu = nonZeroCpu(t.milliCpu());
      sim[i] = new SimPod(cpu, t.memoryMiB(), t.numGpu(), t.gpuMilli(), mask(t.models(), models),
          new GpuPod(t.name(), cpu, demand(t)));
    }
    FragLedger frag = new FragLedger(c, m);
    return replay(policy, seed, c, frag, policy.create(m, seed), sim, observer);
  }

  /** Kube's non-zero CPU request: 100 millicores when none is set. */
  static long nonZeroCpu(long milliCpu) {
    return milliCpu == 0 ? 100 : milliCpu;
  }

  /** The bits of {@code accepted} in {@code models} (bit i: models.get(i)); 0 accepts any. */
  static int mask(List<String> accepted, List<String> models) {
    int m = 0;
    for (String s : accepted) {
      int i = models.indexOf(s);
      if (i >= 0) {
        m |= 1 << i;
      }
    }
    return m;
  }

  /** The pod's GPU demand: whole devices when it asks 1000 milli or more than one device, else a share. */
  static GpuDemand demand(TracePod t) {
    if (t.numGpu() == 0 || t.gpuMilli() == 0) {
      return GpuDemand.NONE;
    }
    if (t.gpuMilli() == 1000 || t.numGpu() > 1) {
      return new GpuDemand(t.numGpu(), 0, t.models());
    }
    return new GpuDemand(0, t.gpuMilli(), t.models());
  }

  /**
   * FGD's target workload M of a trace ({@code GetTypicalPods}): pod shapes (non-zero CPU, GPU milli, GPU count,
   * accepted models) sorted by popularity, ties to the larger tuple, taken until they cover 95% of the pods.
   */
  static GpuWorkload typicalWorkload(List<TracePod> original) {
    record Shape(long cpu, int milli, int num, String spec, List<String> models) {}
    Map<Shape, Integer> counts = new HashMap<>();
    for (TracePod t : original) {
      counts.merge(new Shape(nonZeroCpu(t.milliCpu()), t.gpuMilli(), t.numGpu(), String.join("|", t.models()),
          t.models()), 1, Integer::sum);
    }
    List<Map.Entry<Shape, Integer>> sorted = new ArrayList<>(counts.entrySet());
    Comparator<Shape> tuple = Comparator.comparingLong(Shape::cpu).thenComparingInt(Shape::milli)
        .thenComparingInt(Shape::num).thenComparing(Shape::spec);
    sorted.sort(Map.Entry.<Shape, Integer>comparingByValue().reversed()
        .thenComparing(Map.Entry.comparingByKey(tuple.reversed())));
    List<GpuWorkload.Shape> out = new ArrayList<>();
    int cum = 0;
    for (int k = 0; k < sorted.size() && cum < 0.95 * original.size(); k++) {
      Shape s = sorted.get(k).getKey();
      cum += sorted.get(k).getValue();
      out.add(new GpuWorkload.Shape(s.cpu(), s.milli(), s.num(), s.models(), sorted.get(k).getValue()));
    }
    return GpuWorkload.of(out);
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
  private static void checkArrivalBound(List<TracePod> pods, double inflate, long capacity, int gpuNodes) {
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
    if (estimate * gpuNodes > MAX_NODE_VISITS) {
      throw new IllegalArgumentException("trace replay: " + gpuNodes + " GPU nodes and about "
          + String.format(java.util.Locale.ROOT, "%.0f", estimate) + " arriving pods would need about "
          + String.format(java.util.Locale.ROOT, "%.1e", estimate * gpuNodes) + " node visits (each pod scores every"
          + " node); at most " + String.format(java.util.Locale.ROOT, "%.0e", (double) MAX_NODE_VISITS)
          + " are allowed: use fewer nodes or a smaller inflate");
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

  private static ReplayResult replay(GpuPolicy policy, long seed, TraceCluster c, FragLedger frag, GpuScorer scorer,
      SimPod[] pods, @Nullable Observer observer) {
    long start = System.nanoTime();
    int buckets = ReplayResult.MAX_PERCENT + 1;
    double[] allocSum = new double[buckets];
    double[] fragSum = new double[buckets];
    int[] count = new int[buckets];
    int[] feasible = new int[c.n];
    long[] scores = new long[c.n];
    Feasible candidates = new Feasible(c, feasible);
    int[] all = new int[c.n];
    Arrays.setAll(all, i -> i);
    Feasible cluster = new Feasible(c, all);
    cluster.count = c.n;
    long arrived = 0;
    int placed = 0;
    double total = c.totalMilli;
    for (SimPod pod : pods) {
      boolean ask = scorer.preFilter(pod.gpu(), cluster);
      int f = 0;
      for (int i = 0; i < c.n; i++) {
        if (c.fits(pod, i) && (!ask || scorer.admits(pod.gpu(), c.view(i)))) {
          feasible[f++] = i;
        }
      }
      if (f > 0) {
        for (int k = 0; k < f; k++) {
          scores[k] = scorer.score(pod.gpu(), c.view(feasible[k]));
        }
        candidates.count = f;
        scorer.normalize(pod.gpu(), candidates, scores);
        int best = 0;
        for (int k = 1; k < f; k++) {
          if (scores[k] > scores[best]) {
            best = k;
          }
        }
        int node = feasible[best];
        c.place(pod, node, devices(c, scorer, pod, node));
        frag.update(node);
        placed++;
        if (observer != null) {
          observer.after(pod, node, arrived, c);
        }
      } else if (observer != null) {
        observer.after(pod, -1, arrived, c);
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

  /** The devices {@code pod} takes on {@code node}: the policy's for a share when it names one, else the default. */
  private static int[] devices(TraceCluster c, GpuScorer scorer, SimPod pod, int node) {
    if (pod.isShare()) {
      int g = scorer.shareDevice(pod.gpu(), c.view(node));
      if (g >= 0) {
        return new int[] {g};
      }
    }
    return c.bestDevices(pod, node);
  }

  /** The feasible nodes of one pod as the scorer sees them; the node order is the cluster's (tie-break) order. */
  private static final class Feasible implements GpuScorer.Candidates {
    private final TraceCluster c;
    private final int[] feasible;
    int count;

    Feasible(TraceCluster c, int[] feasible) {
      this.c = c;
      this.feasible = feasible;
    }

    @Override
    public int size() {
      return count;
    }

    @Override
    public NodeGpu node(int k) {
      return c.view(feasible[k]);
    }

    @Override
    public long order(int k) {
      return feasible[k];
    }
  }

  private static double fragRatio(TraceCluster c, FragLedger frag) {
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
