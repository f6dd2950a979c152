/**
 * The what-if cluster both node autoscalers plan on: {@link io.fleetkit.autoscale.cluster.simulator.SimulatedCluster}
 * runs the scheduler's real PreFilter and Filter plugins against nodes and pods added and removed at will, and
 * {@link io.fleetkit.autoscale.cluster.simulator.SimulatedNodes} models a launched node's start-up delay. A pod view
 * that is a {@link io.fleetkit.autoscale.cluster.simulator.SimulationPodInfo} carries what a simulation reads of it on
 * every placement and keeps the simulation's PreFilter outcome for its next search. A simulation given DRA objects
 * (or nodes with ResourceSlices) keeps them as placements change them (its package-private {@code DraSnapshot},
 * upstream's DRA snapshot): a pod placed gets its claims allocated on its node, a pod or node removed releases them.
 *
 * <p>Thread-safety: {@code SimulatedCluster} is confined to one thread; {@code SimulatedNodes} is stateless; a
 * {@code SimulationPodInfo}'s note is checked by the simulation that reads it, so sharing a view is safe.
 */
@NullMarked
package io.fleetkit.autoscale.cluster.simulator;

import org.jspecify.annotations.NullMarked;
