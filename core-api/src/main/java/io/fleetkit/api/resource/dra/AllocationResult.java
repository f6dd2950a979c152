package io.fleetkit.api.resource.dra;

import io.fleetkit.api.scheduling.NodeSelector;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The outcome of allocating a claim ({@code AllocationResult}): the devices, and the nodes that can reach them.
 *
 * @param devices the allocated devices ({@code devices.results}), at most 32
 * @param nodeSelector the nodes a pod using the claim may run on; {@code null} when every node can
 */
public record AllocationResult(List<DeviceRequestAllocationResult> devices, @Nullable NodeSelector nodeSelector) {
  /** Kubernetes' {@code AllocationResultsMaxSize}. */
  public static final int MAX_RESULTS = 32;

  public AllocationResult {
    devices = List.copyOf(devices);
  }
}
