package io.fleetkit.scheduler.plugins.gpu;

import io.fleetkit.scheduler.gpu.GapWaste;

/**
 * Which device a share pod gets on its chosen node, when the enabled policy decides that (FGD and FgdBalanced: the
 * device FGD's score was computed on; GapFill: the device of lowest expected waste; Random: a seeded random fitting
 * device). Otherwise Reserve takes the tightest fitting device.
 */
interface SharePicker {
  /** A device index of {@code n} with room for {@code d}, or -1 to let Reserve decide. */
  int pick(NodeGpu n, long cpu, GpuDemand d, String podKey);

  static SharePicker fgd(GpuWorkload m) {
    return (n, cpu, d, podKey) -> Fgd.bestShareDevice(m, n, cpu, d);
  }

  /** GapFill: the device of lowest expected waste, ties to FGD's choice ({@link GpuGapFillPlugin#bestDevice}). */
  static SharePicker gapFill(GpuWorkload m, GapWaste waste) {
    return (n, cpu, d, podKey) -> GpuGapFillPlugin.bestDevice(m, waste, n, cpu, d);
  }

  static SharePicker random(long seed) {
    return (n, cpu, d, podKey) -> {
      int fit = 0;
      for (int g = 0; g < n.devices(); g++) {
        if (n.free()[g] >= d.milli() && d.accepts(n.models().get(g))) {
          fit++;
        }
      }
      if (fit == 0) {
        return -1;
      }
      int k = (int) Math.floorMod(GpuPolicies.mix(seed, podKey.hashCode(), 0x5EED), (long) fit);
      for (int g = 0; g < n.devices(); g++) {
        if (n.free()[g] >= d.milli() && d.accepts(n.models().get(g)) && k-- == 0) {
          return g;
        }
      }
      return -1;
    };
  }
}
