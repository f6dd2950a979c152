/**
 * Whole-cluster what-if runs. {@link io.fleetkit.simulator.ClusterSimulation} takes manifests and a
 * {@link io.fleetkit.api.simulation.Scenario} and runs the reconcile {@link io.fleetkit.reconcile.sim.Simulation}
 * (store, workload controllers, scheduler, node lifecycle, simulated kubelets) with load on the workloads
 * ({@link io.fleetkit.simulator.LoadMetrics}), the HPA and the cluster autoscaler on the simulated clock, and the
 * scenario's faults; it samples {@link io.fleetkit.simulator.TimeSeries} (pending pods, ready vs desired, nodes per
 * pool, CPU/GPU, cost) into a {@link io.fleetkit.simulator.SimulationRun}, which {@link
 * io.fleetkit.simulator.HtmlReport} draws as one self-contained HTML file.
 *
 * <p>Everything here runs on one thread; a run is deterministic (same inputs and seed, same output bytes).
 */
@NullMarked
package io.fleetkit.simulator;

import org.jspecify.annotations.NullMarked;
