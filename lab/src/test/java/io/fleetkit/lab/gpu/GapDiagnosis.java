package io.fleetkit.lab.gpu;

import io.fleetkit.scheduler.plugins.gpu.GpuPolicy;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/** Where the GPU goes at the 100% point of one replay: free devices, gaps by size, CPU-blocked gaps. Not a test. */
public final class GapDiagnosis {
  private GapDiagnosis() {}

  public static void main(String[] args) {
    GpuPolicy policy = GpuPolicy.of(args[0]);
    String trace = args.length > 1 ? args[1] : "default";
    long seed = args.length > 2 ? Long.parseLong(args[2]) : 42;
    List<TraceNode> nodes = TraceData.gpuNodes();
    List<TracePod> pods = TraceData.pods(trace);
    long[] dropped = new long[4]; // share blocked by gap size, share blocked by cpu/mem, whole, cpu-only
    boolean[] done = {false};
    double[] bucket = new double[2];
    ReplayResult r = TraceReplay.run(nodes, pods, policy, seed, (pod, node, arrived, c) -> {
      double pct = (arrived + pod.gpuTotal()) * 100.0 / c.totalMilli;
      if (pct >= 99.5 && pct < 100.5 && node < 0) {
        if (pod.isShare()) {
          boolean gap = false;
          for (int i = 0; i < c.n; i++) {
            for (int v : c.left[i]) {
              gap |= v >= pod.milli() && pod.accepts(c.modelBit[i]);
            }
          }
          dropped[gap ? 1 : 0] += pod.milli();
        } else if (pod.isCpuOnly()) {
          dropped[3]++;
        } else {
          dropped[2] += pod.gpuTotal();
        }
      }
      if (!done[0] && arrived + pod.gpuTotal() >= c.totalMilli) {
        done[0] = true;
        int free = 0;
        int freeCpuStranded = 0;
        Map<Integer, double[]> gaps = new TreeMap<>();
        double gapCpuBlocked = 0;
        double gapTotal = 0;
        for (int i = 0; i < c.n; i++) {
          for (int v : c.left[i]) {
            if (v == 1000) {
              free++;
              if (c.cpuLeft[i] < 1000) {
                freeCpuStranded++;
              }
            } else if (v > 0) {
              double[] e = gaps.computeIfAbsent(v, k -> new double[3]);
              e[0]++;
              e[1] += v / 1000.0;
              gapTotal += v / 1000.0;
              if (c.cpuLeft[i] < 2000) {
                e[2]++;
                gapCpuBlocked += v / 1000.0;
              }
            }
          }
        }
        System.out.printf(Locale.ROOT, "at 100%%: used %.2f%%, free devices %d (on nodes <1 core: %d), gaps %.1f GPUs,"
            + " on nodes <2 cores %.1f%n", c.usedMilli * 100.0 / c.totalMilli, free, freeCpuStranded, gapTotal,
            gapCpuBlocked);
        gaps.entrySet().stream().sorted((a, b) -> Double.compare(b.getValue()[1], a.getValue()[1])).limit(15)
            .forEach(e -> System.out.printf(Locale.ROOT, "  gap %4d: %5.0f devices, %6.1f GPUs, %4.0f on <2 cores%n",
                e.getKey(), e.getValue()[0], e.getValue()[1], e.getValue()[2]));
      }
    });
    System.out.printf(Locale.ROOT, "%s %s seed %d: @100 %.2f; dropped in bucket 100: shares no gap %.1f GPU, shares"
        + " with a gap (CPU/mem) %.1f GPU, whole %.1f GPU, cpu-only %d pods%n", policy, trace, seed,
        r.allocationAt(100), dropped[0] / 1000.0, dropped[1] / 1000.0, dropped[2] / 1000.0, dropped[3]);
  }
}
