package io.fleetkit.autoscale.cluster.simulator;

import io.fleetkit.api.framework.CycleState;
import io.fleetkit.api.framework.StateKey;
import java.util.Arrays;
import org.jspecify.annotations.Nullable;

/**
 * An array-backed {@link CycleState} for one simulated placement check, indexed by {@link StateKey#index()}; used by
 * one thread.
 */
final class SimCycleState implements CycleState {
  /** The largest array any state needed so far: new states start with it, so that writes do not grow them. */
  private static volatile int sizeHint = 1;
  private @Nullable Object[] values;
  /** Whether PreFilter is done with this state, and whether it was written since (see {@link #freeze}). */
  private boolean frozen;
  private boolean writtenSinceFrozen;

  SimCycleState() {
    this(new Object[sizeHint]);
  }

  private SimCycleState(@Nullable Object[] values) {
    this.values = values;
  }

  @Override
  public <T> void write(StateKey<T> key, T value) {
    Object v = key.type().cast(value);
    if (frozen) {
      writtenSinceFrozen = true;
    }
    int i = key.index();
    if (i >= values.length) {
      values = Arrays.copyOf(values, i + 1);
      if (i + 1 > sizeHint) {
        sizeHint = i + 1;
      }
    }
    values[i] = v;
  }

  @Override
  @SuppressWarnings("unchecked")
  public <T> @Nullable T read(StateKey<T> key) {
    int i = key.index();
    @Nullable Object[] v = values;
    return i < v.length ? (T) v[i] : null; // write checked the type
  }

  /** Marks the end of PreFilter: a later {@link #write} is recorded ({@link #writtenSinceFrozen}). */
  void freeze() {
    frozen = true;
  }

  /** Whether {@link #write} was called after {@link #freeze}. */
  boolean writtenSinceFrozen() {
    return writtenSinceFrozen;
  }

  @Override
  public CycleState copy() {
    return new SimCycleState(values.clone());
  }

  @Override
  public boolean isPreemptionDryRun() {
    return false;
  }
}
