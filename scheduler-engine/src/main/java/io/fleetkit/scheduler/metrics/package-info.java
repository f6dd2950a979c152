/**
 * kube-scheduler's metrics as {@link io.fleetkit.api.metrics.MetricDescriptor}s:
 * {@link io.fleetkit.scheduler.metrics.SchedulerMetrics}. The scheduler records them when given a registry through
 * {@link io.fleetkit.scheduler.SchedulerBuilder#metrics}. Immutable.
 */
@NullMarked
package io.fleetkit.scheduler.metrics;

import org.jspecify.annotations.NullMarked;
