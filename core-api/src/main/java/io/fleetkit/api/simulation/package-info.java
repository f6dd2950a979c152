/**
 * FleetKit's what-if kind {@code simulation.fleetkit.io/v1 Scenario}: how long to simulate, the seed, the load on
 * each workload ({@link LoadPattern}), the faults to inject, which engines run, the cluster autoscaler's
 * options ({@link ScenarioAutoscaler}), the provisioner's ({@link ScenarioProvisioner}), and the queues' parts of Kueue's
 * Configuration ({@link ScenarioPodsReady}, {@link ScenarioFairSharing}, {@link ScenarioAdmissionFairSharing}, {@link
 * ScenarioCheckController}). Immutable records
 * validated in their constructors; thread-safe.
 */
@NullMarked
package io.fleetkit.api.simulation;

import org.jspecify.annotations.NullMarked;
