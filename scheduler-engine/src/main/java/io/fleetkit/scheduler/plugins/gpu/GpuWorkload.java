package io.fleetkit.scheduler.plugins.gpu;

import io.fleetkit.api.core.GpuRequests;
import io.fleetkit.api.core.Pod;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * FGD's target workload M: the typical pod shapes and how popular each is, against which a node's GPU fragmentation
 * F_n(M) is measured (the FGD paper, USENIX ATC'23, {@code NodeGpuShareFragAmount}). Immutable.
 *
 * <p>Build it from the shapes you expect ({@link #of}), or from a sample of pods ({@link #typicalOf}: the most
 * popular shapes covering 95% of the pods, popularity renormalised, as the paper's {@code GetTypicalPods}).
 */
public final class GpuWorkload {
  /**
   * One pod shape of M.
   *
   * @param milliCpu the CPU request in millicores (0 counts as 100m, kube's non-zero default)
   * @param gpuMilli thousandths of a device per GPU: 1000 for whole devices, 1..999 for a share, 0 for no GPU
   * @param gpus devices asked (1 for a share, 0 for no GPU)
   * @param models accepted GPU models (empty: any)
   * @param weight popularity, positive; weights are normalised to sum to 1
   */
  public record Shape(long milliCpu, int gpuMilli, int gpus, List<String> models, double weight) {
    public Shape {
      models = List.copyOf(models);
      if (milliCpu < 0 || gpuMilli < 0 || gpuMilli > GpuRequests.MILLI_PER_DEVICE || gpus < 0) {
        throw new IllegalArgumentException("GPU workload shape: milliCpu, gpuMilli (<= 1000) and gpus must not be "
            + "negative, got " + milliCpu + ", " + gpuMilli + ", " + gpus);
      }
      if (!(weight > 0) || Double.isInfinite(weight)) {
        throw new IllegalArgumentException("GPU workload shape: weight must be positive and finite, got " + weight);
      }
    }
  }

  private final List<Shape> shapes;
  private final long[] cpu;
  private final int[] milli;
  private final int[] num;
  private final double[] p;

  private GpuWorkload(List<Shape> shapes) {
    this.shapes = List.copyOf(shapes);
    int k = shapes.size();
    cpu = new long[k];
    milli = new int[k];
    num = new int[k];
    p = new double[k];
    double sum = shapes.stream().mapToDouble(Shape::weight).sum();
    for (int i = 0; i < k; i++) {
      Shape s = shapes.get(i);
      cpu[i] = s.milliCpu() == 0 ? 100 : s.milliCpu();
      milli[i] = s.gpus() == 0 ? 0 : s.gpuMilli();
      num[i] = s.gpuMilli() == 0 ? 0 : s.gpus();
      p[i] = s.weight() / sum;
    }
  }

  /** M from explicit shapes; at least one. */
  public static GpuWorkload of(List<Shape> shapes) {
    Objects.requireNonNull(shapes, "shapes");
    if (shapes.isEmpty()) {
      throw new IllegalArgumentException("GPU workload: at least one shape is required");
    }
    return new GpuWorkload(shapes);
  }

  /**
   * The typical shapes of {@code pods}: shapes sorted by popularity (ties: larger CPU, GPU milli, count first), the
   * most popular taken until they cover 95% of the pods, their popularity renormalised.
   */
  public static GpuWorkload typicalOf(Collection<Pod> pods) {
    Objects.requireNonNull(pods, "pods");
    if (pods.isEmpty()) {
      throw new IllegalArgumentException("GPU workload: at least one pod is required");
    }
    record Key(long cpu, int milli, int num, List<String> models) {}
    Map<Key, Integer> counts = new LinkedHashMap<>();
    for (Pod pod : pods) {
      var req = pod.effectiveRequests();
      long whole = GpuRequests.whole(req);
      long share = GpuRequests.milli(req);
      int m = whole > 0 ? 1000 : (int) Math.max(0, share);
      int n = whole > 0 ? (int) whole : share > 0 ? 1 : 0;
      counts.merge(new Key(req.milliCpu(), m, n, GpuRequests.acceptedModels(pod.metadata())), 1, Integer::sum);
    }
    List<Map.Entry<Key, Integer>> sorted = new ArrayList<>(counts.entrySet());
    Comparator<Key> tuple = Comparator.comparingLong(Key::cpu).thenComparingInt(Key::milli)
        .thenComparingInt(Key::num).thenComparing(k -> String.join("|", k.models()));
    sorted.sort(Map.Entry.<Key, Integer>comparingByValue().reversed()
        .thenComparing(Map.Entry.comparingByKey(tuple.reversed())));
    List<Shape> out = new ArrayList<>();
    int cum = 0;
    for (Map.Entry<Key, Integer> e : sorted) {
      if (cum >= 0.95 * pods.size()) {
        break;
      }
      cum += e.getValue();
      Key k = e.getKey();
      out.add(new Shape(k.cpu(), k.milli(), k.num(), k.models(), e.getValue()));
    }
    return new GpuWorkload(out);
  }

  public List<Shape> shapes() {
    return shapes;
  }

  /** The number of shapes; the accessors below take a shape index {@code 0..size()-1}, in {@link #shapes} order. */
  int size() {
    return p.length;
  }

  /** The shape's CPU as F_n(M) counts it: millicores, 100 when the shape asks none. */
  long cpu(int shape) {
    return cpu[shape];
  }

  /** The shape's thousandths per device: 1000 whole, 1..999 a share, 0 no GPU. */
  int milli(int shape) {
    return milli[shape];
  }

  /** The shape's device count (0 for no GPU). */
  int num(int shape) {
    return num[shape];
  }

  /** The shape's popularity, normalised so that all shapes sum to 1. */
  double popularity(int shape) {
    return p[shape];
  }

  /**
   * F_n(M) in milli-GPU: for each shape, the node's free GPU it could not use (all of it when the shape does not fit
   * at all, else the free parts of devices too small for it), weighted by popularity.
   *
   * @param cpuLeft CPU left on the node, millicores
   * @param free free thousandths per device
   * @param models each device's model
   */
  public double fragmentation(long cpuLeft, int[] free, List<String> models) {
    int total = 0;
    for (int v : free) {
      total += v;
    }
    if (total == 0) {
      return 0;
    }
    double f = 0;
    for (int s = 0; s < p.length; s++) {
      int need = milli[s];
      if (need == 0 || num[s] == 0) {
        f += p[s] * total;
        continue;
      }
      List<String> accepted = shapes.get(s).models();
      int fit = 0;
      int small = 0;
      for (int g = 0; g < free.length; g++) {
        if (free[g] >= need && (accepted.isEmpty() || accepted.contains(models.get(g)))) {
          fit++;
        } else {
          small += free[g];
        }
      }
      f += p[s] * (fit >= num[s] && cpuLeft >= cpu[s] ? small : total);
    }
    return f;
  }

  @Override
  public String toString() {
    return "GpuWorkload" + shapes;
  }
}
