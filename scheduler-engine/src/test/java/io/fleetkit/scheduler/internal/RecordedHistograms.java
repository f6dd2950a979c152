package io.fleetkit.scheduler.internal;

import io.fleetkit.api.metrics.Counter;
import io.fleetkit.api.metrics.Gauge;
import io.fleetkit.api.metrics.Histogram;
import io.fleetkit.api.metrics.MetricDescriptor;
import io.fleetkit.api.metrics.MetricsRegistry;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A registry for the scheduler's metric tests: keeps every histogram observation, in nanoseconds, under its series
 * (the metric's name, then its label values); counters and gauges record nothing.
 */
final class RecordedHistograms implements MetricsRegistry {
  /** Observations by series: {@code [name, label values...]}. */
  final Map<List<String>, List<Long>> observed = new HashMap<>();

  @Override
  public Counter counter(MetricDescriptor metric, String... labelValues) {
    return MetricsRegistry.NOOP.counter(metric, labelValues);
  }

  @Override
  public Gauge gauge(MetricDescriptor metric, String... labelValues) {
    return MetricsRegistry.NOOP.gauge(metric, labelValues);
  }

  @Override
  public Histogram histogram(MetricDescriptor metric, String... labelValues) {
    List<String> key = new ArrayList<>();
    key.add(metric.name());
    key.addAll(List.of(labelValues));
    List<Long> values = observed.computeIfAbsent(key, k -> new ArrayList<>());
    return new Histogram() {
      @Override
      public void observe(double value) {
        values.add(Math.round(value * 1e9));
      }

      @Override
      public void observeNanos(long nanos) {
        values.add(nanos);
      }
    };
  }

  /** Observations per series. */
  Map<List<String>, Integer> counts() {
    Map<List<String>, Integer> counts = new HashMap<>();
    observed.forEach((k, v) -> counts.put(k, v.size()));
    return counts;
  }
}
