package io.fleetkit.reconcile.internal;

import io.fleetkit.api.metrics.Counter;
import io.fleetkit.api.metrics.Gauge;
import io.fleetkit.api.metrics.Histogram;
import io.fleetkit.api.metrics.MetricsRegistry;
import io.fleetkit.reconcile.metrics.ControllerMetrics;
import java.util.HashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/** One controller's controller-runtime series. Thread-safe (the series are). */
final class ReconcileMetrics {
  private final Map<String, Counter> total = new HashMap<>();
  private final Counter errors;
  private final Histogram time;
  private final Gauge activeWorkers;

  private ReconcileMetrics(MetricsRegistry registry, String controller, int workers) {
    for (String r : ControllerMetrics.RESULTS) {
      Counter c = registry.counter(ControllerMetrics.RECONCILE_TOTAL, controller, r);
      c.increment(0); // controller-runtime initialises all four results to 0 when the controller starts
      total.put(r, c);
    }
    errors = registry.counter(ControllerMetrics.RECONCILE_ERRORS, controller);
    time = registry.histogram(ControllerMetrics.RECONCILE_TIME, controller);
    activeWorkers = registry.gauge(ControllerMetrics.ACTIVE_WORKERS, controller);
    registry.gauge(ControllerMetrics.MAX_CONCURRENT_RECONCILES, controller).set(Math.max(1, workers));
  }

  static @Nullable ReconcileMetrics of(MetricsRegistry registry, String controller, int workers) {
    return registry.enabled() ? new ReconcileMetrics(registry, controller, workers) : null;
  }

  long start() {
    activeWorkers.add(1);
    return System.nanoTime();
  }

  void finish(long startNanos, String result) {
    time.observeNanos(System.nanoTime() - startNanos);
    total.get(result).increment();
    if (result.equals(ControllerMetrics.RESULT_ERROR)) {
      errors.increment();
    }
    activeWorkers.add(-1);
  }
}
