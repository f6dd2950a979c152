package com.example.fleetkit;

import io.fleetkit.api.core.LoadBalancerIngress;
import io.fleetkit.api.core.LoadBalancerStatus;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Service;
import io.fleetkit.api.core.ServicePort;
import io.fleetkit.api.core.ServiceProtocol;
import io.fleetkit.api.core.ServiceSpec;
import io.fleetkit.api.core.ServiceTargetPort;
import io.fleetkit.api.core.ServiceType;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.networking.loadbalancer.LoadBalancerException;
import io.fleetkit.networking.loadbalancer.LoadBalancerProvider;
import io.fleetkit.networking.loadbalancer.ServiceLoadBalancerController;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A cloud's load balancers behind FleetKit's service controller. The embedder implements {@link LoadBalancerProvider}
 * against its cloud's API (here {@link Cloud}, an in-memory stand-in); {@link ServiceLoadBalancerController} keeps
 * each {@code LoadBalancer} Service's balancer, backends and {@code status.loadBalancer} in line with the store, as a
 * cloud provider's service controller does in Kubernetes.
 */
public final class CloudLoadBalancerSample {
  private CloudLoadBalancerSample() {}

  /** The cloud's API as the sample sees it: load balancers by name, each with an address and backend nodes. */
  static final class Cloud {
    final Map<String, List<String>> backends = new TreeMap<>();
    final Map<String, String> addresses = new TreeMap<>();
    private int next = 10;

    synchronized String create(String name, List<String> nodes) {
      String address = addresses.computeIfAbsent(name, n -> "198.51.100." + next++);
      backends.put(name, List.copyOf(nodes));
      return address;
    }
  }

  /** The provider: one cloud load balancer per Service, named after the Service's uid. */
  static final class CloudLoadBalancers implements LoadBalancerProvider {
    private final Cloud cloud;

    CloudLoadBalancers(Cloud cloud) {
      this.cloud = cloud;
    }

    @Override
    public Optional<LoadBalancerStatus> get(Service service) {
      String address = cloud.addresses.get(LoadBalancerProvider.defaultName(service));
      return Optional.ofNullable(address).map(a -> new LoadBalancerStatus(List.of(LoadBalancerIngress.ofIp(a))));
    }

    @Override
    public LoadBalancerStatus ensure(Service service, List<Node> nodes) {
      String address = cloud.create(LoadBalancerProvider.defaultName(service), names(nodes));
      return new LoadBalancerStatus(List.of(LoadBalancerIngress.ofIp(address)));
    }

    @Override
    public void update(Service service, List<Node> nodes) {
      String name = LoadBalancerProvider.defaultName(service);
      if (!cloud.backends.containsKey(name)) {
        throw new LoadBalancerException("load balancer " + name + " of " + service.metadata().key() + " is gone");
      }
      cloud.backends.put(name, names(nodes));
    }

    @Override
    public void ensureDeleted(Service service) {
      String name = LoadBalancerProvider.defaultName(service);
      cloud.backends.remove(name);
      cloud.addresses.remove(name);
    }

    private static List<String> names(List<Node> nodes) {
      return nodes.stream().map(Node::name).sorted().toList();
    }
  }

  public static void main(String[] args) {
    Cloud cloud = new Cloud();
    try (ObjectStore store = ObjectStore.builder().directDelivery().build();
        ServiceLoadBalancerController controller = ServiceLoadBalancerController.builder(store)
            .provider(new CloudLoadBalancers(cloud)).stepping().build()) {
      store.create(Node.builder().name("node-a").ready().build());
      store.create(Node.builder().name("node-b").ready().build());
      ServicePort http = new ServicePort("http", ServiceProtocol.TCP, 80, ServiceTargetPort.of(8080), null);
      store.create(Service.of(ObjectMeta.builder().namespace("shop").name("web").build(),
          ServiceSpec.builder().type(ServiceType.LoadBalancer).port(http).build()));
      controller.start().join();
      controller.runUntilIdle();
      print(store, cloud);

      // node-b leaves every load balancer's backends (as a drain does before a node goes)
      Node b = store.require(Node.class, "", "node-b");
      store.update(b.toBuilder().label(Node.LABEL_EXCLUDE_FROM_EXTERNAL_LOAD_BALANCERS, "true").build());
      controller.runUntilIdle();
      print(store, cloud);

      // deleting the Service: its cleanup finalizer holds it until the cloud's load balancer is deleted
      store.delete(Service.class, "shop", "web");
      controller.runUntilIdle();
      print(store, cloud);
    }
  }

  private static void print(ObjectStore store, Cloud cloud) {
    Optional<Service> web = store.get(Service.class, "shop", "web");
    String status = web.map(s -> s.status().loadBalancer() == null ? "no address"
        : "at " + s.status().loadBalancer().ingress().get(0).ip()).orElse("deleted");
    System.out.println("shop/web " + status + "; cloud load balancers " + cloud.backends.values());
  }
}
