package io.fleetkit.scheduler.plugins.interpodaffinity;

import io.fleetkit.api.framework.CycleState;
import io.fleetkit.api.framework.StateKey;
import java.util.HashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/** A test-only, HashMap-backed {@link CycleState}. */
final class TestCycleState implements CycleState {
  private final Map<StateKey<?>, Object> values;

  TestCycleState() {
    this(new HashMap<>());
  }

  private TestCycleState(Map<StateKey<?>, Object> values) {
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
    return new TestCycleState(new HashMap<>(values));
  }

  @Override
  public boolean isPreemptionDryRun() {
    return false;
  }
}
