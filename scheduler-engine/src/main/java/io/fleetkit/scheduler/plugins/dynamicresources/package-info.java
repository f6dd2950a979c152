/**
 * The DynamicResources plugin ({@link io.fleetkit.scheduler.plugins.dynamicresources.DynamicResourcesPlugin}):
 * Kubernetes' Dynamic Resource Allocation in the scheduler. A pod's ResourceClaims must exist before it is queued;
 * claims not yet allocated get devices on the node the pod goes to (the structured allocator of
 * {@link io.fleetkit.scheduler.dra}), allocated claims confine the pod to their nodes, and PreBind writes the
 * allocation and the pod's reservation into the claims.
 *
 * <p>The plugin is thread-safe: its only mutable state is the map of allocations between Reserve and PreBind.
 */
@NullMarked
package io.fleetkit.scheduler.plugins.dynamicresources;

import org.jspecify.annotations.NullMarked;
