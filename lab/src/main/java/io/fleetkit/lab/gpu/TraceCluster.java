package io.fleetkit.lab.gpu;

import io.fleetkit.scheduler.plugins.gpu.NodeGpu;
import java.util.Collections;
import java.util.List;

/**
 * The replayed cluster as flat arrays, nodes in tie-break order (index 0 wins ties), and each node's
 * {@link NodeGpu} view for the policies, replaced whenever the node changes. Mutable, single-threaded.
 */
final class TraceCluster {
  static final int FULL = 1000;
  static final int MAX_PODS = 1001;

  final int n;
  final String[] names;
  final long[] cpuLeft;
  final long[] cpuCap;
  final long[] memLeft;
  final int[] gpus;
  final int[] modelBit;
  /** Each node's device models (one model per node). */
  final List<String>[] models;
  private final NodeGpu[] views;
  final int[][] left;
  final int[] sumLeft;
  final int[] pods;
  /** Per node: GPU pods hosted, by tag (0: share, k: k whole GPUs), for GpuClustering. */
  final int[][] tags;
  long usedMilli;
  final long totalMilli;

  @SuppressWarnings("unchecked")
  TraceCluster(List<TraceNode> ordered, List<String> models) {
    n = ordered.size();
    names = new String[n];
    cpuLeft = new long[n];
    cpuCap = new long[n];
    memLeft = new long[n];
    gpus = new int[n];
    modelBit = new int[n];
    this.models = new List[n];
    views = new NodeGpu[n];
    left = new int[n][];
    sumLeft = new int[n];
    pods = new int[n];
    tags = new int[n][9];
    long total = 0;
    for (int i = 0; i < n; i++) {
      TraceNode t = ordered.get(i);
      names[i] = t.name();
      cpuLeft[i] = t.milliCpu();
      cpuCap[i] = t.milliCpu();
      memLeft[i] = t.memoryMiB();
      gpus[i] = t.gpus();
      int m = models.indexOf(t.model());
      modelBit[i] = m < 0 ? 0 : 1 << m;
      this.models[i] = Collections.nCopies(t.gpus(), t.model());
      left[i] = new int[t.gpus()];
      java.util.Arrays.fill(left[i], FULL);
      sumLeft[i] = FULL * t.gpus();
      total += sumLeft[i];
    }
    totalMilli = total;
    for (int i = 0; i < n; i++) {
      views[i] = newView(i);
    }
  }

  /** Node {@code i} as the policies see it; its {@code free} is the live array {@code left[i]}. */
  NodeGpu view(int i) {
    return views[i];
  }

  private NodeGpu newView(int i) {
    int[] t = tags[i];
    return new NodeGpu(names[i], cpuLeft[i], left[i], sumLeft[i], models[i], kind -> t[kind]);
  }

  /** The k8s filters and Open-Gpu-Share: CPU, memory, pod count, GPU model and free GPU. */
  boolean fits(SimPod p, int i) {
    if (cpuLeft[i] < p.cpu() || memLeft[i] < p.mem() || pods[i] >= MAX_PODS) {
      return false;
    }
    if (p.isCpuOnly()) {
      return true;
    }
    if (gpus[i] == 0 || !p.accepts(modelBit[i])) {
      return false;
    }
    int[] l = left[i];
    int ok = 0;
    for (int v : l) {
      if (v >= p.milli() && ++ok >= p.num()) {
        return true;
      }
    }
    return false;
  }

  /** Places {@code p} on node {@code i} using devices {@code devs} (empty for CPU-only pods). */
  void place(SimPod p, int i, int[] devs) {
    cpuLeft[i] -= p.cpu();
    memLeft[i] -= p.mem();
    pods[i]++;
    for (int d : devs) {
      left[i][d] -= p.milli();
      sumLeft[i] -= p.milli();
      usedMilli += p.milli();
      if (left[i][d] < 0) {
        throw new IllegalStateException("GPU " + d + " of node " + names[i] + " overcommitted");
      }
    }
    if (!p.isCpuOnly()) {
      tags[i][p.isShare() ? 0 : Math.min(p.num(), 8)]++;
    }
    views[i] = newView(i);
  }

  /** Device choice "best": a share takes the tightest GPU that fits (lowest index on ties); whole pods the
   *  lowest-indexed fully free GPUs; CPU-only pods none. */
  int[] bestDevices(SimPod p, int i) {
    if (p.isCpuOnly()) {
      return NONE;
    }
    int[] l = left[i];
    if (p.isShare()) {
      int best = -1;
      for (int g = 0; g < l.length; g++) {
        if (l[g] >= p.milli() && (best < 0 || l[g] < l[best])) {
          best = g;
        }
      }
      return new int[] {best};
    }
    return lowestFree(i, p.num());
  }

  int[] lowestFree(int i, int k) {
    int[] out = new int[k];
    int c = 0;
    int[] l = left[i];
    for (int g = 0; g < l.length && c < k; g++) {
      if (l[g] == FULL) {
        out[c++] = g;
      }
    }
    return out;
  }

  static final int[] NONE = new int[0];
}
