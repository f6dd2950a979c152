package io.fleetkit.api.resource.dra;

import io.fleetkit.api.resource.Quantity;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One device in a {@link ResourceSlice} ({@code Device}): its name, attributes, capacity and taints. Attribute and
 * capacity names are qualified names: {@code name} (in the driver's domain) or {@code domain/name}.
 *
 * @param name the device name, a DNS label unique in its pool
 * @param attributes attributes by qualified name
 * @param capacity capacities by qualified name ({@code DeviceCapacity.value})
 * @param taints the driver's taints on the device, at most 16; a request must tolerate those with effect
 *     NoSchedule or NoExecute to get the device
 */
public record Device(String name, Map<String, DeviceAttribute> attributes, Map<String, Quantity> capacity,
    List<DeviceTaint> taints) {
  public Device {
    Objects.requireNonNull(name, "name");
    attributes = Map.copyOf(attributes);
    capacity = Map.copyOf(capacity);
    taints = List.copyOf(taints);
  }

  /** A device without taints. */
  public Device(String name, Map<String, DeviceAttribute> attributes, Map<String, Quantity> capacity) {
    this(name, attributes, capacity, List.of());
  }

  /** This device with more taints. */
  public Device withTaints(DeviceTaint... more) {
    List<DeviceTaint> all = new ArrayList<>(taints);
    all.addAll(List.of(more));
    return new Device(name, attributes, capacity, all);
  }

  /** A device without attributes or capacity. */
  public static Device of(String name) {
    return new Device(name, Map.of(), Map.of());
  }

  public static Builder builder(String name) {
    return new Builder(name);
  }

  /** Builds a {@link Device}; attributes and capacities are added one at a time. Not thread-safe. */
  public static final class Builder {
    private final String name;
    private final Map<String, DeviceAttribute> attributes = new LinkedHashMap<>();
    private final Map<String, Quantity> capacity = new LinkedHashMap<>();
    private final List<DeviceTaint> taints = new ArrayList<>();

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

    public Device build() {
      return new Device(name, attributes, capacity, taints);
    }
  }
}
