package io.fleetkit.benchmarks;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.benchmarks.generator.PerfCase;
import io.fleetkit.benchmarks.impl.FleetKitHarness;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * A throughput guard that machine noise cannot trip: FleetKit's lead over Netflix Fenzo measured in one JVM, on
 * {@link FenzoComparisonBenchmark}'s task (10,000 placements on 1,000 hosts), as the median of per-pair ratios of
 * <em>CPU time</em> (the whole process's, so garbage collection and Fenzo's evaluation threads count). Each pair runs
 * one Fenzo batch and then one FleetKit batch back to back; the JIT is warmed by the first pairs. CPU time rather than
 * wall time because on a loaded machine the kernel shares the CPU per runnable thread: Fenzo evaluates hosts on
 * several threads and FleetKit (on 2 cores) on one, so under load Fenzo's wall time grows far less than FleetKit's
 * and a wall-time ratio measured the load (it fell from 15x to 1.3x at a load average of 30). A real regression of
 * FleetKit's scheduling path moves the CPU ratio; a busy or slower machine does not. Wall times are printed too.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar io.fleetkit.benchmarks.FenzoLeadGuard [FLOOR] [WARMUP] [PAIRS]
 * </pre>
 *
 * Prints the measured ratio and exits with status 1 when it is below the floor (defaults: floor 5, 2 warm-up pairs, 5
 * measured pairs, as {@code FenzoLeadGuardTest}).
 *
 * <p>A second leg guards kube-scheduler's SchedulingBasic workload at 5,000 nodes (10,000 measured pods, kube's
 * default profile and adaptive {@code percentageOfNodesToScore}) against the same yardstick: Fenzo's CPU time per
 * 10,000 placements in this run over FleetKit's CPU time per 10,000 SchedulingBasic pods, with its own floor
 * ({@link #DEFAULT_BASIC_FLOOR}). A regression of the default profile's path (for example losing the adaptive
 * percentage, which costs ten times more work per pod) falls under it; the Fenzo task's profile would not see it.
 */
public final class FenzoLeadGuard {
  /** The default floor: well below the measured lead (11 to 20 times), above any plausible noise. */
  public static final double DEFAULT_FLOOR = 5.0;

  /**
   * The floor of the SchedulingBasic leg: Fenzo's CPU time per 10,000 placements over FleetKit's per 10,000
   * SchedulingBasic pods at 5,000 nodes (measured 7 to 10 times; scoring every node instead of kube's adaptive share
   * would put it near 1).
   */
  public static final double DEFAULT_BASIC_FLOOR = 2.0;

  /** SchedulingBasic batches measured (after one unmeasured) by {@link #measure}. */
  static final int BASIC_BATCHES = 3;

  /**
   * FleetKit-only batches before the pairs, at least: FleetKit's batches are ten times shorter than Fenzo's, so the
   * warm-up pairs alone give its code fewer samples for the JIT (on a loaded machine its first measured batches were
   * still slowing it down, which lowers the ratio: a false alarm, not a missed regression).
   */
  static final int FLEETKIT_WARMUP_BATCHES = 8;

  private FenzoLeadGuard() {}

  /**
   * What one guard run measured.
   *
   * @param fenzoMs Fenzo's milliseconds per batch, one per measured pair
   * @param fleetkitMs FleetKit's milliseconds per batch, one per measured pair
   * @param fenzoCpuMs the process's CPU milliseconds during each Fenzo batch
   * @param fleetkitCpuMs the process's CPU milliseconds during each FleetKit batch
   * @param medianRatio the median over pairs of Fenzo's CPU time over FleetKit's
   * @param medianWallRatio the same for wall time (printed, not guarded)
   * @param basicCpuMs the process's CPU milliseconds during each measured SchedulingBasic batch (5,000 nodes, 10,000
   *     pods)
   * @param basicRatio the median of {@code fenzoCpuMs} over the median of {@code basicCpuMs}
   */
  public record Lead(double[] fenzoMs, double[] fleetkitMs, double[] fenzoCpuMs, double[] fleetkitCpuMs,
      double medianRatio, double medianWallRatio, double[] basicCpuMs, double basicRatio) {
    /** A one-line summary: the ratios, both medians and their ranges. */
    public String describe() {
      return String.format(Locale.ROOT, "FleetKit leads Fenzo %.1fx in CPU time, %.1fx in wall time (medians of %d "
          + "pairs; CPU: Fenzo %.0f ms [%.0f-%.0f], FleetKit %.1f ms [%.1f-%.1f]; wall: Fenzo %.0f ms, FleetKit "
          + "%.1f ms per 10,000 placements)", medianRatio, medianWallRatio, fenzoMs.length, median(fenzoCpuMs),
          min(fenzoCpuMs), max(fenzoCpuMs), median(fleetkitCpuMs), min(fleetkitCpuMs), max(fleetkitCpuMs),
          median(fenzoMs), median(fleetkitMs)) + String.format(Locale.ROOT, "; SchedulingBasic 5000: %.1fx (FleetKit "
          + "%.0f ms [%.0f-%.0f] CPU per 10,000 pods)", basicRatio, median(basicCpuMs), min(basicCpuMs),
          max(basicCpuMs));
    }
  }

  /**
   * Runs {@code max(8, 2 × warmup)} unmeasured FleetKit batches and {@code warmup} unmeasured pairs, then {@code pairs}
   * measured ones.
   */
  public static Lead measure(int warmup, int pairs) {
    if (warmup < 0 || pairs < 1) {
      throw new IllegalArgumentException("fenzo lead guard: warmup " + warmup + " must be >= 0 and pairs " + pairs
          + " >= 1");
    }
    List<Node> nodes = FenzoComparisonBenchmark.hosts();
    List<Pod> pods = FenzoComparisonBenchmark.tasks();
    double[] fenzo = new double[pairs];
    double[] fleet = new double[pairs];
    double[] fenzoCpu = new double[pairs];
    double[] fleetCpu = new double[pairs];
    double[] ratios = new double[pairs];
    double[] wallRatios = new double[pairs];
    for (int i = 0; i < Math.max(FLEETKIT_WARMUP_BATCHES, 2 * warmup); i++) {
      try (FleetKitHarness h = FenzoComparisonBenchmark.fleetkitCluster(nodes)) {
        FenzoComparisonBenchmark.fleetkitBatch(h, pods);
      }
    }
    for (int i = -warmup; i < pairs; i++) {
      long c0 = processCpuNanos();
      long t0 = System.nanoTime();
      FenzoComparisonBenchmark.fenzoBatch();
      long t1 = System.nanoTime();
      long c1 = processCpuNanos();
      long fleetNanos;
      long fleetCpuNanos;
      try (FleetKitHarness h = FenzoComparisonBenchmark.fleetkitCluster(nodes)) {
        long c2 = processCpuNanos();
        long t2 = System.nanoTime();
        FenzoComparisonBenchmark.fleetkitBatch(h, pods);
        fleetNanos = System.nanoTime() - t2;
        fleetCpuNanos = processCpuNanos() - c2;
      }
      if (i >= 0) {
        fenzo[i] = (t1 - t0) / 1e6;
        fleet[i] = fleetNanos / 1e6;
        fenzoCpu[i] = (c1 - c0) / 1e6;
        fleetCpu[i] = Math.max(1, fleetCpuNanos) / 1e6;
        ratios[i] = fenzoCpu[i] / fleetCpu[i];
        wallRatios[i] = fenzo[i] / fleet[i];
      }
    }
    double[] basicCpu = basicCpuMs(BASIC_BATCHES);
    return new Lead(fenzo, fleet, fenzoCpu, fleetCpu, median(ratios), median(wallRatios), basicCpu,
        median(fenzoCpu) / median(basicCpu));
  }

  /**
   * The process CPU milliseconds of {@code batches} SchedulingBasic batches (5,000 nodes, 10,000 measured pods, kube's
   * default profile), each on a fresh cluster with its init pods placed outside the measurement, after one unmeasured
   * batch.
   */
  static double[] basicCpuMs(int batches) {
    PerfCase basic = PerfCase.of("SchedulingBasic", 5000);
    double[] cpu = new double[batches];
    for (int i = -1; i < batches; i++) {
      try (FleetKitHarness h = new FleetKitHarness(basic.nodes(), (Integer) null, 0, 42)) {
        if (h.scheduleAll(basic.initPods()) != basic.initPods().size()) {
          throw new IllegalStateException("fenzo lead guard: SchedulingBasic init pods were not all bound");
        }
        long c0 = processCpuNanos();
        int bound = h.scheduleAll(basic.measuredPods());
        long c1 = processCpuNanos();
        if (bound != basic.measuredPods().size()) {
          throw new IllegalStateException("fenzo lead guard: SchedulingBasic bound " + bound + " of "
              + basic.measuredPods().size() + " pods");
        }
        if (i >= 0) {
          cpu[i] = Math.max(1, c1 - c0) / 1e6;
        }
      }
    }
    return cpu;
  }

  /** CPU time of this whole process (every thread, GC and JIT included). */
  private static long processCpuNanos() {
    java.lang.management.OperatingSystemMXBean os = java.lang.management.ManagementFactory.getOperatingSystemMXBean();
    if (os instanceof com.sun.management.OperatingSystemMXBean sun) {
      return sun.getProcessCpuTime();
    }
    throw new IllegalStateException("fenzo lead guard: this JVM does not report process CPU time");
  }

  public static void main(String[] args) {
    double floor = args.length > 0 ? Double.parseDouble(args[0]) : DEFAULT_FLOOR;
    int warmup = args.length > 1 ? Integer.parseInt(args[1]) : 2;
    int pairs = args.length > 2 ? Integer.parseInt(args[2]) : 5;
    Lead lead = measure(warmup, pairs);
    System.out.println(lead.describe() + String.format(Locale.ROOT, "; floor %.1fx", floor));
    System.out.println(String.format(Locale.ROOT, "SchedulingBasic floor %.1fx", DEFAULT_BASIC_FLOOR));
    if (lead.medianRatio() < floor) {
      System.out.println("FAIL: FleetKit's lead over Fenzo fell below the floor");
      System.exit(1);
    }
    if (lead.basicRatio() < DEFAULT_BASIC_FLOOR) {
      System.out.println("FAIL: SchedulingBasic's lead over Fenzo fell below its floor");
      System.exit(1);
    }
  }

  static double median(double[] v) {
    double[] s = v.clone();
    Arrays.sort(s);
    int n = s.length;
    return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
  }

  private static double min(double[] v) {
    return Arrays.stream(v).min().orElse(Double.NaN);
  }

  private static double max(double[] v) {
    return Arrays.stream(v).max().orElse(Double.NaN);
  }
}
