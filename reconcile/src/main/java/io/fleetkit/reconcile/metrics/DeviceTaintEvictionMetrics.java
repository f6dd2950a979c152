package io.fleetkit.reconcile.metrics;

import io.fleetkit.api.metrics.MetricDescriptor;
import java.util.List;

/**
 * The device taint eviction controller's metrics, named, helped and bucketed as {@code kubernetes/kubernetes
 * pkg/controller/devicetainteviction/metrics/metrics.go} registers them (subsystem {@code
 * device_taint_eviction_controller}, no labels): {@link #POD_DELETIONS} counts the pods the controller deleted, and
 * {@link #POD_DELETION_DURATION} observes, for each, the time from the instant its eviction was due (the taint's
 * {@code timeAdded} plus the tolerated seconds) to the deletion, on the controller's clock.
 */
public final class DeviceTaintEvictionMetrics {
  /** Upstream's buckets: 5 ms to 4 minutes. */
  public static final List<Double> POD_DELETION_DURATION_BUCKETS =
      List.of(0.005, 0.025, 0.1, 0.5, 1.0, 2.5, 10.0, 30.0, 60.0, 120.0, 180.0, 240.0);

  public static final MetricDescriptor POD_DELETIONS = MetricDescriptor.counter(
      "device_taint_eviction_controller_pod_deletions_total",
      "Total number of Pods deleted by DeviceTaintEvictionController since its start.");

  public static final MetricDescriptor POD_DELETION_DURATION = MetricDescriptor.histogram(
      "device_taint_eviction_controller_pod_deletion_duration_seconds",
      "Latency, in seconds, between the time when a device taint effect has been activated and a Pod's deletion via"
          + " DeviceTaintEvictionController.", POD_DELETION_DURATION_BUCKETS);

  /** The controller's metrics. */
  public static final List<MetricDescriptor> ALL = List.of(POD_DELETIONS, POD_DELETION_DURATION);

  private DeviceTaintEvictionMetrics() {}
}
