package io.fleetkit.scheduler.gpu.trace;

/**
 * A trace pod compiled for the replay: non-zero CPU, the accepted-model bit mask (0: any) and a shape id shared by
 * pods with equal (cpu, gpu milli, gpu count, models), used to cache scores.
 */
record SimPod(long cpu, long mem, int num, int milli, int mask, int shape) {
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
