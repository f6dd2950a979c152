package io.fleetkit.api.core;

import io.fleetkit.api.resource.ResourceList;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The observed part of a node. As Kubernetes defaults it, an empty {@code allocatable} becomes {@code capacity}.
 *
 * @param gpus the node's GPU devices, for GPU-aware placement; empty when none or unknown
 * @param images the container images present on the node ({@code status.images}), read by the scheduler's
 *     ImageLocality score; empty when none or unknown. {@code null} (an encoding written before the component
 *     existed, such as the store's JSON) becomes empty.
 */
public record NodeStatus(ResourceList capacity, ResourceList allocatable, List<NodeCondition> conditions,
    List<GpuDevice> gpus, List<NodeAddress> addresses, List<ContainerImage> images) {
  public static final NodeStatus EMPTY =
      new NodeStatus(ResourceList.EMPTY, ResourceList.EMPTY, List.of(), List.of(), List.of(), List.of());

  public NodeStatus {
    Objects.requireNonNull(capacity, "capacity");
    Objects.requireNonNull(allocatable, "allocatable");
    if (allocatable.isEmpty()) {
      allocatable = capacity;
    }
    conditions = List.copyOf(conditions);
    gpus = List.copyOf(gpus);
    addresses = List.copyOf(addresses);
    images = images == null ? List.of() : List.copyOf(images);
  }

  /** A status without images. */
  public NodeStatus(ResourceList capacity, ResourceList allocatable, List<NodeCondition> conditions,
      List<GpuDevice> gpus, List<NodeAddress> addresses) {
    this(capacity, allocatable, conditions, gpus, addresses, List.of());
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
    return new NodeStatus(capacity, allocatable, newConditions, gpus, addresses, images);
  }

  public NodeStatus withAllocatable(ResourceList newAllocatable) {
    return new NodeStatus(capacity, newAllocatable, conditions, gpus, addresses, images);
  }

  public NodeStatus withImages(List<ContainerImage> newImages) {
    return new NodeStatus(capacity, allocatable, conditions, gpus, addresses, newImages);
  }
}
