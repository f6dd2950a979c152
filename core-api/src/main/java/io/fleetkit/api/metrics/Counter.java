package io.fleetkit.api.metrics;

/** One counter series (a metric and its label values). Thread-safe. */
public interface Counter {
  /** Adds one. */
  default void increment() {
    increment(1);
  }

  /**
   * Adds {@code amount}.
   *
   * @throws IllegalArgumentException if {@code amount} is negative (counters never go down)
   */
  void increment(double amount);
}
