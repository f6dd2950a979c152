package io.fleetkit.scheduler.gpu.trace;

import java.util.Random;

/**
 * FleetKit's policy: FGD's fragmentation gradient at a finer resolution. FGD truncates 100·sigmoid(Δ/1000) to an
 * integer, so many nodes tie and the random node order decides; here the score keeps the exact gradient (in
 * hundredths of a milli-GPU), and among equal gradients prefers the node left with the least free GPU (packing).
 */
final class FgdPackPolicy extends FgdPolicy {
  FgdPackPolicy(Cluster c, Random rng, FragLedger frag, int shapes) {
    super(c, rng, frag, shapes);
  }

  @Override
  long value(double delta, long cpuAfter, int[] left, int gpu, SimPod p) {
    long d = Math.round(delta * 100);
    int free = 0;
    for (int v : left) {
      free += v;
    }
    free -= (int) p.gpuTotal();
    return d * 16_384 + (8_191 - Math.min(free, 8_191));
  }
}
