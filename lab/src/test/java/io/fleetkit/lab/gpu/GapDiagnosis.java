package io.fleetkit.lab.gpu;

import io.fleetkit.scheduler.plugins.gpu.GpuPolicy;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Where one replay loses GPU by the 100% point (the first arrival at which the arrived GPU demand reaches the
 * capacity): the GPU left on fully free devices and in fragments, the fragments by size and by what still fits them,
 * and every GPU pod dropped on the way, by kind and reason. Not a test; {@link #main} prints it (policy, trace, seed;
 * {@code -Dunlimited=true} replays on the same nodes with 100 times their CPU and memory, so that neither ever
 * blocks a placement).
 */
public final class GapDiagnosis {
  /** Node CPU and memory multiplied by this in {@link #unlimited}. */
  static final int UNLIMITED = 100;

  private GapDiagnosis() {}

  /**
   * One replay's loss at the 100% point.
   *
   * @param allocation the replay's allocation (%) in the 100% bucket
   * @param usedAtPoint the allocation (%) at the 100% point itself
   * @param firstWholeDrop the arrival (% of capacity) of the first 1-GPU pod dropped, -1 if none
   * @param placedAfterFirstWholeDrop GPU (in GPUs) of the pods placed from that arrival to the 100% point
   * @param freeDevices fully free devices at the point
   * @param fragments GPUs free on partly used devices, by what still fits them: [0] no common share (10 or more
   *     pods in the trace, any model) is that small, [1] one is but not in the node's CPU, [2] the size and the CPU
   *     but not the node's memory, [3] still fillable
   * @param gapsBySize GPUs of the fragments by free milli-GPU
   * @param dropped GPU pods dropped by the point, by kind and reason: {pods, GPUs, first arrival %}
   */
  record Loss(double allocation, double usedAtPoint, double firstWholeDrop, double placedAfterFirstWholeDrop,
      int freeDevices, double[] fragments, Map<Integer, Double> gapsBySize, Map<String, double[]> dropped) {
    double fragmentTotal() {
      return fragments[0] + fragments[1] + fragments[2] + fragments[3];
    }

    double droppedGpus() {
      return dropped.values().stream().mapToDouble(v -> v[1]).sum();
    }
  }

  /** The nodes with {@link #UNLIMITED} times their CPU and memory. */
  static List<TraceNode> unlimited(List<TraceNode> nodes) {
    List<TraceNode> out = new ArrayList<>();
    for (TraceNode n : nodes) {
      out.add(new TraceNode(n.name(), n.milliCpu() * UNLIMITED, n.memoryMiB() * UNLIMITED, n.gpus(), n.model()));
    }
    return out;
  }

  static Loss analyse(List<TraceNode> nodes, List<TracePod> pods, GpuPolicy policy, long seed) {
    Map<String, double[]> drops = new TreeMap<>();
    double[] firstWholeDrop = {-1};
    double[] placedAfter = {0};
    Loss[] at = new Loss[1];
    ReplayResult r = TraceReplay.run(nodes, pods, policy, seed, (pod, node, arrived, c) -> {
      if (at[0] != null) {
        return;
      }
      double pct = arrived * 100.0 / c.totalMilli;
      if (node < 0 && !pod.isCpuOnly()) {
        String kind = (pod.isShare() ? "share " + pod.milli() : "whole x" + pod.num())
            + (pod.mask() != 0 ? " (model-constrained)" : "");
        double[] e = drops.computeIfAbsent(String.format(Locale.ROOT, "%-26s %s", kind, reason(pod, c)),
            k -> new double[] {0, 0, pct});
        e[0]++;
        e[1] += pod.gpuTotal() / 1000.0;
        if (!pod.isShare() && pod.num() == 1 && firstWholeDrop[0] < 0) {
          firstWholeDrop[0] = pct;
        }
      } else if (node >= 0 && firstWholeDrop[0] >= 0) {
        placedAfter[0] += pod.gpuTotal() / 1000.0;
      }
      if (arrived + pod.gpuTotal() >= c.totalMilli) {
        at[0] = atPoint(c, pods, firstWholeDrop[0], placedAfter[0], drops);
      }
    });
    Loss l = at[0];
    return new Loss(r.allocationAt(100), l.usedAtPoint(), l.firstWholeDrop(), l.placedAfterFirstWholeDrop(),
        l.freeDevices(), l.fragments(), l.gapsBySize(), l.dropped());
  }

