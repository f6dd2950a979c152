/**
 * Deterministic simulation of a whole cluster in simulated time: {@link io.fleetkit.reconcile.sim.Simulation} wires
 * the embedded store, the workload controllers ({@link io.fleetkit.reconcile.sim.SimulatedController}, pluggable),
 * the real scheduler, the node lifecycle and taint eviction controllers and one simulated kubelet
 * ({@link io.fleetkit.reconcile.node.NodeAgent}) per node on one {@link io.fleetkit.api.time.ManualClock}, injects
 * node failures, and records a timeline ({@link io.fleetkit.reconcile.sim.TimelineEvent}) and a summary
 * ({@link io.fleetkit.reconcile.sim.SimulationSummary}).
 *
 * <p>Threading: a simulation is single-threaded and not thread-safe; every component runs on the thread that calls
 * its run methods. Same inputs and seed give the same timeline.
 */
@NullMarked
package io.fleetkit.reconcile.sim;

import org.jspecify.annotations.NullMarked;
