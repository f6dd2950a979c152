/**
 * Reading the Prometheus text exposition format: {@link io.fleetkit.observability.prometheus.Exposition#parse}
 * turns a scrape into samples and metric types, so tests and tools can check what an endpoint exposes without a
 * Prometheus server. Immutable and thread-safe.
 */
@NullMarked
package io.fleetkit.observability.prometheus;

import org.jspecify.annotations.NullMarked;
