package io.fleetkit.api.resource.dra;

import io.fleetkit.api.resource.Quantity;
import java.util.Map;
import java.util.Objects;

/**
 * What a partitionable device takes from one of its pool's {@link CounterSet}s when it is allocated
 * ({@code DeviceCounterConsumption}, an entry of a device's {@code consumesCounters}).
 *
 * @param counterSet the name of a counter set of the device's pool
 * @param counters the amounts by counter name, each a counter of that set; at least one and at most 32
 */
public record DeviceCounterConsumption(String counterSet, Map<String, Quantity> counters) {
  /** Kubernetes' {@code ResourceSliceMaxDeviceCounterConsumptionsPerDevice}: counter sets a device consumes from. */
  public static final int MAX_PER_DEVICE = 2;
  /** Kubernetes' {@code ResourceSliceMaxCountersPerDeviceCounterConsumption}. */
  public static final int MAX_COUNTERS = 32;

  public DeviceCounterConsumption {
    Objects.requireNonNull(counterSet, "counterSet");
    counters = Map.copyOf(counters);
  }
}
