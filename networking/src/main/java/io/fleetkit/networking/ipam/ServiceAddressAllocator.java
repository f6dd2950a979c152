package io.fleetkit.networking.ipam;

import io.fleetkit.api.ValidationException;
import io.fleetkit.api.Violation;
import io.fleetkit.api.core.IPFamily;
import io.fleetkit.api.core.IPFamilyPolicy;
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
 * Gives Services their cluster IPs and node ports as the apiserver's Service registry does: {@code ipFamilyPolicy}
 * is defaulted and, with the families the Service names or its requested addresses imply, decides the families it
 * gets (one, or both on a dual-stack cluster), as upstream's {@code initIPFamilyFields}; an explicit
 * {@code clusterIP}/{@code clusterIPs} is honoured or refused with a clear error, a missing one gets a free address of
 * its family, {@code None} stays headless, ExternalName Services get nothing; NodePort ports, and LoadBalancer ports
 * unless {@code allocateLoadBalancerNodePorts} is false, get a node port (explicit ones checked), and a LoadBalancer
 * Service with {@code externalTrafficPolicy: Local} its {@code healthCheckNodePort} from the same range. All or nothing: a
 * refused Service leaves no address taken. Addresses stay taken until {@link #release}. Thread-safe.
 */
public final class ServiceAddressAllocator {
  private final ServiceIpRange primary;
  private final @Nullable ServiceIpRange secondary;
  private final PortRange nodePorts;
  private final Map<String, Held> held = new HashMap<>();

  private static final String POLICY = "spec.ipFamilyPolicy";

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
      if (spec.type() != ServiceType.ExternalName) {
        Families f = families(service);
        b.ipFamilyPolicy(f.policy()).ipFamilies(f.families());
        if (spec.headless()) {
          b.clusterIPs(List.of(ServiceSpec.CLUSTER_IP_NONE));
        } else {
          List<String> ips = allocateIps(who, requestedIps(spec), f.families(), takenIps);
          b.clusterIP(ips.get(0)).clusterIPs(ips);
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
          } else if (spec.allocatesNodePorts()) {
            try {
              np = nodePorts.allocateNext();
            } catch (AllocationException e) {
              throw invalid(who, "spec.ports[" + i + "].nodePort", null, "failed to allocate a node port: "
                  + e.getMessage());
            }
          } else {
            ports.add(p); // allocateLoadBalancerNodePorts: false, and no node port asked for
            continue;
          }
          takenPorts.add(np);
          ports.add(p.withNodePort(np));
        }
        b.ports(ports);
      }
      if (spec.needsHealthCheck()) {
        b.healthCheckNodePort(healthCheckNodePort(who, spec.healthCheckNodePort(), takenPorts));
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

  /** The policy and families a Service gets: upstream's {@code initIPFamilyFields} on create. */
  private record Families(IPFamilyPolicy policy, List<IPFamily> families) {}

  /**
   * Upstream's {@code initIPFamilyFields} for a new Service: an unset {@code ipFamilyPolicy} becomes
   * {@code RequireDualStack} for a headless Service without selector, else {@code SingleStack}; SingleStack refuses
   * two addresses or families; the families of requested addresses are added to {@code ipFamilies}; a headless
   * Service without selector gets the primary family and, unless SingleStack, the other one, whatever the cluster
   * serves; otherwise RequireDualStack needs a dual-stack cluster, every family must be served, no family means the
   * primary one, and a policy other than SingleStack on a dual-stack cluster adds the other family.
   */
  private Families families(Service service) {
    ServiceSpec spec = service.spec();
    String who = service.describe();
    boolean headlessSelectorless = spec.headless() && spec.selector().isEmpty();
    IPFamilyPolicy policy = spec.ipFamilyPolicy();
    if (policy == null) {
      policy = headlessSelectorless ? IPFamilyPolicy.RequireDualStack : IPFamilyPolicy.SingleStack;
    }
    List<Violation> problems = new ArrayList<>();
    List<String> requested = requestedIps(spec);
    List<IPFamily> families = new ArrayList<>(spec.ipFamilies());
    if (policy == IPFamilyPolicy.SingleStack) {
      if (requested.size() == 2) {
        problems.add(violation(who, POLICY, policy.name(),
            "must be 'RequireDualStack' or 'PreferDualStack' when multiple cluster IPs are specified"));
      }
      if (families.size() == 2) {
        problems.add(violation(who, POLICY, policy.name(),
            "must be 'RequireDualStack' or 'PreferDualStack' when multiple IP families are specified"));
      }
    }
    for (int i = 0; i < requested.size(); i++) {
      String ip = requested.get(i);
      if (ip.equals(ServiceSpec.CLUSTER_IP_NONE)) {
        break;
      }
      IPFamily family = IPFamily.of(ip);
      if (i >= families.size()) {
        if (rangeFor(family) == null) {
          problems.add(violation(who, "spec.clusterIPs[" + i + "]", requested.toString(),
              family + " is not configured on this cluster"));
        } else {
          families.add(family);
        }
      }
    }
    throwIfAny(problems);
    if (headlessSelectorless) {
      if (families.isEmpty()) {
        families.add(primary.family());
      }
      if (families.size() < 2 && policy != IPFamilyPolicy.SingleStack) {
        families.add(families.get(0).other());
      }
      return new Families(policy, families);
    }
    if (policy == IPFamilyPolicy.RequireDualStack && secondary == null) {
      problems.add(violation(who, POLICY, policy.name(), "this cluster is not configured for dual-stack services"));
    }
    for (int i = 0; i < families.size(); i++) {
      if (rangeFor(families.get(i)) == null) {
        problems.add(violation(who, "spec.ipFamilies[" + i + "]", families.get(i).name(),
            "not configured on this cluster"));
      }
    }
    throwIfAny(problems);
    if (families.isEmpty()) {
      families.add(primary.family());
    }
    if (policy != IPFamilyPolicy.SingleStack && families.size() == 1 && secondary != null) {
      families.add(families.get(0).other());
    }
    return new Families(policy, families);
  }

  /** {@code clusterIPs}, else {@code [clusterIP]}, else nothing. */
  private static List<String> requestedIps(ServiceSpec spec) {
    return !spec.clusterIPs().isEmpty() ? spec.clusterIPs()
        : spec.clusterIP().isEmpty() ? List.of() : List.of(spec.clusterIP());
  }

  /** An address of each family: the requested one at its index, else the next free one of the family's range. */
  private List<String> allocateIps(String who, List<String> requested, List<IPFamily> families,
      List<IpAddress> taken) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < families.size(); i++) {
      IPFamily f = families.get(i);
      ServiceIpRange range = Objects.requireNonNull(rangeFor(f), "range of a checked family");
      if (i < requested.size()) {
        IpAddress ip = IpAddress.parseSloppy(requested.get(i)); // a legacy field: ParseIPSloppy
        if (ip.family() != f) {
          throw invalid(who, "spec.clusterIPs[" + i + "]", requested.get(i), "must be of family " + f);
        }
        try {
          range.allocate(ip);
        } catch (AllocationException e) {
          throw invalid(who, "spec.clusterIPs", requested.toString(), "failed to allocate IP " + ip + ": "
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

  private static void throwIfAny(List<Violation> problems) {
    if (!problems.isEmpty()) {
      throw new ValidationException(problems);
    }
  }

  private void releaseIp(IpAddress ip) {
    ServiceIpRange r = rangeFor(ip.family());
    if (r != null) {
      r.release(ip);
    }
  }

  private static ValidationException invalid(String who, String field, @Nullable String value, String rule) {
    return new ValidationException(violation(who, field, value, rule));
  }

  private static Violation violation(String who, String field, @Nullable String value, String rule) {
    return new Violation(who, field, "Invalid value: " + rule, value);
  }

  /** Frees what {@link #allocate} took for the Service {@code namespace/name}; unknown Services are ignored. */
  public synchronized void release(String namespace, String name) {
    Held h = held.remove(namespace.isEmpty() ? name : namespace + "/" + name);
    if (h != null) {
      h.ips().forEach(this::releaseIp);
      h.ports().forEach(nodePorts::release);
    }
  }

  /**
   * A cluster IP a Service asks for that cannot be taken: its family has no range here ({@code range} and
   * {@code reason} null), or the family's range refused it ({@code NOT_IN_RANGE} or {@code ALREADY_ALLOCATED}).
   */
  record Refusal(IpAddress ip, @Nullable ServiceIpRange range, AllocationException.@Nullable Reason reason) {}

  /**
   * The cluster IPs {@code service} names ({@code clusterIPs}, else {@code clusterIP}) that {@link #allocate} could
   * not take now, each tried and given back at once, as the apiserver's repair loop checks a stored Service's
   * addresses against the ranges it rebuilds ({@code repair.go}); text that is no address is skipped (the
   * Service's validation refuses it). Empty for a Service without addresses or a headless or ExternalName one.
   */
  synchronized List<Refusal> refusedClusterIps(Service service) {
    ServiceSpec spec = service.spec();
    List<Refusal> out = new ArrayList<>();
    if (spec.type() == ServiceType.ExternalName || spec.headless()) {
      return out;
    }
    for (String text : requestedIps(spec)) {
      IpAddress ip = text.isEmpty() ? null : IpAddress.tryParseSloppy(text);
      if (ip == null) {
        continue;
      }
      ServiceIpRange range = rangeFor(ip.family());
      if (range == null) {
        out.add(new Refusal(ip, null, null));
        continue;
      }
      try {
        range.allocate(ip);
        range.release(ip);
      } catch (AllocationException e) {
        out.add(new Refusal(ip, range, e.reason()));
      }
    }
    return out;
  }

  /** Whether addresses are held for {@code namespace/name}. */
  public synchronized boolean holds(String namespace, String name) {
    return held.containsKey(namespace + "/" + name);
  }

  /**
   * The health-check node port of a LoadBalancer Service with {@code externalTrafficPolicy: Local}: the one it names,
   * else the next free node port (upstream's {@code allocHealthCheckNodePort}); recorded in {@code taken}.
   */
  private int healthCheckNodePort(String who, @Nullable Integer requested, List<Integer> taken) {
    int port;
    try {
      if (requested != null) {
        nodePorts.allocate(requested);
        port = requested;
      } else {
        port = nodePorts.allocateNext();
      }
    } catch (AllocationException e) {
      throw invalid(who, "spec.healthCheckNodePort", requested == null ? null : Integer.toString(requested),
          (requested == null ? "failed to allocate a HealthCheck NodePort: "
              : "failed to allocate requested HealthCheck NodePort " + requested + ": ") + e.getMessage());
    }
    taken.add(port);
    return port;
  }
}
