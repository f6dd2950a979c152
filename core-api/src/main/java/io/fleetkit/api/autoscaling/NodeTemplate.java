package io.fleetkit.api.autoscaling;

import io.fleetkit.api.core.GpuDevice;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.scheduling.Taint;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What every node of a pool looks like. As for nodes, an empty {@code allocatable} becomes {@code capacity}.
 */
public record NodeTemplate(Map<String, String> labels, List<Taint> taints, ResourceList capacity,
    ResourceList allocatable, List<GpuDevice> gpus) {
  public NodeTemplate {
    labels = Map.copyOf(labels);
    taints = List.copyOf(taints);
    Objects.requireNonNull(capacity, "capacity");
    Objects.requireNonNull(allocatable, "allocatable");
    if (allocatable.isEmpty()) {
      allocatable = capacity;
    }
    gpus = List.copyOf(gpus);
  }

  public static NodeTemplate of(Map<String, String> labels, ResourceList capacity) {
    return new NodeTemplate(labels, List.of(), capacity, ResourceList.EMPTY, List.of());
  }

  /**
   * A node named {@code name} built from this template, with {@code Ready=True}. {@code providerID} is empty
   * when the node has no provider identity.
   */
  public Node toNode(String name, String providerID) {
    return Node.builder().name(name).labels(labels).taints(taints).providerID(providerID).capacity(capacity)
        .allocatable(allocatable).gpus(gpus).ready().build();
  }
}
