package io.fleetkit.lab.gpu;

import io.fleetkit.scheduler.plugins.gpu.GpuPolicy;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Prints, per openb trace, the mean GPU allocation (%) over seeds 42..51 at 100% arrival of FGD and other policies,
 * and each policy's lead over FGD. Not a test (a whole table takes minutes): run its {@code main} with the test
 * classpath, e.g. {@code java -cp ... io.fleetkit.lab.gpu.PolicyTable GapFill default,gpuspec20}. Arguments: a
 * comma-separated list of policies (FGD is always measured), then optionally a comma-separated list of traces (all
 * bundled openb pod lists by default). {@code -DnoFgd=true} skips FGD (its column then reads 0).
 */
public final class PolicyTable {
  /** Every bundled openb pod list. */
  public static final List<String> TRACES = List.of("default", "multigpu20", "multigpu50", "gpushare20",
      "gpushare40", "gpushare80", "gpushare100", "gpuspec20", "gpuspec25", "cpu100", "cpu250");

  private PolicyTable() {}

  /** The mean allocation (%) at 100% arrival over seeds 42..51, and the lowest and highest seed. */
  public static double[] mean(List<TraceNode> nodes, List<TracePod> pods, GpuPolicy policy) {
    double s = 0;
    double lo = Double.MAX_VALUE;
    double hi = -Double.MAX_VALUE;
    for (int seed = 42; seed <= 51; seed++) {
      double a = TraceReplay.run(nodes, pods, policy, seed).allocationAt(100);
      s += a;
      lo = Math.min(lo, a);
      hi = Math.max(hi, a);
    }
    return new double[] {s / 10, lo, hi};
  }

  public static void main(String[] args) {
    List<GpuPolicy> policies = new ArrayList<>();
    for (String p : args[0].split(",")) {
      policies.add(GpuPolicy.of(p));
    }
    List<String> traces = args.length > 1 ? List.of(args[1].split(",")) : TRACES;
    List<TraceNode> nodes = TraceData.gpuNodes();
    for (String trace : traces) {
      List<TracePod> pods = TraceData.pods(trace);
      double[] fgd = Boolean.getBoolean("noFgd") ? new double[3] : mean(nodes, pods, GpuPolicy.FGD);
      StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%-12s FGD %.2f (%.2f-%.2f)", trace, fgd[0],
          fgd[1], fgd[2]));
      for (GpuPolicy p : policies) {
        long t0 = System.nanoTime();
        double[] m = mean(nodes, pods, p);
        line.append(String.format(Locale.ROOT, " | %s %.2f (%.2f-%.2f) %+.2f %ds", p.displayName(), m[0], m[1], m[2],
            m[0] - fgd[0], (System.nanoTime() - t0) / 1_000_000_000));
      }
      System.out.println(line);
    }
  }
}
