package io.fleetkit.scheduler.plugins.gpu;

import io.fleetkit.api.scheduler.NodeInfo;
import io.fleetkit.api.scheduler.PodInfo;
import java.util.List;

/**
 * What the GPU policies read of one node: CPU left (millicores), free thousandths per device and their sum, and
 * the devices' models. A fresh value per call; cheap (a node has at most a few dozen devices).
 */
record NodeGpu(long cpuLeft, int[] free, int freeTotal, List<String> models) {
  static final int FULL = 1000;
  /** The paper's normalisation constants: the largest node's CPU (millicores) and GPU (milli). */
  static final double MAX_SPEC_CPU = 128000;
  static final double MAX_SPEC_GPU = 8000;

  static NodeGpu of(GpuAssignments assignments, NodeInfo node) {
    long cpuLeft = node.allocatable().milliCpu() - node.requestedMilliCpu();
    if (node.node().status().gpus().isEmpty()) {
      return new NodeGpu(cpuLeft, new int[0], 0, List.of());
    }
    return of(assignments.ledger(node), cpuLeft);
  }

  static NodeGpu of(DeviceLedger l, long cpuLeft) {
    int[] free = new int[l.devices().size()];
    int total = 0;
    for (int i = 0; i < free.length; i++) {
      free[i] = FULL - l.used(i);
      total += free[i];
    }
    return new NodeGpu(cpuLeft, free, total, l.models());
  }

  /** The pod's CPU as the policies count it: kube's non-zero request (100m when none). */
  static long cpu(PodInfo pod) {
    return pod.nonZeroMilliCpu();
  }

  /** The pod's GPU demand in milli: whole devices × 1000, or the share. */
  static long gpuTotal(GpuDemand d) {
    return d.isShare() ? d.milli() : 1000L * d.whole();
  }

  int devices() {
    return free.length;
  }
}
