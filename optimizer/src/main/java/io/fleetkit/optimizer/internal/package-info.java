/**
 * The optimiser's OptaPlanner model: mutable planning entities ({@link io.fleetkit.optimizer.internal.PodSlot}),
 * problem facts ({@link io.fleetkit.optimizer.internal.NodeFact}, {@link io.fleetkit.optimizer.internal.GangFact}),
 * the solution class, the Bavet constraint provider, the gang-aware greedy construction and the solver runner. Not
 * part of the public contract; every object here is confined to one solve and is not thread-safe.
 */
@NullMarked
package io.fleetkit.optimizer.internal;

import org.jspecify.annotations.NullMarked;
