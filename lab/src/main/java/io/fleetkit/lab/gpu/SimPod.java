package io.fleetkit.lab.gpu;

import io.fleetkit.scheduler.plugins.gpu.GpuPod;

/**
 * A trace pod compiled for the replay: non-zero CPU, the accepted-model bit mask (0: any) that the replay's filter
 * checks, and the pod as the policies see it.
 */
record SimPod(long cpu, long mem, int num, int milli, int mask, GpuPod gpu) {
  boolean isCpuOnly() {
    return num == 0 || milli == 0;
  }

  boolean isShare() {
    return num == 1 && milli > 0 && milli < 1000;
  }

  long gpuTotal() {
    return (long) num * milli;
  }

  boolean accepts(int modelBit) {
    return mask == 0 || (mask & modelBit) != 0;
  }
}
