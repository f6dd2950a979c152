package io.fleetkit.reconcile.metrics;

import io.fleetkit.api.metrics.MetricDescriptor;
import java.util.List;

/**
 * The pod garbage collector's metrics, named and labelled as {@code kubernetes/kubernetes
 * pkg/controller/podgc/metrics/metrics.go} registers them (subsystem {@code pod_gc_collector}, labels
 * {@code namespace} = the pod's namespace and {@code reason} = which check deleted it, one of {@link #REASONS}).
 * Every force deletion the collector attempts counts in {@link #FORCE_DELETE_PODS}, the failed ones (the status
 * write or the deletion) also in {@link #FORCE_DELETE_POD_ERRORS}.
 */
public final class PodGcMetrics {
  /** A terminated pod beyond the threshold (upstream {@code PodGCReasonTerminated}). */
  public static final String REASON_TERMINATED = "terminated";
  /** A terminating pod on a not-ready, out-of-service node (upstream {@code PodGCReasonTerminatingOutOfService}). */
  public static final String REASON_OUT_OF_SERVICE = "out-of-service";
  /** A pod bound to a node that no longer exists (upstream {@code PodGCReasonOrphaned}). */
  public static final String REASON_ORPHANED = "orphaned";
  /** A terminating pod never bound to a node (upstream {@code PodGCReasonTerminatingUnscheduled}). */
  public static final String REASON_UNSCHEDULED = "unscheduled";
  /** The four reason values. */
  public static final List<String> REASONS = List.of(REASON_TERMINATED, REASON_OUT_OF_SERVICE, REASON_ORPHANED,
      REASON_UNSCHEDULED);

  public static final MetricDescriptor FORCE_DELETE_PODS = MetricDescriptor.counter(
      "pod_gc_collector_force_delete_pods_total",
      "Number of pods that are being forcefully deleted since the Pod GC Controller started.", "namespace",
      "reason");
  public static final MetricDescriptor FORCE_DELETE_POD_ERRORS = MetricDescriptor.counter(
      "pod_gc_collector_force_delete_pod_errors_total",
      "Number of errors encountered when forcefully deleting the pods since the Pod GC Controller started.",
      "namespace", "reason");

  /** Both pod GC metrics. */
  public static final List<MetricDescriptor> ALL = List.of(FORCE_DELETE_PODS, FORCE_DELETE_POD_ERRORS);

  private PodGcMetrics() {}
}
