/**
 * Deterministic simulation of a whole cluster in simulated time, and what-if runs on top of it.
 *
 * <p>{@link io.fleetkit.simulator.Simulation} wires the embedded store, the workload controllers
 * ({@link io.fleetkit.reconcile.SimulatedController}, pluggable), the real scheduler, the node lifecycle and taint
 * eviction controllers and one simulated kubelet ({@link io.fleetkit.reconcile.node.NodeAgent}) per node on one
 * {@link io.fleetkit.api.time.ManualClock}, injects node failures, and records a timeline
 * ({@link io.fleetkit.simulator.TimelineEvent}) and a summary ({@link io.fleetkit.simulator.SimulationSummary}).
 *
 * <p>{@link io.fleetkit.simulator.ClusterSimulation} takes manifests and a
 * {@link io.fleetkit.api.simulation.Scenario} and runs a {@link io.fleetkit.simulator.Simulation} with load on the
 * workloads ({@link io.fleetkit.simulator.LoadMetrics}), the HPA and the cluster autoscaler on the simulated clock,
 * and the scenario's faults; it samples {@link io.fleetkit.simulator.TimeSeries} (pending pods, ready vs desired,
 * nodes per pool, CPU/GPU, cost) into a {@link io.fleetkit.simulator.SimulationRun}, which {@link
 * io.fleetkit.simulator.HtmlReport} draws as one self-contained HTML file.
 *
 * <p>Threading: a simulation is single-threaded and not thread-safe; every component runs on the thread that calls
 * its run methods. A run is deterministic (same inputs and seed, same timeline and same output bytes).
 */
@NullMarked
package io.fleetkit.simulator;

import org.jspecify.annotations.NullMarked;
