package io.fleetkit.scheduler.testing;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceList;

/** Builders for test nodes and pods. */
public final class Fixtures {
  private Fixtures() {}

  /** A ready node with {@code milliCpu}, {@code memMi} MiB and {@code pods} pods allocatable. */
  public static Node node(String name, long milliCpu, long memMi, long pods) {
    ResourceList cap = ResourceList.builder()
        .put("cpu", Quantity.ofMilli(milliCpu))
        .put("memory", Quantity.ofBytes(memMi * 1024 * 1024))
        .put("pods", Quantity.of(pods))
        .build();
    return Node.builder().name(name).capacity(cap).ready().build();
  }

  /** A pending pod in namespace {@code default} requesting {@code milliCpu} and {@code memMi} MiB. */
  public static Pod pod(String name, long milliCpu, long memMi) {
    return Pod.builder().name(name)
        .container("app", "pause", ResourceList.ofCpuMemory(milliCpu, memMi * 1024 * 1024)).build();
  }

  public static Pod pod(String name, long milliCpu, long memMi, int priority) {
    return pod(name, milliCpu, memMi).toBuilder().priority(priority).build();
  }
}
