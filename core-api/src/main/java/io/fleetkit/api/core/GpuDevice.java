package io.fleetkit.api.core;

import java.util.Objects;

/**
 * One GPU of a node, for GPU-aware placement (fragmentation, NUMA and interconnect locality).
 *
 * @param id unique on the node, e.g. {@code GPU-0} or a UUID
 * @param model e.g. {@code A100-SXM4-80GB}
 * @param memoryMiB device memory in MiB
 * @param numaNode the NUMA node it hangs off, or -1 when unknown
 * @param interconnectGroup devices sharing a fast interconnect (NVLink island) share this; empty when none
 */
public record GpuDevice(String id, String model, long memoryMiB, int numaNode, String interconnectGroup) {
  public GpuDevice {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(model, "model");
    Objects.requireNonNull(interconnectGroup, "interconnectGroup");
  }

  public static GpuDevice of(String id, String model, long memoryMiB) {
    return new GpuDevice(id, model, memoryMiB, -1, "");
  }
}
