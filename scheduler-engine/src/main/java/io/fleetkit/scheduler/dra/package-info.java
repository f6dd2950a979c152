/**
 * Structured-parameters device allocation for Dynamic Resource Allocation: given a node, the published
 * {@link io.fleetkit.api.resource.dra.ResourceSlice}s, the devices already allocated and a pod's unallocated
 * {@link io.fleetkit.api.resource.dra.ResourceClaim}s, {@link io.fleetkit.scheduler.dra.StructuredAllocator} finds
 * devices for every request of every claim (ExactCount and All, class and request selectors, {@code matchAttribute}
 * constraints, prioritized lists of alternatives, admin access), backtracking as Kubernetes' {@code structured}
 * allocator does, or says why not.
 *
 * <p>Pure: no scheduler state, no store. Not yet wired into the scheduler framework (no DynamicResources plugin).
 * {@link io.fleetkit.scheduler.dra.StructuredAllocator} is immutable and thread-safe; each
 * {@link io.fleetkit.scheduler.dra.StructuredAllocator#allocate} call keeps its search state to itself.
 */
@NullMarked
package io.fleetkit.scheduler.dra;

import org.jspecify.annotations.NullMarked;
