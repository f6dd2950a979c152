package io.fleetkit.autoscale.hpa;

import io.fleetkit.api.metrics.MetricDescriptor;
import java.util.List;

/**
 * The HPA controller's metrics, named as {@code kubernetes/kubernetes pkg/controller/podautoscaler/monitor/metrics.go}
 * registers them (subsystem {@code horizontal_pod_autoscaler_controller}). {@code action} is {@link #SCALE_UP},
 * {@link #SCALE_DOWN} or {@link #NONE}; {@code error} is {@link #INTERNAL} when the sync ended in an error (FleetKit
 * does not tell spec errors apart) and {@link #NONE} otherwise.
 *
 * <p>The metric-computation pair is recorded once per entry of {@code spec.metrics}, as upstream's
 * {@code computeReplicasForMetric} does ({@code pkg/controller/podautoscaler/horizontal.go}): {@code action} compares
 * that metric's proposal with the current replicas ({@link #NONE} when it failed); {@code error} is {@link #SPEC}
 * for a metric source FleetKit cannot read (an invalid type), {@link #INTERNAL} when the metric was unavailable;
 * {@code metric_type} is the entry's type ({@code Resource}, {@code Pods}, {@code Object}, {@code External},
 * {@code ContainerResource}).
 *
 * <p>The two gauges of newer releases (monitor {@code metrics_test.go} {@code TestHPAAdditionAndDeletionMetrics},
 * {@code TestDesiredReplicasMetric}): {@link #NUM_HORIZONTAL_POD_AUTOSCALERS} counts the HPAs this controller tracks
 * and {@link #DESIRED_REPLICAS} holds each one's last computed desired replicas. Kube deletes an HPA's
 * {@code desired_replicas} series with the HPA; the metrics SPI cannot drop a series, so FleetKit sets it to 0.
 */
public final class HorizontalPodAutoscalerMetrics {
  public static final String SCALE_UP = "scale_up";
  public static final String SCALE_DOWN = "scale_down";
  public static final String NONE = "none";
  public static final String INTERNAL = "internal";
  public static final String SPEC = "spec";

  public static final MetricDescriptor RECONCILIATIONS = MetricDescriptor.counter(
      "horizontal_pod_autoscaler_controller_reconciliations_total",
      "Number of reconciliations of HPA controller. The label 'action' should be either 'scale_down', 'scale_up',"
          + " or 'none'. Also, the label 'error' should be either 'spec', 'internal', or 'none'. Note that if both"
          + " spec and internal errors happen during a reconciliation, the first one to occur is reported in `error`"
          + " label.", "action", "error");
  public static final MetricDescriptor RECONCILIATION_DURATION = MetricDescriptor.histogram(
      "horizontal_pod_autoscaler_controller_reconciliation_duration_seconds",
      "The time(seconds) that the HPA controller takes to reconcile once. The label 'action' should be either"
          + " 'scale_down', 'scale_up', or 'none'. Also, the label 'error' should be either 'spec', 'internal', or"
          + " 'none'. Note that if both spec and internal errors happen during a reconciliation, the first one to"
          + " occur is reported in `error` label.", MetricDescriptor.exponentialBuckets(0.001, 2, 15), "action",
      "error");

  public static final MetricDescriptor METRIC_COMPUTATION = MetricDescriptor.counter(
      "horizontal_pod_autoscaler_controller_metric_computation_total",
      "Number of metric computations. The label 'action' should be either 'scale_down', 'scale_up', or 'none'."
          + " Also, the label 'error' should be either 'spec', 'internal', or 'none'. The label 'metric_type'"
          + " corresponds to HPA.spec.metrics[*].type", "action", "error", "metric_type");
  public static final MetricDescriptor METRIC_COMPUTATION_DURATION = MetricDescriptor.histogram(
      "horizontal_pod_autoscaler_controller_metric_computation_duration_seconds",
      "The time(seconds) that the HPA controller takes to calculate one metric. The label 'action' should be"
          + " either 'scale_down', 'scale_up', or 'none'. The label 'error' should be either 'spec', 'internal', or"
          + " 'none'. The label 'metric_type' corresponds to HPA.spec.metrics[*].type",
      MetricDescriptor.exponentialBuckets(0.001, 2, 15), "action", "error", "metric_type");

  /**
   * The HPAs the controller tracks (monitor's {@code ObserveHPAAddition}/{@code ObserveHPADeletion}): one more when it
   * first syncs an HPA, one fewer when it reconciles the HPA's deletion.
   */
  public static final MetricDescriptor NUM_HORIZONTAL_POD_AUTOSCALERS = MetricDescriptor.gauge(
      "horizontal_pod_autoscaler_controller_num_horizontal_pod_autoscalers",
      "Current number of controlled HPA objects.");
  /** The desired replica count a sync computed, per HPA (monitor's {@code ObserveDesiredReplicas}). */
  public static final MetricDescriptor DESIRED_REPLICAS = MetricDescriptor.gauge(
      "horizontal_pod_autoscaler_controller_desired_replicas",
      "Current desired replica count for HPA objects.", "namespace", "hpa_name");

  /** Every HPA controller metric FleetKit records. */
  public static final List<MetricDescriptor> ALL = List.of(RECONCILIATIONS, RECONCILIATION_DURATION,
      METRIC_COMPUTATION, METRIC_COMPUTATION_DURATION, NUM_HORIZONTAL_POD_AUTOSCALERS, DESIRED_REPLICAS);

  private HorizontalPodAutoscalerMetrics() {}
}
