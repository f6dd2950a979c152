/**
 * Gateway API kinds ({@code gateway.networking.k8s.io/v1}): {@link io.fleetkit.api.gateway.GatewayClass},
 * {@link io.fleetkit.api.gateway.Gateway} with its listeners, {@link io.fleetkit.api.gateway.HTTPRoute} and its
 * parts (matches, backends, timeouts, and the filters {@link io.fleetkit.api.gateway.HTTPRouteFilter} of rules and
 * backends: request and response header modifiers, redirects, URL rewrites, request mirrors, CORS), and {@link io.fleetkit.api.gateway.ReferenceGrant}; the status a Gateway controller writes
 * ({@link io.fleetkit.api.gateway.GatewayClassStatus}, {@link io.fleetkit.api.gateway.GatewayStatus},
 * {@link io.fleetkit.api.gateway.HTTPRouteStatus}). Immutable records
 * validated in their constructors (every violation reported at once); thread-safe.
 */
@NullMarked
package io.fleetkit.api.gateway;

import org.jspecify.annotations.NullMarked;
