package io.fleetkit.scheduler.gpu.trace;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * FGD's target workload M ({@code GetTypicalPods}: the most popular pod shapes of the original trace covering 95% of
 * its pods, popularity renormalised) and the node fragmentation F_n(M) ({@code NodeGpuShareFragAmount}), in
 * milli-GPU. Immutable after construction.
 */
final class TargetWorkload {
  final long[] cpu;
  final int[] milli;
  final int[] num;
  final int[] mask;
  final double[] p;

  private record Shape(long cpu, int milli, int num, String spec, int mask) {}

  TargetWorkload(List<TracePod> original, List<String> models) {
    Map<Shape, Integer> counts = new HashMap<>();
    for (TracePod t : original) {
      counts.merge(new Shape(nonZeroCpu(t.milliCpu()), t.gpuMilli(), t.numGpu(), String.join("|", t.models()),
          mask(t.models(), models)), 1, Integer::sum);
    }
    List<Map.Entry<Shape, Integer>> sorted = new ArrayList<>(counts.entrySet());
    Comparator<Shape> tuple = Comparator.comparingLong(Shape::cpu).thenComparingInt(Shape::milli)
        .thenComparingInt(Shape::num).thenComparing(Shape::spec);
    sorted.sort(Map.Entry.<Shape, Integer>comparingByValue().reversed()
        .thenComparing(Map.Entry.comparingByKey(tuple.reversed())));
    int total = original.size();
    int cum = 0;
    int k = 0;
    while (k < sorted.size() && cum < 0.95 * total) {
      cum += sorted.get(k++).getValue();
    }
    cpu = new long[k];
    milli = new int[k];
    num = new int[k];
    mask = new int[k];
    p = new double[k];
    for (int i = 0; i < k; i++) {
      Shape s = sorted.get(i).getKey();
      cpu[i] = s.cpu();
      milli[i] = s.milli();
      num[i] = s.num();
      mask[i] = s.mask();
      p[i] = sorted.get(i).getValue() / (double) cum;
    }
  }

  int size() {
    return p.length;
  }

  static long nonZeroCpu(long milliCpu) {
    return milliCpu == 0 ? 100 : milliCpu;
  }

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

  /** F_n(M) of a node with {@code cpuLeft} and GPU {@code left}, all of model {@code modelBit}. */
  double frag(long cpuLeft, int[] left, int modelBit) {
    int total = 0;
    for (int v : left) {
      total += v;
    }
    if (total == 0) {
      return 0;
    }
    double f = 0;
    for (int m = 0; m < p.length; m++) {
      int need = milli[m];
      if (need == 0 || num[m] == 0 || (mask[m] != 0 && (mask[m] & modelBit) == 0)) {
        f += p[m] * total;
        continue;
      }
      int fit = 0;
      int small = 0;
      for (int v : left) {
        if (v >= need) {
          fit++;
        } else {
          small += v;
        }
      }
      f += p[m] * (fit >= num[m] && cpuLeft >= cpu[m] ? small : total);
    }
    return f;
  }
}
