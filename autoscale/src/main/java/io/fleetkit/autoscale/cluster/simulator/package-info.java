/**
 * The what-if cluster both node autoscalers plan on: {@link io.fleetkit.autoscale.cluster.simulator.SimulatedCluster}
 * runs the scheduler's real PreFilter and Filter plugins against nodes and pods added and removed at will, and
 * {@link io.fleetkit.autoscale.cluster.simulator.SimulatedNodes} models a launched node's start-up delay.
 *
 * <p>Thread-safety: {@code SimulatedCluster} is confined to one thread; {@code SimulatedNodes} is stateless.
 */
@NullMarked
package io.fleetkit.autoscale.cluster.simulator;

import org.jspecify.annotations.NullMarked;
