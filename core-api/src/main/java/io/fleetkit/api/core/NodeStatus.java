package io.fleetkit.api.core;

import io.fleetkit.api.resource.ResourceList;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The observed part of a node. As Kubernetes defaults it, an empty {@code allocatable} becomes {@code capacity}.
 *
 * @param gpus the node's GPU devices, for GPU-aware placement; empty when none or unknown
 */
public record NodeStatus(ResourceList capacity, ResourceList allocatable, List<NodeCondition> conditions,
    List<GpuDevice> gpus, List<NodeAddress> addresses) {
  public static final NodeStatus EMPTY =
      new NodeStatus(ResourceList.EMPTY, ResourceList.EMPTY, List.of(), List.of(), List.of());

  public NodeStatus {
    Objects.requireNonNull(capacity, "capacity");
    Objects.requireNonNull(allocatable, "allocatable");
    if (allocatable.isEmpty()) {
      allocatable = capacity;
    }
    conditions = List.copyOf(conditions);
    gpus = List.copyOf(gpus);
    addresses = List.copyOf(addresses);
  }

  /** The condition of that type, or {@code null}. */
  public @Nullable NodeCondition condition(String type) {
    for (int i = 0; i < conditions.size(); i++) { // by index: no iterator per lookup (read per pod event)
      NodeCondition c = conditions.get(i);
      if (c.type().equals(type)) {
        return c;
      }
    }
    return null;
  }

  public NodeStatus withConditions(List<NodeCondition> newConditions) {
    return new NodeStatus(capacity, allocatable, newConditions, gpus, addresses);
  }

  public NodeStatus withAllocatable(ResourceList newAllocatable) {
    return new NodeStatus(capacity, newAllocatable, conditions, gpus, addresses);
  }
}
