package io.fleetkit.storage.scheduling;

import io.fleetkit.api.framework.CycleState;
import io.fleetkit.api.framework.StateKey;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/** A plain cycle state for calling plugins directly. */
final class MapCycleState implements CycleState {
  private final Map<StateKey<?>, Object> values = new ConcurrentHashMap<>();

  @Override
  public <T> void write(StateKey<T> key, T value) {
    values.put(key, value);
  }

  @Override
  public <T> @Nullable T read(StateKey<T> key) {
    return key.type().cast(values.get(key));
  }

  @Override
  public CycleState copy() {
    MapCycleState c = new MapCycleState();
    c.values.putAll(values);
    return c;
  }

  @Override
  public boolean isPreemptionDryRun() {
    return false;
  }
}
