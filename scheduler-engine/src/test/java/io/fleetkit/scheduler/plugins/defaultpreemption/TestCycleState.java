package io.fleetkit.scheduler.plugins.defaultpreemption;

import io.fleetkit.api.framework.CycleState;
import io.fleetkit.api.framework.StateKey;
import java.util.HashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/** A map-backed cycle state for tests. */
final class TestCycleState implements CycleState {
  private final Map<StateKey<?>, Object> values;
  private final boolean dryRun;

  TestCycleState() {
    this(new HashMap<>(), false);
  }

  private TestCycleState(Map<StateKey<?>, Object> values, boolean dryRun) {
    this.values = values;
    this.dryRun = dryRun;
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
    return new TestCycleState(new HashMap<>(values), true);
  }

  @Override
  public boolean isPreemptionDryRun() {
    return dryRun;
  }
}
