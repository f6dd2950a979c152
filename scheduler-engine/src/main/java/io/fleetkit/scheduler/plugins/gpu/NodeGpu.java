package io.fleetkit.scheduler.plugins.gpu;

import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.PodInfo;
import java.util.List;
import java.util.function.IntUnaryOperator;

/**
 * What a {@link GpuScorer} reads of one node: its name, CPU left (millicores), free thousandths per device and their
 * sum, each device's model, and how many GPU pods of each kind it hosts ({@link #gpuPods}). The engine builds a
 * fresh value per call; the trace replay keeps one per node and replaces it when the node changes. A scorer may
 * change {@code free} temporarily (to try a placement) but must restore it before returning; otherwise read-only.
 *
 * @param name the node's name (seeds per-node randomness and keys score caches)
 * @param cpuLeft allocatable minus requested CPU, millicores
 * @param free free thousandths of each device
 * @param freeTotal the sum of {@code free}
 * @param models each device's model, by index
 * @param gpuPodsOfKind the number of GPU pods hosted per kind: 0 for shares, k (1..8, 8 for more) for k whole
 *     devices
 */
public record NodeGpu(String name, long cpuLeft, int[] free, int freeTotal, List<String> models,
    IntUnaryOperator gpuPodsOfKind) {
  /** Thousandths in one device. */
  public static final int FULL = 1000;
  /** The FGD paper's normalisation constants: the largest node's CPU (millicores) and GPU (milli). */
  public static final double MAX_SPEC_CPU = 128000;
  public static final double MAX_SPEC_GPU = 8000;

  private static final IntUnaryOperator NO_PODS = kind -> 0;

  /** A node without a name or GPU pods (tests and single computations). */
  public NodeGpu(long cpuLeft, int[] free, int freeTotal, List<String> models) {
    this("", cpuLeft, free, freeTotal, models, NO_PODS);
  }

  /** The kind of a GPU pod in {@link #gpuPods}: 0 for a share, else the whole devices, at most 8. */
  public static int kind(GpuDemand d) {
    return d.isShare() ? 0 : Math.min(d.whole(), 8);
  }

  /** GPU pods of {@code kind} ({@link #kind}) on the node. */
  public int gpuPods(int kind) {
    return gpuPodsOfKind.applyAsInt(kind);
  }

  /** The number of devices. */
  public int devices() {
    return free.length;
  }

  /** {@code node} in the engine, its GPU pods other than {@code podKey} counted lazily. */
  static NodeGpu of(GpuAssignments assignments, NodeInfo node, String podKey) {
    long cpuLeft = node.allocatable().milliCpu() - node.requestedMilliCpu();
    IntUnaryOperator pods = kind -> {
      int n = 0;
      for (PodInfo p : node.pods()) {
        GpuDemand o = GpuDemand.of(p.pod());
        if (!o.isNone() && !p.key().equals(podKey) && kind(o) == kind) {
          n++;
        }
      }
      return n;
    };
    if (node.node().status().gpus().isEmpty()) {
      return new NodeGpu(node.name(), cpuLeft, new int[0], 0, List.of(), pods);
    }
    DeviceLedger l = assignments.ledger(node);
    int[] free = free(l);
    return new NodeGpu(node.name(), cpuLeft, free, sum(free), l.models(), pods);
  }

  /** A node's ledger with {@code cpuLeft}, for Reserve's device choice. */
  static NodeGpu of(String name, DeviceLedger l, long cpuLeft) {
    int[] free = free(l);
    return new NodeGpu(name, cpuLeft, free, sum(free), l.models(), NO_PODS);
  }

  private static int[] free(DeviceLedger l) {
    int[] free = new int[l.devices().size()];
    for (int i = 0; i < free.length; i++) {
      free[i] = FULL - l.used(i);
    }
    return free;
  }

  private static int sum(int[] v) {
    int s = 0;
    for (int x : v) {
      s += x;
    }
    return s;
  }

  /** The pod's CPU as the policies count it: kube's non-zero request (100m when none). */
  static long cpu(PodInfo pod) {
    return pod.nonZeroMilliCpu();
  }

  /** The pod's GPU demand in milli: whole devices × 1000, or the share. */
  static long gpuTotal(GpuDemand d) {
    return d.totalMilli();
  }
}
