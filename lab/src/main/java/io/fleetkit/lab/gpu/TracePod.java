package io.fleetkit.lab.gpu;

import java.util.List;
import java.util.Objects;

/**
 * One pod of the trace. {@code numGpu} devices of {@code gpuMilli} thousandths each: a share when
 * {@code numGpu == 1 && gpuMilli < 1000}, whole devices when {@code gpuMilli == 1000}, CPU-only when
 * {@code numGpu == 0}.
 *
 * @param models the accepted GPU models ({@code gpu_spec}); empty means any
 */
public record TracePod(String name, long milliCpu, long memoryMiB, int numGpu, int gpuMilli, List<String> models) {
  public TracePod {
    Objects.requireNonNull(name, "name");
    models = List.copyOf(models);
    if (milliCpu < 0 || memoryMiB < 0 || numGpu < 0 || gpuMilli < 0 || gpuMilli > 1000) {
      throw new IllegalArgumentException("trace pod " + name + ": cpu, memory, num_gpu must not be negative and"
          + " gpu_milli must be in [0, 1000], got " + milliCpu + ", " + memoryMiB + ", " + numGpu + ", " + gpuMilli);
    }
  }

  /** GPU demand in thousandths: {@code numGpu * gpuMilli}. */
  public long totalGpuMilli() {
    return (long) numGpu * gpuMilli;
  }

  /** This pod under another name (the tuning step's clones). */
  public TracePod renamed(String newName) {
    return new TracePod(newName, milliCpu, memoryMiB, numGpu, gpuMilli, models);
  }
}
