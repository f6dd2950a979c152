/**
 * The tracing SPI FleetKit's components open spans through: {@link io.fleetkit.api.tracing.Tracing} starts
 * {@link io.fleetkit.api.tracing.TraceSpan}s, as children of a span or of a W3C trace context carried in a map
 * (the {@code traceparent}/{@code tracestate} entries, e.g. from a pod's {@value
 * io.fleetkit.api.tracing.Tracing#TRACEPARENT_ANNOTATION} annotation). {@link io.fleetkit.api.tracing.Tracing#NOOP}
 * does nothing and costs nothing; an OpenTelemetry adapter lives in the {@code fleetkit-observability} module.
 * Implementations must be thread-safe; a span is used by one thread at a time.
 */
@NullMarked
package io.fleetkit.api.tracing;

import org.jspecify.annotations.NullMarked;
