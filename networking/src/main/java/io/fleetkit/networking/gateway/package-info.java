/**
 * The Gateway API's control-plane half: which HTTPRoutes attach to which Gateway listeners
 * ({@link io.fleetkit.networking.gateway.GatewayAttachment}), with the status a Gateway controller writes (listener
 * conditions and attached-route counts, route parent conditions with upstream's reasons), hostname intersection
 * ({@link io.fleetkit.networking.gateway.Hostnames}) and backend reference resolution. Results are immutable
 * values; computing them is a pure function of the objects given, so instances are thread-safe.
 */
@NullMarked
package io.fleetkit.networking.gateway;

import org.jspecify.annotations.NullMarked;
