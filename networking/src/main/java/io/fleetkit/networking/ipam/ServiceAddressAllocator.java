package io.fleetkit.networking.ipam;

import io.fleetkit.api.ValidationException;
import io.fleetkit.api.Violation;
import io.fleetkit.api.core.IPFamily;
import io.fleetkit.api.core.Service;
import io.fleetkit.api.core.ServicePort;
import io.fleetkit.api.core.ServiceSpec;
import io.fleetkit.api.core.ServiceType;
import io.fleetkit.api.meta.ObjectMeta;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Gives Services their cluster IPs and node ports as the apiserver's Service registry does: an explicit
 * {@code clusterIP}/{@code clusterIPs} is honoured or refused with a clear error, an empty one gets a free address
 * of each family in {@code ipFamilies} (the primary range's family when none), {@code None} stays headless,
 * ExternalName Services get nothing; NodePort and LoadBalancer ports get a node port (explicit ones checked). All or
 * nothing: a refused Service leaves no address taken. Addresses stay taken until {@link #release}. Thread-safe.
 */
public final class ServiceAddressAllocator {
  private final ServiceIpRange primary;
  private final @Nullable ServiceIpRange secondary;
  private final PortRange nodePorts;
  private final Map<String, Held> held = new HashMap<>();

  private record Held(List<IpAddress> ips, List<Integer> ports) {}

  /**
   * @param secondary the other family's range for dual-stack clusters, or {@code null}
   * @throws IllegalArgumentException when both ranges have the same family
   */
  public ServiceAddressAllocator(ServiceIpRange primary, @Nullable ServiceIpRange secondary, PortRange nodePorts) {
    this.primary = Objects.requireNonNull(primary, "primary");
    this.secondary = secondary;
    this.nodePorts = Objects.requireNonNull(nodePorts, "nodePorts");
    if (secondary != null && secondary.family() == primary.family()) {
      throw new IllegalArgumentException("service CIDRs " + primary.cidr() + " and " + secondary.cidr()
          + " must be of different IP families");
    }
  }

  private @Nullable ServiceIpRange rangeFor(IPFamily f) {
    if (primary.family() == f) {
      return primary;
    }
    return secondary != null && secondary.family() == f ? secondary : null;
  }

  /**
   * The default {@code kubernetes} Service in {@code default}: the first address of the primary range, port
   * {@code https} 443 to {@code apiserverPort}; that address is taken.
   */
  public synchronized Service kubernetesService(int apiserverPort) {
    Service s = Service.of(ObjectMeta.builder().namespace("default").name("kubernetes")
        .label("component", "apiserver").label("provider", "kubernetes").build(),
        ServiceSpec.builder().port(ServicePort.of("https", 443, apiserverPort))
            .clusterIP(primary.first().toString()).build());
    return allocate(s);
  }

  /**
   * {@code service} with its addresses filled in, now taken.
   *
   * @throws ValidationException naming the Service and the field when an explicit address or port is taken, out
   *     of range or of a family the cluster does not serve, or when a range is full
   */
  public synchronized Service allocate(Service service) {
    String who = service.describe();
    String key = service.metadata().key();
    if (held.containsKey(key)) {
      throw new IllegalStateException(who + ": addresses already allocated; release them first");
    }
    ServiceSpec spec = service.spec();
    List<IpAddress> takenIps = new ArrayList<>();
    List<Integer> takenPorts = new ArrayList<>();
    try {
      ServiceSpec.Builder b = spec.toBuilder();
      if (spec.type() != ServiceType.ExternalName && !spec.headless()) {
        List<String> ips = allocateIps(service, takenIps);
        b.clusterIP(ips.get(0)).clusterIPs(ips);
        if (spec.ipFamilies().isEmpty()) {
          List<IPFamily> fams = new ArrayList<>();
          ips.forEach(ip -> fams.add(IPFamily.of(ip)));
          b.ipFamilies(fams);
        }
      } else if (spec.headless()) {
        b.clusterIPs(List.of(ServiceSpec.CLUSTER_IP_NONE));
        if (spec.ipFamilies().isEmpty()) {
          b.ipFamilies(List.of(primary.family())); // the apiserver's default for a headless Service
        }
      }
      if (spec.type() == ServiceType.NodePort || spec.type() == ServiceType.LoadBalancer) {
        List<ServicePort> ports = new ArrayList<>();
        for (int i = 0; i < spec.ports().size(); i++) {
          ServicePort p = spec.ports().get(i);
          Integer np = p.nodePort();
          if (np != null) {
            try {
              nodePorts.allocate(np);
            } catch (AllocationException e) {
              throw invalid(who, "spec.ports[" + i + "].nodePort", Integer.toString(np),
                  "failed to allocate port " + np + ": " + e.getMessage());
            }
          } else {
            try {
              np = nodePorts.allocateNext();
            } catch (AllocationException e) {
              throw invalid(who, "spec.ports[" + i + "].nodePort", null, "failed to allocate a node port: "
                  + e.getMessage());
            }
          }
          takenPorts.add(np);
          ports.add(p.withNodePort(np));
        }
        b.ports(ports);
      }
      Service out = service.withSpec(b.build());
      held.put(key, new Held(List.copyOf(takenIps), List.copyOf(takenPorts)));
      return out;
    } catch (RuntimeException e) {
      takenIps.forEach(this::releaseIp);
      takenPorts.forEach(nodePorts::release);
      throw e;
    }
  }

  private List<String> allocateIps(Service service, List<IpAddress> taken) {
    ServiceSpec spec = service.spec();
    String who = service.describe();
    List<String> explicit = !spec.clusterIPs().isEmpty() ? spec.clusterIPs()
        : spec.clusterIP().isEmpty() ? List.of() : List.of(spec.clusterIP());
    List<IPFamily> families = new ArrayList<>(spec.ipFamilies());
    if (families.isEmpty()) {
      explicit.forEach(ip -> families.add(IPFamily.of(ip)));
      if (families.isEmpty()) {
        families.add(primary.family());
      }
    }
    List<String> out = new ArrayList<>();
    for (int i = 0; i < families.size(); i++) {
      IPFamily f = families.get(i);
      ServiceIpRange range = rangeFor(f);
      if (range == null) {
        throw invalid(who, "spec.ipFamilies[" + i + "]", f.name(), "not configured on this cluster");
      }
      if (i < explicit.size()) {
        IpAddress ip = IpAddress.parse(explicit.get(i));
        if (ip.family() != f) {
          throw invalid(who, "spec.clusterIPs[" + i + "]", explicit.get(i), "must be of family " + f);
        }
        try {
          range.allocate(ip);
        } catch (AllocationException e) {
          throw invalid(who, "spec.clusterIPs", explicit.toString(), "failed to allocate IP " + ip + ": "
              + e.getMessage());
        }
        taken.add(ip);
        out.add(ip.toString());
      } else {
        try {
          IpAddress ip = range.allocateNext();
          taken.add(ip);
          out.add(ip.toString());
        } catch (AllocationException e) {
          throw invalid(who, "spec.clusterIPs", null, "failed to allocate a service IP: " + e.getMessage());
        }
      }
    }
    return out;
  }

  private void releaseIp(IpAddress ip) {
    ServiceIpRange r = rangeFor(ip.family());
    if (r != null) {
      r.release(ip);
    }
  }

  private static ValidationException invalid(String who, String field, @Nullable String value, String rule) {
    return new ValidationException(new Violation(who, field, "Invalid value: " + rule, value));
  }

  /** Frees what {@link #allocate} took for the Service {@code namespace/name}; unknown Services are ignored. */
  public synchronized void release(String namespace, String name) {
    Held h = held.remove(namespace.isEmpty() ? name : namespace + "/" + name);
    if (h != null) {
      h.ips().forEach(this::releaseIp);
      h.ports().forEach(nodePorts::release);
    }
  }

  /** Whether addresses are held for {@code namespace/name}. */
  public synchronized boolean holds(String namespace, String name) {
    return held.containsKey(namespace + "/" + name);
  }
}
