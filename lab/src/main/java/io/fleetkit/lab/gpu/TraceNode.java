package io.fleetkit.lab.gpu;

import java.util.Objects;

/**
 * One node of the trace: {@code gpus} devices of one {@code model} (0 and empty for CPU-only nodes).
 *
 * @param name the node's serial ({@code sn})
 */
public record TraceNode(String name, long milliCpu, long memoryMiB, int gpus, String model) {
  public TraceNode {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(model, "model");
    if (milliCpu < 0 || memoryMiB < 0 || gpus < 0) {
      throw new IllegalArgumentException("trace node " + name + ": cpu, memory and gpu must not be negative, got "
          + milliCpu + ", " + memoryMiB + ", " + gpus);
    }
  }
}
