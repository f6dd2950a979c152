/**
 * HTTP routing decisions: which backend a request reaches through Ingresses ({@link
 * io.fleetkit.networking.routing.IngressRouter}, with IngressClass defaulting) and Gateway API HTTPRoutes ({@link
 * io.fleetkit.networking.routing.HttpRouteRouter}, {@link io.fleetkit.networking.routing.GatewayRouter});
 * {@link io.fleetkit.networking.routing.Router} asks both. A {@link io.fleetkit.networking.routing.RouteResult} also
 * says what an HTTPRoute rule's filters do to the request: the request the backend receives (URL rewrite, request
 * header changes), the {@link io.fleetkit.networking.routing.Redirect} answered instead, the
 * {@link io.fleetkit.networking.routing.HeaderModifier} applied to the response, the
 * {@link io.fleetkit.networking.routing.Mirror}s sent elsewhere and the {@link io.fleetkit.networking.routing.Cors}
 * answer, for the chosen backend and for each backend of the rule. Pure functions over immutable snapshots;
 * thread-safe.
 */
@NullMarked
package io.fleetkit.networking.routing;

import org.jspecify.annotations.NullMarked;
