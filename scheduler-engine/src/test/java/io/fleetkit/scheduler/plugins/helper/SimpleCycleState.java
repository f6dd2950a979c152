package io.fleetkit.scheduler.plugins.helper;

import io.fleetkit.api.framework.CycleState;
import io.fleetkit.api.framework.StateKey;
import java.util.HashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/** Test-only {@link CycleState} backed by a HashMap (single-threaded plugin tests need no engine). */
public final class SimpleCycleState implements CycleState {
  private final Map<StateKey<?>, Object> values;

  public SimpleCycleState() {
    this(new HashMap<>());
  }

  private SimpleCycleState(Map<StateKey<?>, Object> values) {
    this.values = values;
  }

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
    return new SimpleCycleState(new HashMap<>(values));
  }

  @Override
  public boolean isPreemptionDryRun() {
    return false;
  }

  /** How many keys were written (lets tests check that a skipped plugin wrote nothing). */
  public int size() {
    return values.size();
  }
}
