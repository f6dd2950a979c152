package io.fleetkit.api.resource.dra;

import io.fleetkit.api.resource.Quantity;
import java.util.Map;
import java.util.Objects;

/**
 * A named set of counters a {@link ResourceSlice} shares among the devices of its pool ({@code CounterSet}, an entry
 * of {@code sharedCounters}): partitionable devices consume from it ({@link DeviceCounterConsumption}), and the
 * allocator never lets the devices allocated from a set consume more than it holds.
 *
 * @param name a DNS label, unique in the pool
 * @param counters the amounts by counter name (DNS labels), at least one and at most 32
 */
public record CounterSet(String name, Map<String, Quantity> counters) {
  /** Kubernetes' {@code ResourceSliceMaxCounterSets}: counter sets per slice. */
  public static final int MAX_PER_SLICE = 8;
  /** Kubernetes' {@code ResourceSliceMaxCountersPerCounterSet}. */
  public static final int MAX_COUNTERS = 32;

  public CounterSet {
    Objects.requireNonNull(name, "name");
    counters = Map.copyOf(counters);
  }
}
