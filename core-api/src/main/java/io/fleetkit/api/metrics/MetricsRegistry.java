package io.fleetkit.api.metrics;

/**
 * Hands out metric series. Each call returns the series for one descriptor and one list of label values (the same
 * series for equal arguments); callers on hot paths look their series up once and keep them. Thread-safe.
 *
 * <p>{@link #NOOP} records nothing, and components that are given it skip their measuring code, so a FleetKit that
 * was given no registry pays nothing.
 */
public interface MetricsRegistry {
  /** Records nothing; {@link #enabled()} is false. */
  MetricsRegistry NOOP = new MetricsRegistry() {
    @Override
    public Counter counter(MetricDescriptor metric, String... labelValues) {
      return amount -> { };
    }

    @Override
    public Gauge gauge(MetricDescriptor metric, String... labelValues) {
      return new Gauge() {
        @Override
        public void set(double value) { }

        @Override
        public void add(double delta) { }
      };
    }

    @Override
    public Histogram histogram(MetricDescriptor metric, String... labelValues) {
      return value -> { };
    }

    @Override
    public boolean enabled() {
      return false;
    }

    @Override
    public String toString() {
      return "MetricsRegistry.NOOP";
    }
  };

  /**
   * The counter series of {@code metric} with these label values.
   *
   * @throws IllegalArgumentException if {@code metric} is not a counter or the values do not fit its labels
   */
  Counter counter(MetricDescriptor metric, String... labelValues);

  /**
   * The gauge series of {@code metric} with these label values (0 until set).
   *
   * @throws IllegalArgumentException if {@code metric} is not a gauge or the values do not fit its labels
   */
  Gauge gauge(MetricDescriptor metric, String... labelValues);

  /**
   * The histogram series of {@code metric} with these label values.
   *
   * @throws IllegalArgumentException if {@code metric} is not a histogram or the values do not fit its labels
   */
  Histogram histogram(MetricDescriptor metric, String... labelValues);

  /** Whether anything is recorded; false only for {@link #NOOP}-like registries. */
  default boolean enabled() {
    return true;
  }
}
