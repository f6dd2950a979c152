package io.fleetkit.api.framework;

import org.jspecify.annotations.Nullable;

/**
 * Per-pod, per-cycle scratch state shared by plugins: written once in PreFilter/PreScore, read in Filter/Score
 * (possibly from several threads at once). Implementations make writes visible to later parallel reads.
 */
public interface CycleState {
  /** Stores {@code value} under {@code key}, replacing any earlier value. */
  <T> void write(StateKey<T> key, T value);

  /** The value under {@code key}, or {@code null}. */
  <T> @Nullable T read(StateKey<T> key);

  /**
   * The value under {@code key}.
   *
   * @throws IllegalStateException naming the key when nothing was written (a plugin skipped its PreFilter)
   */
  default <T> T require(StateKey<T> key) {
    T v = read(key);
    if (v == null) {
      throw new IllegalStateException("cycle state has no " + key.name() + ": its PreFilter/PreScore did not run");
    }
    return v;
  }

  /** An independent copy (values are shared; plugins store immutable values or copy-on-write them). */
  CycleState copy();

  /** Whether preemption's dry run is evaluating this state (plugins may skip expensive scoring then). */
  boolean isPreemptionDryRun();
}
