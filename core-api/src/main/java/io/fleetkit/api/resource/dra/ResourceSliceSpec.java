package io.fleetkit.api.resource.dra;

import io.fleetkit.api.scheduling.NodeSelector;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What a {@link ResourceSlice} publishes ({@code ResourceSliceSpec}): the driver, the pool, which nodes can reach
 * the devices (exactly one of {@code nodeName}, {@code nodeSelector} and {@code allNodes}), and the devices.
 *
 * @param driver the driver name, a DNS subdomain of at most 63 characters
 * @param pool the pool this slice belongs to
 * @param nodeName the one node the devices are local to, or {@code null}
 * @param nodeSelector the nodes that can reach the devices, or {@code null}
 * @param allNodes whether every node can reach the devices
 * @param devices the devices, at most 128
 */
public record ResourceSliceSpec(String driver, ResourcePool pool, @Nullable String nodeName,
    @Nullable NodeSelector nodeSelector, boolean allNodes, List<Device> devices) {
  public ResourceSliceSpec {
    Objects.requireNonNull(driver, "driver");
    Objects.requireNonNull(pool, "pool");
    devices = List.copyOf(devices);
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
    private final List<Device> devices = new ArrayList<>();

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

    public Builder device(Device d) {
      devices.add(Objects.requireNonNull(d, "device"));
      return this;
    }

    public Builder devices(List<Device> ds) {
      ds.forEach(this::device);
      return this;
    }

    public ResourceSliceSpec build() {
      return new ResourceSliceSpec(driver, pool, nodeName, nodeSelector, allNodes, devices);
    }
  }
}
