package io.fleetkit.scheduler.gpu.trace;

/** Each node's current F_n(M) and their sum, kept up to date by the replay after every placement. */
final class FragLedger {
  private final Cluster c;
  private final TargetWorkload m;
  private final double[] node;
  private double total;

  FragLedger(Cluster c, TargetWorkload m) {
    this.c = c;
    this.m = m;
    node = new double[c.n];
    for (int i = 0; i < c.n; i++) {
      node[i] = m.frag(c.cpuLeft[i], c.left[i], c.modelBit[i]);
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
    double f = m.frag(c.cpuLeft[i], c.left[i], c.modelBit[i]);
    total += f - node[i];
    node[i] = f;
  }

  TargetWorkload workload() {
    return m;
  }
}
