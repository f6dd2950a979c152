/**
 * Endpoint choice as a library, with kube-proxy's rules: {@link io.fleetkit.networking.lb.EndpointCategorizer}
 * (ready first, serving-terminating as fallback, traffic policies, topology hints) and balancing policies
 * ({@link io.fleetkit.networking.lb.BalancingPolicy}: round robin, random, least request with two random choices,
 * weighted) with {@code ClientIP} session affinity ({@link io.fleetkit.networking.lb.ServiceBalancer}).
 *
 * <p>Values are immutable; policies and balancers are thread-safe.
 */
@NullMarked
package io.fleetkit.networking.lb;

import org.jspecify.annotations.NullMarked;
