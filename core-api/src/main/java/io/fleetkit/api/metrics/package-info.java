/**
 * The metrics SPI that FleetKit's components record through: a {@link io.fleetkit.api.metrics.MetricsRegistry}
 * hands out {@link io.fleetkit.api.metrics.Counter}, {@link io.fleetkit.api.metrics.Gauge} and
 * {@link io.fleetkit.api.metrics.Histogram} children for one {@link io.fleetkit.api.metrics.MetricDescriptor} and
 * one set of label values. Descriptors carry the Prometheus name, label names and histogram buckets of the upstream
 * metric they mirror (kube-scheduler, client-go work queues, controller-runtime), so an adapter can expose exactly
 * those series.
 *
 * <p>{@link io.fleetkit.api.metrics.MetricsRegistry#NOOP} records nothing; components given it (the default) skip
 * their timing code entirely. A Micrometer adapter lives in the {@code fleetkit-observability} module, so nothing
 * here loads a third-party class. Implementations must be thread-safe.
 */
@NullMarked
package io.fleetkit.api.metrics;

import org.jspecify.annotations.NullMarked;
