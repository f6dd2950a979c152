package io.fleetkit.autoscale.hpa;

import io.fleetkit.api.metrics.MetricDescriptor;
import java.util.List;

/**
 * The HPA controller's metrics, named as {@code kubernetes/kubernetes pkg/controller/podautoscaler/monitor/metrics.go}
 * registers them (subsystem {@code horizontal_pod_autoscaler_controller}). {@code action} is {@link #SCALE_UP},
 * {@link #SCALE_DOWN} or {@link #NONE}; {@code error} is {@link #INTERNAL} when the sync ended in an error (FleetKit
 * does not tell spec errors apart) and {@link #NONE} otherwise.
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

  /** Every HPA controller metric FleetKit records. */
  public static final List<MetricDescriptor> ALL = List.of(RECONCILIATIONS, RECONCILIATION_DURATION);

  private HorizontalPodAutoscalerMetrics() {}
}
