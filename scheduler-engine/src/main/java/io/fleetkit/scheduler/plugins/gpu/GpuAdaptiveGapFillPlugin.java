package io.fleetkit.scheduler.plugins.gpu;

import io.fleetkit.scheduler.gpu.GapWaste;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * AdaptiveGapFill: {@link GpuModelGapFillPlugin}'s placement of GPU pods, plus rules that adapt to the workload
 * seen so far (the pods this scorer has placed; nothing about pods yet to come) and one for CPU-only pods:
 * <ul>
 *   <li><b>Model reservation.</b> For every GPU model the scorer keeps the GPU demand of the arrived pods that name
 *       their models (a pod accepting several models counts for each in proportion to its capacity). While a
 *       model's free GPU, minus the pod's demand, is less than the constrained demand expected on it until the
 *       arrived demand reaches the cluster's GPU capacity ((its share of the arrived demand) × (capacity − arrived)),
 *       pods that accept any model avoid that model's nodes (they go there only when no other node fits). Pods
 *       that name their models are placed as FGD places them.</li>
 *   <li><b>Nodes kept for multi-device pods.</b> For every device count s of the arrived pods asking for several
 *       whole devices, above the pod's own: while the candidates with at least s free devices (and the mean CPU of
 *       the arrived pods of s or more devices) are no more than the pods of s or more devices expected until the
 *       arrived demand reaches the cluster's GPU capacity ((their count) × (capacity − arrived) / arrived, rounded
 *       up), a pod that would leave such a node with fewer than s free devices avoids it (a share only when it would
 *       open a free device there); it goes there only when no other node fits.</li>
 *   <li><b>CPU-only pods on CPU no GPU pod can use.</b> A CPU-only pod goes first to the nodes without a free GPU
 *       (their CPU is of no use to a GPU pod any more), the one with the least CPU left first (best fit), then the
 *       node order; only when no such node fits it is placed as {@link GpuFgdBalancedPlugin} places it (FGD, then
 *       the most CPU to spare beyond its free GPUs' needs). Where CPU-only pods are many (openb's cpu250), the
 *       earlier rule left the CPU of full nodes unused while nodes with free GPUs ran out of CPU.</li>
 *   <li><b>Free devices held for whole-GPU pods</b> (only {@link GpuPolicy#RESERVING_GAP_FILL}, created with a
 *       {@link WholeDeviceReservation}): while GPU is the scarce resource (as for the CPU/GPU balance above) and the
 *       cluster's fully free devices are fewer than the whole-device demand the arrived pods predict before the
 *       arrived demand reaches the cluster's GPU capacity, a share accepting any model takes only a device that
 *       already holds shares; {@link #admits} keeps it off every other node, and when no node has such a device it
 *       is unschedulable. This policy sees every node in {@link #preFilter} and counts every arrived pod there,
 *       placed or not.</li>
 * </ul>
 * A share accepting any model goes where it adds the least expected stranded GPU ({@link GapWaste} per device model,
 * the shapes' weights discounted for the gaps competing for them, {@link ShareGaps#competingWeights}; ties by FGD's
 * score, then FgdBalanced's CPU/GPU balance, then the node order). Unchanged from ModelGapFill:
 * whole-GPU pods and model-constrained pods as FGD (ties by the node order). The same parameters serve every trace.
 *
 * <p>State: a few counters per arrived pod and the free GPU of each node as last seen in {@link #normalize}
 * (updated for every candidate node; a node the pod cannot use keeps its older, larger value). A pod normalised twice
 * in a row (the same key) is counted once. {@link #score} and {@link #admits} are thread-safe; {@link #preFilter}
 * and {@link #normalize} are serialised.
 */
public final class GpuAdaptiveGapFillPlugin implements GpuScorer {
  public static final String NAME = "GpuAdaptiveGapFill";
  /** The engine plugin's name with the whole-device reservation ({@link GpuPolicy#RESERVING_GAP_FILL}). */
  public static final String RESERVING_NAME = "GpuReservingGapFill";

  private final GpuWorkload workload;
  private final FgdScoreCache cache;
  private final GpuFgdBalancedPlugin balanced;
  private final ShareGaps gaps;
  // Guarded by this: the workload and cluster seen so far.
  private final Map<String, Integer> nodeIndex = new HashMap<>();
  private final List<String> nodeModel = new ArrayList<>();
  private final List<Integer> nodeFree = new ArrayList<>();
  private final Map<String, Double> capacityByModel = new HashMap<>();
  private final Map<String, Double> constrainedByModel = new HashMap<>();
  private double capacity;
  private double arrivedGpu;
  private double arrivedCpu;
  private double clusterCpu;
  private double clusterFreeGpu;
  private String lastKey = "";
  /** Arrived pods asking for several whole devices, by device count: {pods, their CPU in milli}. */
  private final TreeMap<Integer, double[]> multiDevice = new TreeMap<>();
  private long podCpu;
  private final @Nullable WholeDeviceReservation reservation;
  /** The key of the pod the whole-device reservation holds off free devices in this cycle, else empty. */
  private volatile String heldFor = "";

  GpuAdaptiveGapFillPlugin(GpuWorkload workload) {
    this(workload, null);
  }

  /** With {@code reservation}, fully free devices are held for whole-GPU pods ({@link WholeDeviceReservation}). */
  GpuAdaptiveGapFillPlugin(GpuWorkload workload, @Nullable WholeDeviceReservation reservation) {
    this.workload = workload;
    this.cache = new FgdScoreCache(workload);
    this.balanced = new GpuFgdBalancedPlugin(workload);
    this.gaps = ShareGaps.perModelCompeting(workload);
    this.reservation = reservation;
  }

  /**
   * With the whole-device reservation: records the cluster and the arrived pod (so that pods no node fits or admits
   * count too) and decides whether the reservation holds for it, which it does only while GPU is the scarce resource
   * ({@link #cpuAmple}); without the reservation, nothing (false).
   */
  @Override
  public synchronized boolean preFilter(GpuPod pod, Candidates cluster) {
    if (reservation == null) {
      return false;
    }
    see(cluster);
    arrive(pod);
    boolean holds = cpuAmple() && reservation.holds(pod.demand(), arrivedGpu, capacity,
        WholeDeviceReservation.freeDevices(cluster));
    heldFor = holds ? pod.key() : "";
    return holds;
  }

  /** While the reservation holds for the share: only nodes with a shared device that has room for it. */
  @Override
  public boolean admits(GpuPod pod, NodeGpu node) {
    return !held(pod) || WholeDeviceReservation.sharedRoom(node, pod.demand());
  }

  private boolean held(GpuPod pod) {
    return pod.key().equals(heldFor);
  }

  /** FGD's score. */
  @Override
  public long score(GpuPod pod, NodeGpu node) {
    return cache.score(pod, node);
  }

  @Override
  public synchronized void normalize(GpuPod pod, Candidates nodes, long[] scores) {
    see(nodes);
    arrive(pod);
    podCpu = pod.milliCpu();
    GpuDemand d = pod.demand();
    int n = nodes.size();
    if (d.isNone()) {
      placeCpuOnly(pod, nodes, scores);
      return;
    }
    boolean[] avoid = avoided(nodes, d);
    if (!d.isShare() || !d.models().isEmpty()) {
      for (int k = 0; k < n; k++) {
        if (avoid[k]) {
          scores[k] = -1;
        }
      }
      if (d.models().isEmpty() && cpuAmple()) {
        tieBreakByBalance(pod, nodes, scores);
      } else {
        GpuPolicies.tieBreakByNodeOrder(scores, nodes);
      }
      return;
    }
    double[] extra = new double[n];
    for (int k = 0; k < n; k++) {
      extra[k] = avoid[k] ? AVOIDED : 0;
    }
    gaps.rank(pod, nodes, scores, extra, held(pod));
  }

  /**
   * A CPU-only pod: to the node with the least CPU left among the nodes without a free GPU (CPU no GPU pod can use
   * any more, no deletions assumed), else as FgdBalanced places it (FGD, then the most CPU to spare beyond the free
   * GPUs' needs).
   */
  private void placeCpuOnly(GpuPod pod, Candidates nodes, long[] scores) {
    int n = nodes.size();
    double[] cpuLeft = new double[n];
    boolean any = false;
    for (int k = 0; k < n; k++) {
      NodeGpu g = nodes.node(k);
      cpuLeft[k] = g.freeTotal() == 0 ? g.cpuLeft() : Double.POSITIVE_INFINITY;
      any |= g.freeTotal() == 0;
    }
    if (any) {
      GpuPolicies.rankTied(nodes, scores, cpuLeft, 0, new double[n], null);
    } else {
      balanced.normalize(pod, nodes, scores);
    }
  }

  /**
   * Whether the arrived pods ask less CPU per GPU than the cluster holds (all arrived pods' CPU over their GPU demand,
   * against the CPU and GPU the GPU nodes had free when first seen, so that nodes already busy when the scheduler
   * starts count with what they have left): then GPU is the scarce resource and a
   * whole-GPU pod's CPU/GPU balance keeps GPUs from being stranded without CPU. When CPU is the scarce resource
   * (openb's cpu250), the balance spreads GPU pods over the nodes whose CPU the CPU-only pods need, and FGD's node
   * order does better.
   */
  private boolean cpuAmple() {
    return arrivedGpu > 0 && clusterFreeGpu > 0 && arrivedCpu / arrivedGpu < clusterCpu / clusterFreeGpu;
  }

  /**
   * FGD's best-scored nodes ordered by {@link GpuFgdBalancedPlugin#balance} (closest to CPU_PER_GPU cores per free
   * GPU after the placement first), then the node order; every other node below them by its FGD score.
   */
  private static void tieBreakByBalance(GpuPod pod, Candidates nodes, long[] scores) {
    int n = nodes.size();
    long max = Long.MIN_VALUE;
    for (int k = 0; k < n; k++) {
      max = Math.max(max, scores[k]);
    }
    double[] primary = new double[n];
    double[] key = new double[n];
    long[] raw = scores.clone();
    for (int k = 0; k < n; k++) {
      primary[k] = raw[k] == max ? 0 : Double.POSITIVE_INFINITY;
      key[k] = raw[k] == max ? GpuFgdBalancedPlugin.balance(nodes.node(k), pod.milliCpu(), pod.demand()) : 0;
    }
    GpuPolicies.rankTied(nodes, scores, primary, 0, key, null);
    for (int k = 0; k < n; k++) {
      if (raw[k] != max) {
        scores[k] = GpuPolicies.clamp(raw[k]) * 49 / 100;
      }
    }
  }

  /** Added to the gap cost of a share on an avoided node: more than any gap cost (at most 1000 milli). */
  private static final double AVOIDED = 1e6;

  /** Records the candidates' models, devices and free GPU. */
  private void see(Candidates nodes) {
    for (int k = 0; k < nodes.size(); k++) {
      NodeGpu g = nodes.node(k);
      if (g.devices() == 0) {
        continue;
      }
      Integer i = nodeIndex.get(g.name());
      if (i == null) {
        nodeIndex.put(g.name(), nodeModel.size());
        nodeModel.add(g.models().get(0));
        nodeFree.add(g.freeTotal());
        capacity += g.devices() * (double) NodeGpu.FULL;
        clusterCpu += g.cpuLeft();
        clusterFreeGpu += g.freeTotal();
        capacityByModel.merge(g.models().get(0), g.devices() * (double) NodeGpu.FULL, Double::sum);
      } else {
        nodeFree.set(i, g.freeTotal());
      }
    }
  }

  /** Counts the pod into the arrived workload (once, however often it is normalised in a row). */
  private void arrive(GpuPod pod) {
    if (pod.key().equals(lastKey)) {
      return;
    }
    lastKey = pod.key();
    GpuDemand d = pod.demand();
    arrivedGpu += d.totalMilli();
    arrivedCpu += pod.milliCpu();
    if (reservation != null) {
      reservation.arrive(d);
    }
    if (d.whole() >= 2) {
      double[] e = multiDevice.computeIfAbsent(d.whole(), x -> new double[2]);
      e[0]++;
      e[1] += pod.milliCpu();
    }
    if (d.isNone() || d.models().isEmpty()) {
      return;
    }
    double accepted = 0;
    for (String m : d.models()) {
      accepted += capacityByModel.getOrDefault(m, 0.0);
    }
    if (accepted > 0) {
      for (String m : d.models()) {
        constrainedByModel.merge(m, d.totalMilli() * capacityByModel.getOrDefault(m, 0.0) / accepted, Double::sum);
      }
    }
  }

  /**
   * For a pod accepting any model: the candidates of reserved models (see the class comment), unless every
   * candidate is of one; none for a pod that names its models.
   */
  private boolean[] avoided(Candidates nodes, GpuDemand d) {
    boolean[] byModel = reservedModels(nodes, d);
    boolean[] both = keptForMultiDevice(nodes, d);
    boolean other = false;
    for (int k = 0; k < both.length; k++) {
      both[k] |= byModel[k];
      other |= !both[k];
    }
    return other ? both : byModel;
  }

  /**
   * The candidates a pod would take from the multi-device pods still expected (see the class comment): for every
   * device count s of the arrived multi-device pods above the pod's own, the nodes with at least s free devices and
   * the mean CPU of the arrived pods of s or more devices are counted; when they are no more than the pods of s or
   * more devices expected until the arrived demand reaches the cluster's capacity ((their count) × (capacity −
   * arrived) / arrived, rounded up), the nodes the pod would leave with fewer than s free devices are kept.
   */
  private boolean[] keptForMultiDevice(Candidates nodes, GpuDemand d) {
    int n = nodes.size();
    boolean[] keep = new boolean[n];
    if (multiDevice.isEmpty() || arrivedGpu <= 0) {
      return keep;
    }
    double rest = Math.max(0, capacity - arrivedGpu) / arrivedGpu;
    int[] wholeFree = new int[n];
    for (int k = 0; k < n; k++) {
      for (int v : nodes.node(k).free()) {
        wholeFree[k] += v >= NodeGpu.FULL ? 1 : 0;
      }
    }
    for (int size : multiDevice.descendingKeySet()) {
      if (d.whole() >= size) {
        break;
      }
      double pods = 0;
      double cpu = 0;
      for (double[] e : multiDevice.tailMap(size, true).values()) {
        pods += e[0];
        cpu += e[1];
      }
      double expected = Math.ceil(pods * rest);
      double cpuNeeded = cpu / pods;
      int able = 0;
      for (int k = 0; k < n; k++) {
        able += wholeFree[k] >= size && nodes.node(k).cpuLeft() >= cpuNeeded ? 1 : 0;
      }
      if (able > expected) {
        continue;
      }
      for (int k = 0; k < n; k++) {
        NodeGpu g = nodes.node(k);
        if (wholeFree[k] >= size && g.cpuLeft() >= cpuNeeded && wholeFree[k] - devicesTaken(g, d) < size) {
          keep[k] = true;
        }
      }
    }
    return keep;
  }

  /** The free devices the pod takes on {@code g}: its whole devices, or 1 when a share would open a free device. */
  private int devicesTaken(NodeGpu g, GpuDemand d) {
    if (!d.isShare()) {
      return d.whole();
    }
    int device = shareDeviceOf(g, d);
    return device >= 0 && g.free()[device] >= NodeGpu.FULL ? 1 : 0;
  }

  /** The model reservation of a pod accepting any model (see the class comment). */
  private boolean[] reservedModels(Candidates nodes, GpuDemand d) {
    int n = nodes.size();
    boolean[] avoid = new boolean[n];
    if (!d.models().isEmpty() || constrainedByModel.isEmpty()) {
      return avoid;
    }
    Map<String, Double> free = new HashMap<>();
    for (int i = 0; i < nodeModel.size(); i++) {
      free.merge(nodeModel.get(i), (double) nodeFree.get(i), Double::sum);
    }
    double rest = Math.max(0, capacity - arrivedGpu);
    Set<String> reserved = new HashSet<>();
    for (Map.Entry<String, Double> e : constrainedByModel.entrySet()) {
      double expected = e.getValue() / arrivedGpu * rest;
      if (free.getOrDefault(e.getKey(), 0.0) - d.totalMilli() < expected) {
        reserved.add(e.getKey());
      }
    }
    if (reserved.isEmpty()) {
      return avoid;
    }
    boolean other = false;
    for (int k = 0; k < n; k++) {
      NodeGpu g = nodes.node(k);
      avoid[k] = g.devices() > 0 && reserved.contains(g.models().get(0));
      other |= !avoid[k];
    }
    return other ? avoid : new boolean[n];
  }

  /** A share accepting any model: the device of lowest gap cost, its ties to FGD's choice; otherwise FGD's device. */
  @Override
  public int shareDevice(GpuPod pod, NodeGpu node) {
    return shareDevice(node, pod.milliCpu(), pod.demand(), held(pod));
  }

  private int shareDeviceOf(NodeGpu node, GpuDemand d) {
    return shareDevice(node, podCpu, d, !heldFor.isEmpty());
  }

  /** {@code sharedOnly}: the reservation holds the share off fully free devices (it accepts any model then). */
  private int shareDevice(NodeGpu node, long cpu, GpuDemand d, boolean sharedOnly) {
    return d.models().isEmpty() ? gaps.bestDevice(node, cpu, d, sharedOnly)
        : Fgd.bestShareDevice(workload, node, cpu, d);
  }

  @Override
  public String toString() {
    return reservation == null ? NAME : RESERVING_NAME;
  }
}
