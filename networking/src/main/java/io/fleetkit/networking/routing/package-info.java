/**
 * HTTP routing decisions: which backend a request reaches through Ingresses ({@link
 * io.fleetkit.networking.routing.IngressRouter}, with IngressClass defaulting) and Gateway API HTTPRoutes ({@link
 * io.fleetkit.networking.routing.HttpRouteRouter}); {@link io.fleetkit.networking.routing.Router} asks both. Pure
 * functions over immutable snapshots; thread-safe.
 */
@NullMarked
package io.fleetkit.networking.routing;

import org.jspecify.annotations.NullMarked;
