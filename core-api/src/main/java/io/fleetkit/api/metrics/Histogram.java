package io.fleetkit.api.metrics;

/**
 * One histogram series (a metric and its label values). Durations are observed in seconds, as Prometheus
 * histograms named {@code *_seconds} are. Thread-safe.
 */
public interface Histogram {
  /** Records one observation. */
  void observe(double value);

  /** Records a duration given in nanoseconds (as seconds). */
  default void observeNanos(long nanos) {
    observe(nanos / 1e9);
  }

  /**
   * Records the durations {@code nanos[0]} … {@code nanos[count - 1]}, given in nanoseconds: the same as calling
   * {@link #observeNanos(long)} for each, which is what this default does. A series may add them in bulk.
   *
   * @throws IndexOutOfBoundsException if {@code count} exceeds {@code nanos.length}
   */
  default void observeNanos(long[] nanos, int count) {
    java.util.Objects.checkFromToIndex(0, count, nanos.length);
    for (int i = 0; i < count; i++) {
      observeNanos(nanos[i]);
    }
  }

  /**
   * Records the plain values (counts, such as attempts or victims) {@code values[0]} … {@code values[count - 1]}:
   * the same as calling {@link #observe(double)} for each, which is what this default does. A series may add them in
   * bulk.
   *
   * @throws IndexOutOfBoundsException if {@code count} exceeds {@code values.length}
   */
  default void observe(long[] values, int count) {
    java.util.Objects.checkFromToIndex(0, count, values.length);
    for (int i = 0; i < count; i++) {
      observe((double) values[i]);
    }
  }
}
