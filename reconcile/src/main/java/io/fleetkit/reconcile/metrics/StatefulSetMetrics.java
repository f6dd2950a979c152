package io.fleetkit.reconcile.metrics;

import io.fleetkit.api.metrics.MetricDescriptor;
import java.util.List;

/**
 * The StatefulSet controller's rolling-update gauges, named, helped and labelled as {@code kubernetes/kubernetes
 * pkg/controller/statefulset/metrics/metrics.go} registers them (subsystem {@code statefulset_controller}). Both are
 * set when a pass of a RollingUpdate set reaches its update step (every replica passed the ordering gates), as
 * upstream's {@code updateStatefulSetAfterInvariantEstablished} sets them: {@link #MAX_UNAVAILABLE} the set's {@code
 * maxUnavailable} as a number of pods, {@link #UNAVAILABLE_REPLICAS} its replicas missing or not available for {@code
 * minReadySeconds} or being deleted.
 */
public final class StatefulSetMetrics {
  private static final String[] LABELS = {"statefulset_namespace", "statefulset_name", "pod_management_policy"};

  public static final MetricDescriptor MAX_UNAVAILABLE = MetricDescriptor.gauge(
      "statefulset_controller_statefulset_max_unavailable",
      "Maximum number of unavailable pods allowed during StatefulSet rolling updates", LABELS);
  public static final MetricDescriptor UNAVAILABLE_REPLICAS = MetricDescriptor.gauge(
      "statefulset_controller_statefulset_unavailable_replicas", "Current number of unavailable pods in StatefulSet",
      LABELS);

  /** The controller's metrics. */
  public static final List<MetricDescriptor> ALL = List.of(MAX_UNAVAILABLE, UNAVAILABLE_REPLICAS);

  private StatefulSetMetrics() {}
}
