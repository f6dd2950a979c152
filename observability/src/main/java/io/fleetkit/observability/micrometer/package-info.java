/**
 * Records FleetKit's metrics into Micrometer: {@link io.fleetkit.observability.micrometer.MicrometerMetrics#of}
 * wraps a {@code MeterRegistry} (a Prometheus one gives kube's exact series names). Micrometer is an optional
 * dependency: only code that calls into this package needs it on the class path. Thread-safe.
 */
@NullMarked
package io.fleetkit.observability.micrometer;

import org.jspecify.annotations.NullMarked;
