/**
 * Service networking as a library, with the semantics of kube-controller-manager, kube-proxy and CoreDNS:
 * address allocation ({@link io.fleetkit.networking.ipam}), EndpointSlices
 * ({@link io.fleetkit.networking.endpointslice}), cluster DNS records and a DNS server
 * ({@link io.fleetkit.networking.dns}), endpoint choice ({@link io.fleetkit.networking.lb}) and HTTP routing
 * ({@link io.fleetkit.networking.routing}).
 */
@NullMarked
package io.fleetkit.networking;

import org.jspecify.annotations.NullMarked;