  /** Why nothing took {@code pod}: the first resource that no node of an accepted model had room for. */
  private static String reason(SimPod pod, TraceCluster c) {
    boolean gpu = false;
    boolean gpuCpu = false;
    boolean gpuCpuMem = false;
    for (int i = 0; i < c.n; i++) {
      if (c.gpus[i] == 0 || !pod.accepts(c.modelBit[i])) {
        continue;
      }
      int ok = 0;
      for (int v : c.left[i]) {
        ok += v >= pod.milli() ? 1 : 0;
      }
      if (ok >= pod.num()) {
        gpu = true;
        if (c.cpuLeft[i] >= pod.cpu()) {
          gpuCpu = true;
          gpuCpuMem |= c.memLeft[i] >= pod.mem();
        }
      }
    }
    return !gpu ? "no GPU room" : !gpuCpu ? "GPU room, no CPU" : !gpuCpuMem ? "GPU and CPU, no memory" : "pod count";
  }

  private static Loss atPoint(TraceCluster c, List<TracePod> pods, double firstWholeDrop, double placedAfter,
      Map<String, double[]> drops) {
    Map<List<Long>, Integer> shapes = new HashMap<>();
    for (TracePod t : pods) {
      if (t.numGpu() == 1 && t.gpuMilli() > 0 && t.gpuMilli() < 1000) {
        shapes.merge(List.of((long) t.gpuMilli(), TraceReplay.nonZeroCpu(t.milliCpu()), t.memoryMiB()), 1,
            Integer::sum);
      }
    }
    shapes.values().removeIf(v -> v < 10);
    int free = 0;
    double[] by = new double[4];
    Map<Integer, Double> bySize = new TreeMap<>();
    for (int i = 0; i < c.n; i++) {
      for (int v : c.left[i]) {
        if (v == 1000) {
          free++;
        }
        if (v == 0 || v == 1000) {
          continue;
        }
        boolean size = false;
        boolean cpu = false;
        boolean mem = false;
        for (List<Long> s : shapes.keySet()) {
          if (s.get(0) <= v) {
            size = true;
            if (s.get(1) <= c.cpuLeft[i]) {
              cpu = true;
              mem |= s.get(2) <= c.memLeft[i];
            }
          }
        }
        by[!size ? 0 : !cpu ? 1 : !mem ? 2 : 3] += v / 1000.0;
        bySize.merge(v, v / 1000.0, Double::sum);
      }
    }
    return new Loss(Double.NaN, c.usedMilli * 100.0 / c.totalMilli, firstWholeDrop, placedAfter, free, by, bySize,
        new TreeMap<>(drops));
  }

  public static void main(String[] args) {
    GpuPolicy policy = GpuPolicy.of(args[0]);
    String trace = args.length > 1 ? args[1] : "default";
    long seed = args.length > 2 ? Long.parseLong(args[2]) : 42;
    List<TraceNode> nodes = TraceData.gpuNodes();
    if (Boolean.getBoolean("unlimited")) {
      nodes = unlimited(nodes);
    }
    Loss l = analyse(nodes, TraceData.pods(trace), policy, seed);
    System.out.printf(Locale.ROOT, "%s %s seed %d: @100 %.2f; at the 100%% point %.2f used, %d fully free devices,"
        + " %.1f GPUs in fragments%n", policy, trace, seed, l.allocation(), l.usedAtPoint(), l.freeDevices(),
        l.fragmentTotal());
    System.out.printf(Locale.ROOT, "  fragments: %.1f GPUs smaller than every common share, %.1f fit one but not"
        + " the node's CPU, %.1f the CPU but not the memory, %.1f still fillable%n", l.fragments()[0],
        l.fragments()[1], l.fragments()[2], l.fragments()[3]);
    l.gapsBySize().entrySet().stream().sorted((a, b) -> Double.compare(b.getValue(), a.getValue())).limit(12)
        .forEach(e -> System.out.printf(Locale.ROOT, "    gap %4d: %6.1f GPUs%n", e.getKey(), e.getValue()));
    System.out.printf(Locale.ROOT, "  first 1-GPU pod dropped at %.2f%% of arrival; GPU placed from then to the"
        + " point: %.1f GPUs; dropped by the point: %.1f GPUs%n", l.firstWholeDrop(), l.placedAfterFirstWholeDrop(),
        l.droppedGpus());
    l.dropped().forEach((k, v) -> System.out.printf(Locale.ROOT, "    %-52s %5.0f pods %7.1f GPUs, first at %.2f%%%n",
        k, v[0], v[1], v[2]));
  }
}
