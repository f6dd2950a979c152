package io.fleetkit.lab.gpu;

import io.fleetkit.scheduler.plugins.gpu.GpuWorkload;

/** Each node's current F_n(M) and their sum, kept up to date by the replay after every placement. */
final class FragLedger {
  private final TraceCluster c;
  private final GpuWorkload m;
  private final double[] node;
  private double total;

  FragLedger(TraceCluster c, GpuWorkload m) {
    this.c = c;
    this.m = m;
    node = new double[c.n];
    for (int i = 0; i < c.n; i++) {
      node[i] = m.fragmentation(c.cpuLeft[i], c.left[i], c.models[i]);
      total += node[i];
    }
  }

  double node(int i) {
    return node[i];
  }

  double total() {
    return total;
  }

  void update(int i) {
    double f = m.fragmentation(c.cpuLeft[i], c.left[i], c.models[i]);
    total += f - node[i];
    node[i] = f;
  }
}
