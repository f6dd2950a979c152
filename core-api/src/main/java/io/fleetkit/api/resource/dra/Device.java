package io.fleetkit.api.resource.dra;

import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.scheduling.NodeSelector;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One device in a {@link ResourceSlice} ({@code Device}): its name, attributes, capacity and taints, what it consumes
 * from its pool's shared counters when it is a partition of a larger device, and, in a slice with
 * {@code perDeviceNodeSelection}, the nodes that can reach it. Attribute and capacity names are qualified names:
 * {@code name} (in the driver's domain) or {@code domain/name}. Build with {@link #of}, the constructors or
 * {@link #builder}.
 *
 * @param name the device name, a DNS label unique in its pool
 * @param attributes attributes by qualified name
 * @param capacity capacities by qualified name ({@code DeviceCapacity.value})
 * @param taints the driver's taints on the device, at most 16; a request must tolerate those with effect
 *     NoSchedule or NoExecute to get the device
 * @param consumesCounters what the device consumes from its pool's counter sets, at most 2 sets
 * @param nodeName with per-device node selection: the one node the device is local to, or {@code null}
 * @param nodeSelector with per-device node selection: the nodes that can reach the device, or {@code null}
 * @param allNodes with per-device node selection: whether every node can reach the device
 */
public record Device(String name, Map<String, DeviceAttribute> attributes, Map<String, Quantity> capacity,
    List<DeviceTaint> taints, List<DeviceCounterConsumption> consumesCounters, @Nullable String nodeName,
    @Nullable NodeSelector nodeSelector, boolean allNodes) {
  public Device {
    Objects.requireNonNull(name, "name");
    attributes = Map.copyOf(attributes);
    capacity = Map.copyOf(capacity);
    taints = List.copyOf(taints);
    consumesCounters = List.copyOf(consumesCounters);
  }

  /** A device without counters or its own node selection. */
  public Device(String name, Map<String, DeviceAttribute> attributes, Map<String, Quantity> capacity,
      List<DeviceTaint> taints) {
    this(name, attributes, capacity, taints, List.of(), null, null, false);
  }

  /** A device without taints, counters or its own node selection. */
  public Device(String name, Map<String, DeviceAttribute> attributes, Map<String, Quantity> capacity) {
    this(name, attributes, capacity, List.of(), List.of(), null, null, false);
  }

  /** A device without attributes or capacity. */
  public static Device of(String name) {
    return new Device(name, Map.of(), Map.of());
  }

  /** This device with more taints. */
  public Device withTaints(DeviceTaint... more) {
    List<DeviceTaint> all = new ArrayList<>(taints);
    all.addAll(List.of(more));
    return new Device(name, attributes, capacity, all, consumesCounters, nodeName, nodeSelector, allNodes);
  }

  /** This device consuming more counters. */
  public Device withConsumesCounters(DeviceCounterConsumption... more) {
    List<DeviceCounterConsumption> all = new ArrayList<>(consumesCounters);
    all.addAll(List.of(more));
    return new Device(name, attributes, capacity, taints, all, nodeName, nodeSelector, allNodes);
  }

  /** Whether any of the device's own node selection fields is set. */
  public boolean hasNodeSelection() {
    return nodeName != null || nodeSelector != null || allNodes;
  }

  public static Builder builder(String name) {
    return new Builder(name);
  }

  /** Builds a {@link Device}; attributes, capacities, taints and counters are added one at a time. Not thread-safe. */
  public static final class Builder {
    private final String name;
    private final Map<String, DeviceAttribute> attributes = new LinkedHashMap<>();
    private final Map<String, Quantity> capacity = new LinkedHashMap<>();
    private final List<DeviceTaint> taints = new ArrayList<>();
    private final List<DeviceCounterConsumption> consumesCounters = new ArrayList<>();
    private @Nullable String nodeName;
    private @Nullable NodeSelector nodeSelector;
    private boolean allNodes;

    private Builder(String name) {
      this.name = name;
    }

    /** @throws IllegalStateException when {@code name} is already set */
    public Builder attribute(String name, DeviceAttribute value) {
      DeviceAttribute old = attributes.putIfAbsent(name, value);
      if (old != null) {
        throw new IllegalStateException("device " + this.name + ": attribute " + name + " already set to " + old);
      }
      return this;
    }

    /** @throws IllegalStateException when {@code name} is already set */
    public Builder capacity(String name, Quantity value) {
      Quantity old = capacity.putIfAbsent(name, value);
      if (old != null) {
        throw new IllegalStateException("device " + this.name + ": capacity " + name + " already set to " + old);
      }
      return this;
    }

    public Builder taint(DeviceTaint t) {
      taints.add(Objects.requireNonNull(t, "taint"));
      return this;
    }

    public Builder consumesCounters(DeviceCounterConsumption c) {
      consumesCounters.add(Objects.requireNonNull(c, "consumesCounters"));
      return this;
    }

    /** @throws IllegalStateException when already set */
    public Builder nodeName(String v) {
      if (nodeName != null) {
        throw new IllegalStateException("device " + name + ": nodeName already set to " + nodeName);
      }
      nodeName = Objects.requireNonNull(v, "nodeName");
      return this;
    }

    /** @throws IllegalStateException when already set */
    public Builder nodeSelector(NodeSelector v) {
      if (nodeSelector != null) {
        throw new IllegalStateException("device " + name + ": nodeSelector already set to " + nodeSelector);
      }
      nodeSelector = Objects.requireNonNull(v, "nodeSelector");
      return this;
    }

    public Builder allNodes() {
      allNodes = true;
      return this;
    }

    public Device build() {
      return new Device(name, attributes, capacity, taints, consumesCounters, nodeName, nodeSelector, allNodes);
    }
  }
}
