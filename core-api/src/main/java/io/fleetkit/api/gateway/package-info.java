/**
 * Gateway API kinds ({@code gateway.networking.k8s.io/v1}): {@link io.fleetkit.api.gateway.HTTPRoute} and its parts.
 * Immutable records validated in {@link io.fleetkit.api.gateway.HTTPRoute}'s constructor (every violation reported
 * at once); thread-safe.
 */
@NullMarked
package io.fleetkit.api.gateway;

import org.jspecify.annotations.NullMarked;
