package io.fleetkit.networking.loadbalancer;

import io.fleetkit.api.core.LoadBalancerStatus;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Service;
import java.util.List;
import java.util.Optional;

/**
 * The cloud's side of a Service's load balancer ({@code cloudprovider.LoadBalancer}): what the service controller
 * asks of it. A provider names each load balancer after the Service's uid ({@link #defaultName}), so a Service deleted
 * and created again under the same name gets another one. Implementations are called from the controller's worker and
 * must be thread-safe if shared.
 */
public interface LoadBalancerProvider {
  /**
   * {@code GetLoadBalancer}: the status of {@code service}'s load balancer, or empty when it has none.
   *
   * @throws LoadBalancerException when the provider cannot tell
   */
  Optional<LoadBalancerStatus> get(Service service);

  /**
   * {@code EnsureLoadBalancer}: creates {@code service}'s load balancer, or brings it in line with the Service's spec
   * and {@code nodes} (the backends: the nodes that pass {@link LoadBalancerRules#inStableNodeSet}), and returns its
   * status.
   *
   * @throws LoadBalancerException when it cannot
   */
  LoadBalancerStatus ensure(Service service, List<Node> nodes);

  /**
   * {@code UpdateLoadBalancer}: points {@code service}'s existing load balancer at {@code nodes}.
   *
   * @throws LoadBalancerException when it cannot (e.g. the load balancer is gone)
   */
  void update(Service service, List<Node> nodes);

  /**
   * {@code EnsureLoadBalancerDeleted}: deletes {@code service}'s load balancer; nothing when it has none.
   *
   * @throws LoadBalancerException when it cannot
   */
  void ensureDeleted(Service service);

  /**
   * {@code cloudprovider.DefaultLoadBalancerName}: {@code "a"} followed by the Service's uid without dashes, cut to 32
   * characters.
   */
  static String defaultName(Service service) {
    String name = "a" + service.metadata().uid().replace("-", "");
    return name.length() > 32 ? name.substring(0, 32) : name;
  }
}
