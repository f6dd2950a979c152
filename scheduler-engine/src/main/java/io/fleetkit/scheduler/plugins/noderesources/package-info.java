/**
 * The node-resources plugins, after kube-scheduler's {@code noderesources} package.
 *
 * <ul>
 *   <li>{@link io.fleetkit.scheduler.plugins.noderesources.NodeResourcesFitPlugin} ({@code NodeResourcesFit}):
 *       PreFilter computes the pod's effective requests once; Filter rejects nodes without room for every requested
 *       resource (cpu, memory, ephemeral-storage, extended resources such as {@code nvidia.com/gpu}) or for one more
 *       pod; PreScore/Score rank nodes with a {@link io.fleetkit.scheduler.plugins.noderesources.ScoringStrategy}
 *       (LeastAllocated by default, MostAllocated, RequestedToCapacityRatio).</li>
 *   <li>{@link io.fleetkit.scheduler.plugins.noderesources.NodeResourcesBalancedAllocationPlugin}
 *       ({@code NodeResourcesBalancedAllocation}): favours nodes whose resource fractions stay close to each other.</li>
 * </ul>
 *
 * <p>Arguments come from the profile's plugin-args map and are parsed by
 * {@link io.fleetkit.scheduler.plugins.noderesources.NodeResourcesFitArgs#fromMap} and
 * {@link io.fleetkit.scheduler.plugins.noderesources.NodeResourcesBalancedAllocationArgs#fromMap}; bad arguments fail
 * with an {@link java.lang.IllegalArgumentException} naming the field, the rule and the value.
 *
 * <p>Threading: plugins are immutable after construction; Filter and Score only read the cycle state written by
 * PreFilter/PreScore and allocate nothing when a node fits.
 */
@NullMarked
package io.fleetkit.scheduler.plugins.noderesources;

import org.jspecify.annotations.NullMarked;
