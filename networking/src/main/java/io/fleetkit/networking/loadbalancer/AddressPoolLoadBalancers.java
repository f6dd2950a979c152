package io.fleetkit.networking.loadbalancer;

import io.fleetkit.api.core.LoadBalancerIngress;
import io.fleetkit.api.core.LoadBalancerStatus;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Service;
import io.fleetkit.api.core.ServicePort;
import io.fleetkit.networking.ipam.IpAddress;
import io.fleetkit.networking.ipam.IpPrefix;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A {@link LoadBalancerProvider} that gives each load balancer one address of a pool, as MetalLB's layer-2 mode or a
 * simulated cloud does: the lowest free address, or the one a Service asks for in {@code spec.loadBalancerIP}. The
 * pool is a CIDR; of an IPv4 pool the network and broadcast addresses are never given, and an IPv6 pool is capped at
 * its first 65,536 addresses. A load balancer keeps its address until it is deleted or its Service asks for another;
 * it records its ports and backend nodes. Thread-safe.
 */
public final class AddressPoolLoadBalancers implements LoadBalancerProvider {
  private static final int IPV6_CAP = 65536;

  private final IpPrefix pool;
  private final IpAddress first;
  private final int size;
  private final BitSet used = new BitSet();
  private final Map<String, Balancer> balancers = new HashMap<>();

  /** One load balancer: its address, ports and backends. */
  private record Balancer(IpAddress address, List<ServicePort> ports, List<String> hosts) {}

  /**
   * @param cidr the pool, e.g. {@code 203.0.113.0/24}
   * @throws IllegalArgumentException naming the pool when {@code cidr} does not parse or holds no usable address
   */
  public AddressPoolLoadBalancers(String cidr) {
    Objects.requireNonNull(cidr, "cidr");
    try {
      this.pool = IpPrefix.parse(cidr);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("load balancer address pool: " + e.getMessage(), e);
    }
    boolean v4 = pool.family() == io.fleetkit.api.core.IPFamily.IPv4;
    BigInteger usable = v4 ? pool.size().subtract(BigInteger.TWO) : pool.size().subtract(BigInteger.ONE);
    if (usable.signum() <= 0) {
      throw new IllegalArgumentException("load balancer address pool " + cidr + " holds no usable address");
    }
    this.first = pool.network().plus(1);
    this.size = usable.min(BigInteger.valueOf(IPV6_CAP)).intValueExact();
  }

  /** The pool. */
  public IpPrefix pool() {
    return pool;
  }

  @Override
  public synchronized Optional<LoadBalancerStatus> get(Service service) {
    Balancer b = balancers.get(LoadBalancerProvider.defaultName(service));
    return b == null ? Optional.empty() : Optional.of(status(b));
  }

  @Override
  public synchronized LoadBalancerStatus ensure(Service service, List<Node> nodes) {
    String name = LoadBalancerProvider.defaultName(service);
    Balancer b = balancers.get(name);
    String requested = service.spec().loadBalancerIP();
    IpAddress address;
    if (b != null && (requested.isEmpty() || b.address().toString().equals(requested))) {
      address = b.address();
    } else {
      address = requested.isEmpty() ? lowestFree(service) : take(service, requested);
      if (b != null) {
        used.clear(index(b.address()));
      }
    }
    b = new Balancer(address, service.spec().ports(), names(nodes));
    balancers.put(name, b);
    return status(b);
  }

  @Override
  public synchronized void update(Service service, List<Node> nodes) {
    String name = LoadBalancerProvider.defaultName(service);
    Balancer b = balancers.get(name);
    if (b == null) {
      throw new LoadBalancerException("load balancer " + name + " of Service " + key(service) + " does not exist");
    }
    balancers.put(name, new Balancer(b.address(), b.ports(), names(nodes)));
  }

  @Override
  public synchronized void ensureDeleted(Service service) {
    Balancer b = balancers.remove(LoadBalancerProvider.defaultName(service));
    if (b != null) {
      used.clear(index(b.address()));
    }
  }

  /** The backend nodes of {@code service}'s load balancer, by name, or empty when it has none. */
  public synchronized Optional<List<String>> hosts(Service service) {
    Balancer b = balancers.get(LoadBalancerProvider.defaultName(service));
    return b == null ? Optional.empty() : Optional.of(b.hosts());
  }

  /** How many addresses of the pool are in use. */
  public synchronized int inUse() {
    return used.cardinality();
  }

  private IpAddress lowestFree(Service service) {
    int i = used.nextClearBit(0);
    if (i >= size) {
      throw new LoadBalancerException("no address left in the load balancer address pool " + pool + " ("
          + size + " addresses in use) for Service " + key(service));
    }
    used.set(i);
    return first.plus(i);
  }

  private IpAddress take(Service service, String requested) {
    IpAddress ip = IpAddress.tryParseSloppy(requested); // a legacy field: ParseIPSloppy
    int i = ip == null ? -1 : index(ip);
    if (i < 0) {
      throw new LoadBalancerException("Service " + key(service) + ": spec.loadBalancerIP \"" + requested
          + "\" is not an address of the load balancer address pool " + pool);
    }
    if (used.get(i)) {
      throw new LoadBalancerException("Service " + key(service) + ": spec.loadBalancerIP \"" + requested
          + "\" is in use by another load balancer");
    }
    used.set(i);
    return ip;
  }

  private int index(IpAddress ip) {
    if (ip.family() != pool.family()) {
      return -1;
    }
    BigInteger d = ip.value().subtract(first.value());
    return d.signum() < 0 || d.compareTo(BigInteger.valueOf(size)) >= 0 ? -1 : d.intValue();
  }

  private static LoadBalancerStatus status(Balancer b) {
    return new LoadBalancerStatus(List.of(LoadBalancerIngress.ofIp(b.address().toString())));
  }

  private static List<String> names(List<Node> nodes) {
    List<String> out = new ArrayList<>(nodes.size());
    for (Node n : nodes) {
      out.add(n.name());
    }
    return List.copyOf(out);
  }

  private static String key(Service s) {
    return s.metadata().namespace() + "/" + s.metadata().name();
  }

  @Override
  public synchronized String toString() {
    return "AddressPoolLoadBalancers[" + pool + ", " + balancers.size() + " load balancers]";
  }
}
