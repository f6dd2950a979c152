package io.fleetkit.scheduler.plugins.gpu;

import java.util.Objects;

/**
 * The pod a {@link GpuScorer} places: a key unique among the pods of one run (seeds per-pod randomness), its CPU as
 * the policies count it (kube's non-zero request: 100 millicores when none is set) and its GPU demand. Immutable.
 *
 * @param key the pod's key, e.g. {@code namespace/name}
 * @param milliCpu CPU in millicores, not negative
 * @param demand the GPU demand
 */
public record GpuPod(String key, long milliCpu, GpuDemand demand) {
  /**
   * @throws IllegalArgumentException when {@code milliCpu} is negative
   */
  public GpuPod {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(demand, "demand");
    if (milliCpu < 0) {
      throw new IllegalArgumentException("GPU pod " + key + ": milliCpu must not be negative, got " + milliCpu);
    }
  }
}
