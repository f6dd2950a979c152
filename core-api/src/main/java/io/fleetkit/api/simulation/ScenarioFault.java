package io.fleetkit.api.simulation;

import java.time.Duration;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A fault injected {@code at} after the start; it heals {@code recoverAfter} later, or never when {@code null}.
 *
 * @param target a node name ({@link FaultType#NodeFailure}, {@link FaultType#GpuDeviceFault}, {@link
 *     FaultType#KubeletRestart}), a zone ({@link FaultType#ZoneFailure}), a NodePool name
 *     ({@link FaultType#CapacityStockout}, {@link FaultType#SpotInterruption}), or {@code ""}
 *     ({@link FaultType#ApiSlowness})
 * @param devices how many GPUs fail ({@link FaultType#GpuDeviceFault}: {@code nvidia.com/gpu} devices, or on a node
 *     without them its Dynamic Resource Allocation devices; 0 for the other types)
 * @param latency how late the API answers ({@link FaultType#ApiSlowness}; {@code null} for the other types)
 * @param zone the one zone a {@link FaultType#CapacityStockout} is in, or {@code null} for every zone (and for the
 *     other types)
 * @param nodes how many of the pool's nodes a {@link FaultType#SpotInterruption} takes back (0 for the other types)
 * @param notice how long before its machines go a {@link FaultType#SpotInterruption} warns ({@code null} for the
 *     other types)
 */
public record ScenarioFault(Duration at, FaultType type, String target, @Nullable Duration recoverAfter,
    int devices, @Nullable Duration latency, @Nullable String zone, int nodes, @Nullable Duration notice) {
  /** How long before its machines go a spot interruption warns by default: AWS's two-minute interruption notice. */
  public static final Duration DEFAULT_SPOT_NOTICE = Duration.ofMinutes(2);

  public ScenarioFault {
    Objects.requireNonNull(at, "at");
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(target, "target");
  }

  /** A fault with neither nodes nor notice. */
  public ScenarioFault(Duration at, FaultType type, String target, @Nullable Duration recoverAfter,
      int devices, @Nullable Duration latency, @Nullable String zone) {
    this(at, type, target, recoverAfter, devices, latency, zone, 0, null);
  }

  /** A fault with neither devices, latency nor zone. */
  public ScenarioFault(Duration at, FaultType type, String target, @Nullable Duration recoverAfter,
      int devices, @Nullable Duration latency) {
    this(at, type, target, recoverAfter, devices, latency, null);
  }

  /** A node or zone failure. */
  public ScenarioFault(Duration at, FaultType type, String target, @Nullable Duration recoverAfter) {
    this(at, type, target, recoverAfter, 0, null, null);
  }

  /**
   * From {@code at} on, no machine of NodePool {@code pool} can be created in {@code zone} ({@code null}: in any
   * zone).
   */
  public static ScenarioFault capacityStockout(Duration at, String pool, @Nullable String zone,
      @Nullable Duration recoverAfter) {
    return new ScenarioFault(at, FaultType.CapacityStockout, pool, recoverAfter, 0, null, zone);
  }

  /**
   * At {@code at}, the cloud warns that it takes back {@code nodes} spot machines of NodePool {@code pool}; they go
   * {@code notice} later.
   */
  public static ScenarioFault spotInterruption(Duration at, String pool, int nodes, Duration notice) {
    return new ScenarioFault(at, FaultType.SpotInterruption, pool, null, 0, null, null, nodes,
        Objects.requireNonNull(notice, "notice"));
  }

  /** {@code devices} GPUs of node {@code node} turn unhealthy. */
  public static ScenarioFault gpuDeviceFault(Duration at, String node, int devices, @Nullable Duration recoverAfter) {
    return new ScenarioFault(at, FaultType.GpuDeviceFault, node, recoverAfter, devices, null);
  }

  /** The API answers {@code latency} late from {@code at} on. */
  public static ScenarioFault apiSlowness(Duration at, Duration latency, @Nullable Duration recoverAfter) {
    return new ScenarioFault(at, FaultType.ApiSlowness, "", recoverAfter, 0, Objects.requireNonNull(latency,
        "latency"));
  }
}
