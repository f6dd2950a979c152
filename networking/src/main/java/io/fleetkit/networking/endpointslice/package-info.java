/**
 * The EndpointSlice controller with the semantics of Kubernetes' {@code k8s.io/endpointslice}: which pods become
 * endpoints with which conditions and ports ({@link io.fleetkit.networking.endpointslice.SliceRules}), how desired
 * endpoints are packed into slices of at most 100 with minimal churn
 * ({@link io.fleetkit.networking.endpointslice.EndpointSliceReconciler}, a pure planner returning a
 * {@link io.fleetkit.networking.endpointslice.SlicePlan}), topology hints for {@code trafficDistribution}
 * ({@link io.fleetkit.networking.endpointslice.TrafficDistributionHints}) and the controller that applies plans to
 * the store ({@link io.fleetkit.networking.endpointslice.EndpointSliceController}); and the mirroring of the
 * Endpoints objects of Services without a selector into slices
 * ({@link io.fleetkit.networking.endpointslice.EndpointSliceMirroringReconciler}, the planner, and
 * {@link io.fleetkit.networking.endpointslice.EndpointSliceMirroringController}), as kube-controller-manager's
 * {@code endpointslicemirroring}.
 *
 * <p>Planners are thread-safe (their per-Service memo, a speed-up only, is locked per Service); the controller
 * follows the reconcile runtime's threading rules.
 */
@NullMarked
package io.fleetkit.networking.endpointslice;

import org.jspecify.annotations.NullMarked;
