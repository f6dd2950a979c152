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
}
