/**
 * The Gateway API's control-plane half: which HTTPRoutes attach to which Gateway listeners
 * ({@link io.fleetkit.networking.gateway.GatewayAttachment}), with the status a Gateway controller writes, as the API's
 * own status types of {@code io.fleetkit.api.gateway} (listener conditions and attached-route counts, route parent
 * conditions with upstream's reasons), hostname intersection
 * ({@link io.fleetkit.networking.gateway.Hostnames}) and the resolution of backend and certificate references.
 * {@link io.fleetkit.networking.gateway.GatewayStatusController} writes that status to a store's GatewayClasses,
 * Gateways and HTTPRoutes with each object's {@code observedGeneration}.
 *
 * <p>Thread safety: the computed results are immutable values (computing them is a pure function of the objects
 * given); the controller follows the reconcile runtime's threading (one worker, or stepping on the caller's thread).
 */
@NullMarked
package io.fleetkit.networking.gateway;

import org.jspecify.annotations.NullMarked;
