package io.fleetkit.api.core;

import org.jspecify.annotations.Nullable;

/**
 * The observed state of a Service.
 *
 * @param loadBalancer the load balancer, {@code null} until one is provisioned (LoadBalancer Services only)
 */
public record ServiceStatus(@Nullable LoadBalancerStatus loadBalancer) {
  /** The status of a new Service. */
  public static final ServiceStatus EMPTY = new ServiceStatus(null);
}
