/**
 * Discovery kinds ({@code discovery.k8s.io/v1}): {@link io.fleetkit.api.discovery.EndpointSlice} and its parts,
 * the network endpoints that back a Service. Immutable records validated in the constructor of
 * {@link io.fleetkit.api.discovery.EndpointSlice} (every violation reported at once); thread-safe.
 */
@NullMarked
package io.fleetkit.api.discovery;

import org.jspecify.annotations.NullMarked;
