/** Workload generators: kube-scheduler's scheduler_perf node and pod templates, rebuilt as FleetKit objects. */
@NullMarked
package io.fleetkit.benchmarks.generator;

import org.jspecify.annotations.NullMarked;
