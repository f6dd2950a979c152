package io.fleetkit.api.resource.dra;

import io.fleetkit.api.scheduling.NodeSelector;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What a {@link ResourceSlice} publishes ({@code ResourceSliceSpec}): the driver, the pool, which nodes can reach
 * the devices (exactly one of {@code nodeName}, {@code nodeSelector}, {@code allNodes} and
 * {@code perDeviceNodeSelection}), and either the devices or the counter sets the pool's partitionable devices share.
 *
 * @param driver the driver name, a DNS subdomain of at most 63 characters
 * @param pool the pool this slice belongs to
 * @param nodeName the one node the devices are local to, or {@code null}
 * @param nodeSelector the nodes that can reach the devices, or {@code null}
 * @param allNodes whether every node can reach the devices
 * @param devices the devices, at most 128 (64 when one has taints or consumes counters)
 * @param perDeviceNodeSelection whether each device says which nodes can reach it
 * @param sharedCounters the pool's counter sets this slice publishes (at most 8; a slice has these or devices)
 */
public record ResourceSliceSpec(String driver, ResourcePool pool, @Nullable String nodeName,
    @Nullable NodeSelector nodeSelector, boolean allNodes, List<Device> devices, boolean perDeviceNodeSelection,
    List<CounterSet> sharedCounters) {
  public ResourceSliceSpec {
    Objects.requireNonNull(driver, "driver");
    Objects.requireNonNull(pool, "pool");
    devices = List.copyOf(devices);
    sharedCounters = List.copyOf(sharedCounters);
  }

  /** A slice of devices without per-device node selection or counter sets. */
  public ResourceSliceSpec(String driver, ResourcePool pool, @Nullable String nodeName,
      @Nullable NodeSelector nodeSelector, boolean allNodes, List<Device> devices) {
    this(driver, pool, nodeName, nodeSelector, allNodes, devices, false, List.of());
  }

  public static Builder builder(String driver, ResourcePool pool) {
    return new Builder(driver, pool);
  }

  /** Builds a {@link ResourceSliceSpec}. Not thread-safe. */
  public static final class Builder {
    private final String driver;
    private final ResourcePool pool;
    private @Nullable String nodeName;
    private @Nullable NodeSelector nodeSelector;
    private boolean allNodes;
    private boolean perDeviceNodeSelection;
    private final List<Device> devices = new ArrayList<>();
    private final List<CounterSet> sharedCounters = new ArrayList<>();

    private Builder(String driver, ResourcePool pool) {
      this.driver = driver;
      this.pool = pool;
    }

    /** @throws IllegalStateException when already set */
    public Builder nodeName(String v) {
      if (nodeName != null) {
        throw new IllegalStateException("resource slice: nodeName already set to " + nodeName);
      }
      nodeName = Objects.requireNonNull(v, "nodeName");
      return this;
    }

    /** @throws IllegalStateException when already set */
    public Builder nodeSelector(NodeSelector v) {
      if (nodeSelector != null) {
        throw new IllegalStateException("resource slice: nodeSelector already set to " + nodeSelector);
      }
      nodeSelector = Objects.requireNonNull(v, "nodeSelector");
      return this;
    }

    public Builder allNodes() {
      allNodes = true;
      return this;
    }

    /** Each device says which nodes can reach it ({@code perDeviceNodeSelection: true}). */
    public Builder perDeviceNodeSelection() {
      perDeviceNodeSelection = true;
      return this;
    }

    public Builder counterSet(CounterSet c) {
      sharedCounters.add(Objects.requireNonNull(c, "counterSet"));
      return this;
    }

    public Builder device(Device d) {
      devices.add(Objects.requireNonNull(d, "device"));
      return this;
    }

    public Builder devices(List<Device> ds) {
      ds.forEach(this::device);
      return this;
    }

    public ResourceSliceSpec build() {
      return new ResourceSliceSpec(driver, pool, nodeName, nodeSelector, allNodes, devices, perDeviceNodeSelection,
          sharedCounters);
    }
  }
}
