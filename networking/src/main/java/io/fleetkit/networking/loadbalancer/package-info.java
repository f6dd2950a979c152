/**
 * Load balancers for Services of type {@code LoadBalancer}, as a cloud provider's service controller
 * ({@code k8s.io/cloud-provider/controllers/service}) runs them: {@link
 * io.fleetkit.networking.loadbalancer.ServiceLoadBalancerController} ensures a load balancer for each Service that
 * wants one from a {@link io.fleetkit.networking.loadbalancer.LoadBalancerProvider} (the cloud's side), writes its
 * address to {@code status.loadBalancer}, keeps its backend nodes in step with the cluster's nodes, and deletes it
 * behind the {@value io.fleetkit.api.core.Service#LOAD_BALANCER_CLEANUP_FINALIZER} finalizer. The controller's
 * decisions are upstream's rules in {@link io.fleetkit.networking.loadbalancer.LoadBalancerRules};
 * {@link io.fleetkit.networking.loadbalancer.AddressPoolLoadBalancers} is a provider that gives each load balancer an
 * address of a pool, as MetalLB or a simulated cloud does.
 *
 * <p>The rules are pure functions; the pool provider is thread-safe; the controller follows the reconcile runtime's
 * threading.
 */
@NullMarked
package io.fleetkit.networking.loadbalancer;

import org.jspecify.annotations.NullMarked;
