package io.fleetkit.scheduler.internal;

import io.fleetkit.api.framework.CycleState;
import io.fleetkit.api.framework.StateKey;
import java.util.Arrays;
import org.jspecify.annotations.Nullable;

/**
 * {@link CycleState} backed by an array indexed by {@link StateKey#index()}. Written by one thread in
 * PreFilter/PreScore; the worker pool's hand-off publishes the writes to the threads running Filter and Score.
 */
public final class ArrayCycleState implements CycleState {
  private @Nullable Object[] values;
  private boolean dryRun;
  /** Filter plugins (by index in the profile's Filter array) whose PreFilter returned Skip; null when none. */
  boolean @Nullable [] skipFilter;
  /** Score plugins whose PreScore returned Skip; null when none. */
  boolean @Nullable [] skipScore;
  /** Whether this cycle times its plugins (kube's {@code ShouldRecordPluginMetrics}); see {@link PluginTimings}. */
  boolean recordPluginMetrics;
  /**
   * In a cycle that times its plugins: the last {@link System#nanoTime()} read by the timings (an extension point's
   * start or end, a plugin's end), where a point that follows the previous one directly starts and a point whose
   * last plugin just ended ends, so that consecutive boundaries share one clock read. Only the scheduling thread.
   */
  long clockMark;

  public ArrayCycleState() {
    this.values = new Object[16];
  }

  private ArrayCycleState(@Nullable Object[] values, boolean dryRun) {
    this.values = values;
    this.dryRun = dryRun;
  }

  @Override
  public <T> void write(StateKey<T> key, T value) {
    int i = key.index();
    if (i >= values.length) {
      values = Arrays.copyOf(values, Math.max(i + 1, values.length * 2));
    }
    values[i] = key.type().cast(value);
  }

  @Override
  @SuppressWarnings("unchecked")
  public <T> @Nullable T read(StateKey<T> key) {
    int i = key.index();
    @Nullable Object[] v = values;
    // write() checked the type; Filter and Score read this per node, so no second check here
    return i < v.length ? (T) v[i] : null;
  }

  @Override
  public CycleState copy() {
    ArrayCycleState c = new ArrayCycleState(values.clone(), dryRun);
    c.skipFilter = skipFilter == null ? null : skipFilter.clone();
    c.skipScore = skipScore == null ? null : skipScore.clone();
    c.recordPluginMetrics = recordPluginMetrics;
    return c;
  }

  @Override
  public boolean isPreemptionDryRun() {
    return dryRun;
  }

  /** Marks this state (and later copies) as being evaluated by preemption. */
  void setPreemptionDryRun(boolean dryRun) {
    this.dryRun = dryRun;
  }
}
