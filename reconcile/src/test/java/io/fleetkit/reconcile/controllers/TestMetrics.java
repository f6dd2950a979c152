package io.fleetkit.reconcile.controllers;

import io.fleetkit.api.metrics.Counter;
import io.fleetkit.api.metrics.Gauge;
import io.fleetkit.api.metrics.Histogram;
import io.fleetkit.api.metrics.MetricDescriptor;
import io.fleetkit.api.metrics.MetricsRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A registry for tests that keeps counter and gauge values and histogram observations by name and label values
 * ({@code name{v1,v2}}); label values are checked against the metric's label names.
 */
final class TestMetrics implements MetricsRegistry {
  final Map<String, Double> values = new ConcurrentHashMap<>();
  final Map<String, List<Double>> observed = new ConcurrentHashMap<>();
  private final boolean enabled;

  TestMetrics() {
    this(true);
  }

  TestMetrics(boolean enabled) {
    this.enabled = enabled;
  }

  static String key(String name, String... labelValues) {
    return name + "{" + String.join(",", labelValues) + "}";
  }

  /** A counter's or gauge's value, 0 when never written. */
  double get(String name, String... labelValues) {
    return values.getOrDefault(key(name, labelValues), 0.0);
  }

  /** A histogram's observations, in order. */
  List<Double> observations(String name, String... labelValues) {
    return observed.getOrDefault(key(name, labelValues), List.of());
  }

  @Override
  public boolean enabled() {
    return enabled;
  }

  @Override
  public Counter counter(MetricDescriptor metric, String... labelValues) {
    metric.checkLabelValues(labelValues);
    String key = key(metric.name(), labelValues);
    return amount -> values.merge(key, amount, Double::sum);
  }

  @Override
  public Gauge gauge(MetricDescriptor metric, String... labelValues) {
    metric.checkLabelValues(labelValues);
    String key = key(metric.name(), labelValues);
    return new Gauge() {
      @Override
      public void set(double value) {
        values.put(key, value);
      }

      @Override
      public void add(double delta) {
        values.merge(key, delta, Double::sum);
      }
    };
  }

  @Override
  public Histogram histogram(MetricDescriptor metric, String... labelValues) {
    metric.checkLabelValues(labelValues);
    String key = key(metric.name(), labelValues);
    return value -> observed.computeIfAbsent(key, k -> java.util.Collections.synchronizedList(new ArrayList<>()))
        .add(value);
  }
}
