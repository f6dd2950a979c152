/** Peer systems behind small adapters, so that a benchmark measures them on the same workload as FleetKit. */
@NullMarked
package io.fleetkit.benchmarks.impl;

import org.jspecify.annotations.NullMarked;
