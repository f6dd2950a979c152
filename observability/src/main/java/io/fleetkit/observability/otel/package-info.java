/**
 * Traces FleetKit's scheduling attempts and reconciles with OpenTelemetry:
 * {@link io.fleetkit.observability.otel.OpenTelemetryTracing#of} wraps an {@code OpenTelemetry} instance (with an
 * SDK and exporters the user configures). The OpenTelemetry API is an optional dependency: only code that calls
 * into this package needs it. Thread-safe.
 */
@NullMarked
package io.fleetkit.observability.otel;

import org.jspecify.annotations.NullMarked;
