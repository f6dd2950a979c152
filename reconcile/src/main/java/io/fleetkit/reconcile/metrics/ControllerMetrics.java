package io.fleetkit.reconcile.metrics;

import io.fleetkit.api.metrics.MetricDescriptor;
import java.util.List;

/**
 * controller-runtime's controller metrics ({@code kubernetes-sigs/controller-runtime
 * pkg/internal/controller/metrics/metrics.go}), label {@code controller} = the controller's name. A reconcile's
 * {@code result} is {@link #RESULT_ERROR} when it threw (even if it also asked for a requeue),
 * {@link #RESULT_REQUEUE_AFTER} for a delayed requeue, {@link #RESULT_REQUEUE} for a rate-limited one and
 * {@link #RESULT_SUCCESS} otherwise; all four series start at 0 when the controller starts. The reconcile time is
 * observed for every reconcile.
 */
public final class ControllerMetrics {
  public static final String RESULT_SUCCESS = "success";
  public static final String RESULT_ERROR = "error";
  public static final String RESULT_REQUEUE = "requeue";
  public static final String RESULT_REQUEUE_AFTER = "requeue_after";
  /** The four result values, in controller-runtime's order. */
  public static final List<String> RESULTS = List.of(RESULT_ERROR, RESULT_REQUEUE_AFTER, RESULT_REQUEUE,
      RESULT_SUCCESS);

  /** controller-runtime's 40 reconcile-time buckets. */
  public static final List<Double> RECONCILE_TIME_BUCKETS = List.of(0.005, 0.01, 0.025, 0.05, 0.1, 0.15, 0.2, 0.25,
      0.3, 0.35, 0.4, 0.45, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.25, 1.5, 1.75, 2.0, 2.5, 3.0, 3.5, 4.0, 4.5, 5.0, 6.0,
      7.0, 8.0, 9.0, 10.0, 15.0, 20.0, 25.0, 30.0, 40.0, 50.0, 60.0);

  public static final MetricDescriptor RECONCILE_TOTAL = MetricDescriptor.counter(
      "controller_runtime_reconcile_total", "Total number of reconciliations per controller", "controller",
      "result");
  public static final MetricDescriptor RECONCILE_ERRORS = MetricDescriptor.counter(
      "controller_runtime_reconcile_errors_total", "Total number of reconciliation errors per controller",
      "controller");
  public static final MetricDescriptor RECONCILE_TIME = MetricDescriptor.histogram(
      "controller_runtime_reconcile_time_seconds", "Length of time per reconciliation per controller",
      RECONCILE_TIME_BUCKETS, "controller");
  public static final MetricDescriptor MAX_CONCURRENT_RECONCILES = MetricDescriptor.gauge(
      "controller_runtime_max_concurrent_reconciles", "Maximum number of concurrent reconciles per controller",
      "controller");
  public static final MetricDescriptor ACTIVE_WORKERS = MetricDescriptor.gauge("controller_runtime_active_workers",
      "Number of currently used workers per controller", "controller");

  /** Every controller metric. */
  public static final List<MetricDescriptor> ALL = List.of(RECONCILE_TOTAL, RECONCILE_ERRORS, RECONCILE_TIME,
      MAX_CONCURRENT_RECONCILES, ACTIVE_WORKERS);

  private ControllerMetrics() {}
}
