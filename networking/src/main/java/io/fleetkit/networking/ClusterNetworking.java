package io.fleetkit.networking;

import io.fleetkit.api.events.EventRecorder;
import io.fleetkit.networking.endpointslice.EndpointSliceController;
import io.fleetkit.networking.endpointslice.EndpointSliceMirroringController;
import io.fleetkit.networking.gateway.GatewayStatusController;
import io.fleetkit.networking.ipam.CidrSet;
import io.fleetkit.networking.ipam.IpPrefix;
import io.fleetkit.networking.ipam.NodeIpamController;
import io.fleetkit.networking.ipam.PodAddressController;
import io.fleetkit.networking.ipam.PortRange;
import io.fleetkit.networking.ipam.ServiceAddressAllocator;
import io.fleetkit.networking.ipam.ServiceAddressController;
import io.fleetkit.networking.ipam.ServiceIpRange;
import io.fleetkit.networking.loadbalancer.AddressPoolLoadBalancers;
import io.fleetkit.networking.loadbalancer.ServiceLoadBalancerController;
import io.fleetkit.reconcile.SimulatedController;
import java.util.List;
import java.util.Objects;
import java.util.Random;

/**
 * A cluster's networking settings and the controllers that apply them: node IPAM (pod CIDRs from
 * {@link #clusterCidr}), pod IPs from the node's CIDR, Service cluster IPs (from {@link #serviceCidr}) and node
 * ports, EndpointSlices (from pods, and mirrored from the Endpoints objects of Services without a selector), and the
 * Gateway API's status (GatewayClasses of
 * {@value GatewayStatusController#DEFAULT_CONTROLLER_NAME}, their Gateways and the HTTPRoutes attached to them), and
 * the load balancers of LoadBalancer Services (addresses of {@link #loadBalancerCidr}, as a cloud's service controller
 * gives them). {@link #simulatedControllers()} plugs them into a {@code Simulation}. Immutable.
 *
 * @param serviceCidr {@code --service-cluster-ip-range}
 * @param clusterCidr {@code --cluster-cidr}
 * @param nodeMaskSize {@code --node-cidr-mask-size}
 * @param loadBalancerCidr the pool the load balancers' addresses come from
 */
public record ClusterNetworking(String serviceCidr, String clusterCidr, int nodeMaskSize, String loadBalancerCidr) {
  public static final String DEFAULT_SERVICE_CIDR = "10.96.0.0/16";
  public static final String DEFAULT_CLUSTER_CIDR = "10.244.0.0/16";
  /** The documentation range TEST-NET-3 (RFC 5737): 254 load balancer addresses that route nowhere. */
  public static final String DEFAULT_LOAD_BALANCER_CIDR = "203.0.113.0/24";

  /**
   * @throws IllegalArgumentException naming the setting when a CIDR does not parse or the mask does not fit
   */
  public ClusterNetworking {
    Objects.requireNonNull(serviceCidr, "serviceCidr");
    Objects.requireNonNull(clusterCidr, "clusterCidr");
    Objects.requireNonNull(loadBalancerCidr, "loadBalancerCidr");
    ServiceIpRange.of(serviceCidr, new Random(0));
    new CidrSet(parse("cluster CIDR", clusterCidr), nodeMaskSize);
    new AddressPoolLoadBalancers(loadBalancerCidr);
  }

  /**
   * kubeadm-like defaults: services 10.96.0.0/16, pods 10.244.0.0/16 in /24 per node; load balancers from
   * {@value #DEFAULT_LOAD_BALANCER_CIDR}.
   */
  public static ClusterNetworking defaults() {
    return new ClusterNetworking(DEFAULT_SERVICE_CIDR, DEFAULT_CLUSTER_CIDR, CidrSet.DEFAULT_IPV4_MASK,
        DEFAULT_LOAD_BALANCER_CIDR);
  }

  private static IpPrefix parse(String what, String cidr) {
    try {
      return IpPrefix.parse(cidr);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(what + ": " + e.getMessage(), e);
    }
  }

  /** {@link #simulatedControllers(EventRecorder)} whose events go nowhere. */
  public List<SimulatedController.Factory> simulatedControllers() {
    return simulatedControllers(EventRecorder.NOOP);
  }

  /**
   * The seven networking controllers for a simulation, seeded by the simulation's seed: {@code node-ipam},
   * {@code pod-addresses}, {@code service-addresses}, {@code endpointslice}, {@code endpointslice-mirroring} (the
   * slices of Services without a selector, from their Endpoints objects), {@code gateway-status} (whose
   * conditions' {@code lastTransitionTime} is the simulation's clock) and {@code service-lb} (each simulation a pool
   * of {@link #loadBalancerCidr} of its own), whose events go to {@code events}.
   */
  public List<SimulatedController.Factory> simulatedControllers(EventRecorder events) {
    Objects.requireNonNull(events, "events");
    return List.of(
        (store, clock, seed) -> {
          NodeIpamController c = new NodeIpamController(store, List.of(new CidrSet(IpPrefix.parse(clusterCidr),
              nodeMaskSize)), IpPrefix.parse(serviceCidr), true);
          return SimulatedController.of("node-ipam", () -> c.start().join(), c::runUntilIdle, c);
        },
        (store, clock, seed) -> {
          PodAddressController c = new PodAddressController(store, true);
          return SimulatedController.of("pod-addresses", () -> c.start().join(), c::runUntilIdle, c);
        },
        (store, clock, seed) -> {
          ServiceAddressAllocator a = new ServiceAddressAllocator(ServiceIpRange.of(serviceCidr, new Random(seed)),
              null, PortRange.defaultRange(new Random(seed + 1)));
          ServiceAddressController c = new ServiceAddressController(store, a, true);
          return SimulatedController.of("service-addresses", () -> c.start().join(), c::runUntilIdle, c);
        },
        (store, clock, seed) -> {
          EndpointSliceController c = EndpointSliceController.builder(store).clock(clock).seed(seed).stepping()
              .build();
          return SimulatedController.of("endpointslice", () -> c.start().join(), c::runUntilIdle, c);
        },
        (store, clock, seed) -> {
          EndpointSliceMirroringController c = EndpointSliceMirroringController.builder(store).clock(clock)
              .seed(seed).stepping().build();
          return SimulatedController.of("endpointslice-mirroring", () -> c.start().join(), c::runUntilIdle, c);
        },
        (store, clock, seed) -> {
          GatewayStatusController c = GatewayStatusController.builder(store).clock(clock).stepping().build();
          return SimulatedController.of("gateway-status", () -> c.start().join(), c::runUntilIdle, c);
        },
        (store, clock, seed) -> {
          ServiceLoadBalancerController c = ServiceLoadBalancerController.builder(store)
              .provider(new AddressPoolLoadBalancers(loadBalancerCidr)).clock(clock).events(events).stepping().build();
          return SimulatedController.of("service-lb", () -> c.start().join(), c::runUntilIdle, c);
        });
  }
}
