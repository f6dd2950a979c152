package io.fleetkit.lab.gpu;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * The configuration LP bound on what any packing of a set of pods into {@code devices} GPUs allocates (milli-GPU),
 * tighter than {@link AllocationBound#bound}: every device's shares of at least {@value #TINY} milli form one of the
 * finitely many "configurations" (multisets of sizes summing to at most 1000, at most 1000 / {@value #TINY} items),
 * and the LP chooses how many devices get each configuration (fractionally), how many devices whole-GPU pods take,
 * and how much of the tiny shares (below {@value #TINY}) go into the configurations' gaps, where a tiny share of size
 * s only counts in gaps of at least s (Hall's condition for every size threshold). Nodes, models, CPU and memory are
 * ignored. Every real packing is a feasible point of the LP with the same allocation, so the LP optimum bounds it.
 *
 * <p>Solved by a dense primal simplex (all constraints {@code ≤} with non-negative right-hand sides, so the slack basis
 * is feasible; Bland's rule, no cycling). Allocations are whole milli, so the bound is the LP optimum plus a
 * floating-point tolerance of one part per million, rounded down.
 */
final class ConfigurationBound {
  /** Shares below this (milli) are "tiny": fluid in the gaps. */
  static final int TINY = 200;

  private ConfigurationBound() {}

  static long bound(long devices, List<TracePod> pods) {
    long whole = 0;
    TreeMap<Integer, Long> shares = new TreeMap<>();
    TreeMap<Integer, Long> tiny = new TreeMap<>();
    for (TracePod t : pods) {
      if (t.numGpu() == 1 && t.gpuMilli() > 0 && t.gpuMilli() < 1000) {
        (t.gpuMilli() < TINY ? tiny : shares).merge(t.gpuMilli(), 1L, Long::sum);
      } else {
        whole += t.totalGpuMilli();
      }
    }
    int[] sizes = shares.keySet().stream().mapToInt(Integer::intValue).toArray();
    List<int[]> configs = new ArrayList<>();
    enumerate(sizes, 0, new int[sizes.length], 0, configs);
    int[] tinySizes = tiny.keySet().stream().mapToInt(Integer::intValue).toArray();
    int nc = configs.size();
    int nt = tinySizes.length;
    // variables: configs (0..nc-1), whole devices (nc), tiny amounts (nc+1 .. nc+nt)
    int nv = nc + 1 + nt;
    int rows = 1 + sizes.length + 1 + nt + nt;
    double[][] a = new double[rows][nv];
    double[] b = new double[rows];
    double[] obj = new double[nv];
    int r = 0;
    for (int c = 0; c < nc; c++) {
      a[r][c] = 1;
    }
    a[r][nc] = 1;
    b[r++] = devices;
    for (int s = 0; s < sizes.length; s++) {
      for (int c = 0; c < nc; c++) {
        a[r][c] = configs.get(c)[s];
      }
      b[r++] = shares.get(sizes[s]);
    }
    a[r][nc] = 1;
    b[r++] = whole / 1000.0;
    for (int j = 0; j < nt; j++) {
      a[r][nc + 1 + j] = 1;
      b[r++] = (double) tinySizes[j] * tiny.get(tinySizes[j]);
    }
    for (int j = 0; j < nt; j++) {
      for (int i = j; i < nt; i++) {
        a[r][nc + 1 + i] = 1;
      }
      for (int c = 0; c < nc; c++) {
        int gap = 1000 - load(configs.get(c), sizes);
        if (gap >= tinySizes[j]) {
          a[r][c] = -gap;
        }
      }
      b[r++] = 0;
    }
    for (int c = 0; c < nc; c++) {
      obj[c] = load(configs.get(c), sizes);
    }
    obj[nc] = 1000;
    for (int j = 0; j < nt; j++) {
      obj[nc + 1 + j] = 1;
    }
    double opt = maximize(a, b, obj);
    return (long) Math.floor(opt + 1e-6 * Math.max(1, opt));
  }

  /**
   * The fewest devices that can hold all of {@code shares} (share pods) by this LP: a lower bound on the devices any
   * packing of them needs. At least 1 when there is any share, 0 when there is none.
   */
  static long minDevices(List<TracePod> shares) {
    long volume = 0;
    for (TracePod t : shares) {
      if (!(t.numGpu() == 1 && t.gpuMilli() > 0 && t.gpuMilli() < 1000)) {
        throw new IllegalArgumentException("configuration bound: pod " + t.name() + " is not a share of one GPU");
      }
      volume += t.gpuMilli();
    }
    long lo = (volume + 999) / 1000;
    long hi = shares.size();
    while (lo < hi) {
      long mid = (lo + hi) / 2;
      if (bound(mid, shares) >= volume) {
        hi = mid;
      } else {
        lo = mid + 1;
      }
    }
    return lo;
  }

  private static int load(int[] config, int[] sizes) {
    int l = 0;
    for (int s = 0; s < sizes.length; s++) {
      l += config[s] * sizes[s];
    }
    return l;
  }

  private static void enumerate(int[] sizes, int from, int[] cur, int load, List<int[]> out) {
    out.add(cur.clone());
    for (int s = from; s < sizes.length; s++) {
      if (load + sizes[s] <= 1000) {
        cur[s]++;
        enumerate(sizes, s, cur, load + sizes[s], out);
        cur[s]--;
      }
    }
  }

  /** max obj·x s.t. a·x ≤ b, x ≥ 0, with b ≥ 0 (bounded in our use). Dense tableau, Bland's rule. */
  static double maximize(double[][] a, double[] b, double[] obj) {
    int m = b.length;
    int n = obj.length;
    int cols = n + m + 1;
    double[][] t = new double[m + 1][cols];
    int[] basis = new int[m];
    for (int i = 0; i < m; i++) {
      if (b[i] < 0) {
        throw new IllegalArgumentException("configuration bound: negative right-hand side " + b[i] + " in row " + i);
      }
      System.arraycopy(a[i], 0, t[i], 0, n);
      t[i][n + i] = 1;
      t[i][cols - 1] = b[i];
      basis[i] = n + i;
    }
    for (int j = 0; j < n; j++) {
      t[m][j] = -obj[j];
    }
    final double eps = 1e-9;
    while (true) {
      int enter = -1;
      for (int j = 0; j < cols - 1; j++) {
        if (t[m][j] < -eps) {
          enter = j;
          break;
        }
      }
      if (enter < 0) {
        return t[m][cols - 1];
      }
      int leave = -1;
      double bestRatio = Double.POSITIVE_INFINITY;
      for (int i = 0; i < m; i++) {
        if (t[i][enter] > eps) {
          double ratio = t[i][cols - 1] / t[i][enter];
          if (ratio < bestRatio - eps || (Math.abs(ratio - bestRatio) <= eps && basis[i] < basis[leave])) {
            bestRatio = ratio;
            leave = i;
          }
        }
      }
      if (leave < 0) {
        throw new IllegalStateException("configuration bound: LP unbounded in column " + enter);
      }
      double pv = t[leave][enter];
      double[] lr = t[leave];
      for (int j = 0; j < cols; j++) {
        lr[j] /= pv;
      }
      for (int i = 0; i <= m; i++) {
        double f = t[i][enter];
        if (i != leave && f != 0) {
          double[] row = t[i];
          for (int j = 0; j < cols; j++) {
            row[j] -= f * lr[j];
          }
        }
      }
      basis[leave] = enter;
    }
  }
}
