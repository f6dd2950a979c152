/**
 * The metrics of work queues and controllers, with upstream's names, labels and buckets:
 * {@link io.fleetkit.reconcile.metrics.WorkQueueMetrics} (client-go's {@code workqueue_*}, as component-base
 * registers them) and {@link io.fleetkit.reconcile.metrics.ControllerMetrics} (controller-runtime's
 * {@code controller_runtime_reconcile_*}) and {@link io.fleetkit.reconcile.metrics.PodGcMetrics} (the pod garbage
 * collector's {@code pod_gc_collector_*}) and {@link io.fleetkit.reconcile.metrics.TtlAfterFinishedMetrics} (the
 * TTL-after-finished controller's {@code ttl_after_finished_controller_*}). Give a {@link io.fleetkit.api.metrics.MetricsRegistry} to
 * {@link io.fleetkit.reconcile.ControllerBuilder#metrics} or {@link io.fleetkit.reconcile.RateLimitingQueue#create};
 * without one nothing is measured. Immutable and thread-safe.
 */
@NullMarked
package io.fleetkit.reconcile.metrics;

import org.jspecify.annotations.NullMarked;
