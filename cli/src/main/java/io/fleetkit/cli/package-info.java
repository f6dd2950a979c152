/**
 * The {@code fleetkit} command line: picocli commands over the public API. The only place in FleetKit that prints.
 */
@NullMarked
package io.fleetkit.cli;

import org.jspecify.annotations.NullMarked;
