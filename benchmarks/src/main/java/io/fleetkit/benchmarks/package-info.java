/**
 * JMH benchmarks that guard FleetKit's throughput, side by side with peers measured in the same run. Workload
 * generators live in {@code generator}, rival systems behind adapters in {@code impl}.
 */
@NullMarked
package io.fleetkit.benchmarks;

import org.jspecify.annotations.NullMarked;
