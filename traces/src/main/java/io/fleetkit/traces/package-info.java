/**
 * Open cluster traces bundled with FleetKit as classpath resources, for replays, tests, benchmarks and the CLI:
 * {@link io.fleetkit.traces.OpenbTraces}. Stateless and thread-safe.
 */
@NullMarked
package io.fleetkit.traces;

import org.jspecify.annotations.NullMarked;
