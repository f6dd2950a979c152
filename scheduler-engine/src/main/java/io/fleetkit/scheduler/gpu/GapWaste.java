package io.fleetkit.scheduler.gpu;

/**
 * How much of a device's free gap is expected never to be allocated, given the typical share pods (fractions of one
 * device) and the CPU left on the device's node: the value behind the GapFill policy.
 *
 * <p>A shared device with {@code h} milli-GPU free can still take share pods that fit both {@code h} and the node's
 * CPU; what no typical pod fills is stranded. The value is a dynamic programme over the typical share shapes
 * (milli-GPU, CPU, weight):
 * <pre>
 *   E(0, c) = 0
 *   E(h, c) = min( h,  min over shapes s with s.milli ≤ h and s.cpu ≤ c of  E(h − s.milli, c − s.cpu) + λ / w(s) )
 * </pre>
 * where w(s) is the shape's share of the typical share pods and λ ({@code patience}, in milli-GPU) prices waiting for
 * a pod of that shape: a gap that only a rare shape fills exactly is worth less than one a common shape fills. So a
 * 0.35 gap is worth keeping for the common 0.32 pods (E ≈ 30 + λ/w(0.32)) and filling it with a 0.23 pod, which
 * leaves 0.12 that almost nothing fills, costs about 120 − 35 = 85; FGD's fragmentation measure prefers that fill
 * because it only counts which typical pods fit the gap now, not what they would leave.
 *
 * <p>{@link #cost} is what placing a share pod on a device adds to the expected waste; a fully free device costs
 * nothing before the placement (whole-device pods fill it). Gaps are counted in steps of 10 milli-GPU (the openb
 * trace's granularity; a gap is rounded down, a pod's size up) and CPU in whole cores up to 128 (more counts as 128).
 * Immutable and thread-safe.
 */
public final class GapWaste {
  /** λ of the class comment that the GapFill policy uses, in milli-GPU (measured best between 1.25 and 1.75). */
  public static final double DEFAULT_PATIENCE = 1.5;

  private static final int STEP = 10;
  private static final int GAPS = 1000 / STEP + 1;
  private static final int CPUS = 129;

  private final double[] table;

  private GapWaste(double[] table) {
    this.table = table;
  }

  /**
   * The values for the typical share shapes {@code milli[k]} (1..999 milli-GPU of one device), {@code cpuMilli[k]}
   * (CPU request, milli-cores) and {@code weight[k]} (any positive popularity, e.g. the count of such pods; only the
   * ratios matter).
   *
   * @throws IllegalArgumentException when the arrays differ in length, a share is outside 1..999, a CPU request is
   *     negative, a weight is not positive, or {@code patience} is negative
   */
  public static GapWaste of(int[] milli, long[] cpuMilli, double[] weight, double patience) {
    if (milli.length != cpuMilli.length || milli.length != weight.length) {
      throw new IllegalArgumentException("GapWaste: milli, cpuMilli and weight must have the same length, got "
          + milli.length + ", " + cpuMilli.length + " and " + weight.length);
    }
    if (!(patience >= 0)) {
      throw new IllegalArgumentException("GapWaste: patience must be >= 0, got " + patience);
    }
    double total = 0;
    for (int k = 0; k < milli.length; k++) {
      if (milli[k] < 1 || milli[k] > 999) {
        throw new IllegalArgumentException("GapWaste: shape " + k + ": milli must be in 1..999, got " + milli[k]);
      }
      if (cpuMilli[k] < 0) {
        throw new IllegalArgumentException("GapWaste: shape " + k + ": cpuMilli must be >= 0, got " + cpuMilli[k]);
      }
      if (!(weight[k] > 0) || Double.isInfinite(weight[k])) {
        throw new IllegalArgumentException("GapWaste: shape " + k + ": weight must be positive, got " + weight[k]);
      }
      total += weight[k];
    }
    double[] e = new double[GAPS * CPUS];
    for (int h = 1; h < GAPS; h++) {
      for (int c = 0; c < CPUS; c++) {
        double best = h * STEP;
        for (int k = 0; k < milli.length; k++) {
          int sm = steps(milli[k]);
          int sc = cores(cpuMilli[k]);
          if (sm <= h && sc <= c) {
            best = Math.min(best, e[(h - sm) * CPUS + c - sc] + patience * total / weight[k]);
          }
        }
        e[h * CPUS + c] = best;
      }
    }
    return new GapWaste(e);
  }

  /** No typical share shapes: every gap is wasted whole. */
  public static GapWaste none() {
    return of(new int[0], new long[0], new double[0], 0);
  }

  /** The expected milli-GPU never allocated of a device with {@code freeMilli} free on a node with that CPU left. */
  public double waste(int freeMilli, long cpuLeftMilli) {
    int h = Math.max(0, Math.min(1000, freeMilli)) / STEP;
    int c = (int) Math.max(0, Math.min(CPUS - 1, cpuLeftMilli / 1000));
    return table[h * CPUS + c];
  }

  /**
   * What placing a share of {@code shareMilli} (with {@code shareCpuMilli} CPU) on a device with {@code freeMilli}
   * free, on a node with {@code cpuLeftMilli} CPU left, adds to the expected waste; lower is better. A fully free
   * device counts as wasting nothing before.
   */
  public double cost(int freeMilli, long cpuLeftMilli, int shareMilli, long shareCpuMilli) {
    double before = freeMilli >= 1000 ? 0 : waste(freeMilli, cpuLeftMilli);
    int after = freeMilli - steps(shareMilli) * STEP;
    return waste(Math.max(0, after), cpuLeftMilli - shareCpuMilli) - before;
  }

  private static int steps(int milli) {
    return (milli + STEP - 1) / STEP;
  }

  private static int cores(long cpuMilli) {
    return (int) Math.min(Integer.MAX_VALUE, (cpuMilli + 999) / 1000);
  }
}
