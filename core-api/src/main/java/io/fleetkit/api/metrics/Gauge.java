package io.fleetkit.api.metrics;

/** One gauge series (a metric and its label values). Thread-safe. */
public interface Gauge {
  /** Sets the value. */
  void set(double value);

  /** Adds {@code delta} (which may be negative) atomically. */
  void add(double delta);
}
