package io.fleetkit.api.autoscaling;

import io.fleetkit.api.core.GpuDevice;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.resource.dra.ResourceSlice;
import io.fleetkit.api.scheduling.Taint;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What every node of a pool looks like. As for nodes, an empty {@code allocatable} becomes {@code capacity}.
 *
 * @param resourceSlices the DRA devices every node of the pool has, one node-local ResourceSlice per template
 *     ({@link ResourceSliceTemplate#sliceFor}), published by the node's DRA drivers once they run
 */
public record NodeTemplate(Map<String, String> labels, List<Taint> taints, ResourceList capacity,
    ResourceList allocatable, List<GpuDevice> gpus, List<ResourceSliceTemplate> resourceSlices) {
  public NodeTemplate {
    labels = Map.copyOf(labels);
    taints = List.copyOf(taints);
    Objects.requireNonNull(capacity, "capacity");
    Objects.requireNonNull(allocatable, "allocatable");
    if (allocatable.isEmpty()) {
      allocatable = capacity;
    }
    gpus = List.copyOf(gpus);
    resourceSlices = List.copyOf(resourceSlices);
  }

  /** A template without DRA devices. */
  public NodeTemplate(Map<String, String> labels, List<Taint> taints, ResourceList capacity,
      ResourceList allocatable, List<GpuDevice> gpus) {
    this(labels, taints, capacity, allocatable, gpus, List.of());
  }

  public static NodeTemplate of(Map<String, String> labels, ResourceList capacity) {
    return new NodeTemplate(labels, List.of(), capacity, ResourceList.EMPTY, List.of());
  }

  /** This template with the DRA devices of {@code v} instead of its own. */
  public NodeTemplate withResourceSlices(List<ResourceSliceTemplate> v) {
    return new NodeTemplate(labels, taints, capacity, allocatable, gpus, v);
  }

  /**
   * The ResourceSlices of node {@code nodeName} of the pool, one per {@link #resourceSlices()} template, in order
   * ({@link ResourceSliceTemplate#sliceFor}); empty when the template has no DRA devices.
   *
   * @throws io.fleetkit.api.ValidationException if a slice breaks a rule of {@link ResourceSlice} (a node name so
   *     long that the pool name is too long)
   */
  public List<ResourceSlice> resourceSlicesFor(String nodeName) {
    return ResourceSliceTemplate.slicesFor(resourceSlices, nodeName);
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
