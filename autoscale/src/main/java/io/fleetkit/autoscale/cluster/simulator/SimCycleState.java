package io.fleetkit.autoscale.cluster.simulator;

import io.fleetkit.api.framework.CycleState;
import io.fleetkit.api.framework.StateKey;
import java.util.HashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/** A map-backed {@link CycleState} for one simulated placement check; used by one thread. */
final class SimCycleState implements CycleState {
  private final Map<StateKey<?>, Object> values;

  SimCycleState() {
    this(new HashMap<>());
  }

  private SimCycleState(Map<StateKey<?>, Object> values) {
    this.values = values;
  }

  @Override
  public <T> void write(StateKey<T> key, T value) {
    values.put(key, key.type().cast(value));
  }

  @Override
  public <T> @Nullable T read(StateKey<T> key) {
    Object v = values.get(key);
    return v == null ? null : key.type().cast(v);
  }

  @Override
  public CycleState copy() {
    return new SimCycleState(new HashMap<>(values));
  }

  @Override
  public boolean isPreemptionDryRun() {
    return false;
  }
}
