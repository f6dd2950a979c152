package io.fleetkit.networking.dns;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.core.Service;
import io.fleetkit.api.discovery.Endpoint;
import io.fleetkit.api.discovery.EndpointPort;
import io.fleetkit.api.discovery.EndpointSlice;
import io.fleetkit.networking.ipam.IpAddress;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * An immutable index of what cluster DNS serves: Services by namespace and name, the ready endpoints of each (from
 * its EndpointSlices, as CoreDNS reads them: an endpoint whose {@code ready} condition is true or unset), the pod IPs
 * of each namespace (for {@link PodsMode#VERIFIED}) and the known namespaces. Names are matched case-insensitively.
 * Thread-safe.
 */
public final class DnsSnapshot {
  /** One ready address of a Service, with its DNS name and the slice's ports. */
  public record DnsEndpoint(String address, String name, List<EndpointPort> ports) {}

  private final Map<String, Service> services;
  private final Map<String, List<DnsEndpoint>> endpoints;
  private final Set<String> namespaces;
  private final Map<String, List<String>> reverse;
  /** {@link #withExternalAddress}'s index by canonical address; {@code null} until first needed. */
  private volatile @Nullable Map<String, List<Service>> byExternalAddress;
  private final Map<String, Set<String>> podIps;
  private final long serial;

  private DnsSnapshot(Map<String, Service> services, Map<String, List<DnsEndpoint>> endpoints, Set<String> namespaces,
      Map<String, List<String>> reverse, Map<String, Set<String>> podIps, long serial) {
    this.services = services;
    this.endpoints = endpoints;
    this.namespaces = namespaces;
    this.reverse = reverse;
    this.podIps = podIps;
    this.serial = serial;
  }

  /** An empty snapshot. */
  public static DnsSnapshot empty() {
    return of(List.of(), List.of(), Set.of(), 0);
  }

  /**
   * A snapshot of {@code services} and {@code slices}.
   *
   * @param extraNamespaces namespaces that exist without Services (a namespace with a Service always exists)
   * @param serial the SOA serial (CoreDNS uses the time of the last change, in seconds)
   */
  public static DnsSnapshot of(Collection<Service> services, Collection<EndpointSlice> slices,
      Collection<String> extraNamespaces, long serial) {
    return of(services, slices, List.of(), extraNamespaces, serial);
  }

  /**
   * A snapshot of {@code services}, {@code slices} and {@code pods}. A pod counts as CoreDNS's pod cache counts it:
   * with a {@code status.podIP} (its first IP; the others are not indexed), a phase other than Succeeded, Failed and
   * Unknown, and no deletion timestamp. A pod's namespace exists.
   *
   * @param extraNamespaces namespaces that exist without Services or pods
   * @param serial the SOA serial (CoreDNS uses the time of the last change, in seconds)
   */
  public static DnsSnapshot of(Collection<Service> services, Collection<EndpointSlice> slices,
      Collection<Pod> pods, Collection<String> extraNamespaces, long serial) {
    Map<String, Service> svc = new HashMap<>();
    Set<String> ns = new HashSet<>();
    extraNamespaces.forEach(n -> ns.add(n.toLowerCase(Locale.ROOT)));
    Map<String, Set<String>> ips = new HashMap<>();
    for (Pod p : pods) {
      PodPhase phase = p.status().phase();
      String ip = p.status().podIP();
      if (ip.isEmpty() || phase.isTerminal() || phase == PodPhase.Unknown
          || p.metadata().deletionTimestamp() != null) {
        continue;
      }
      String n = p.metadata().namespace().toLowerCase(Locale.ROOT);
      ns.add(n);
      ips.computeIfAbsent(n, k -> new HashSet<>()).add(ip);
    }
    ips.replaceAll((k, v) -> Set.copyOf(v));
    for (Service s : services) {
      svc.put(key(s.metadata().namespace(), s.metadata().name()), s);
      ns.add(s.metadata().namespace().toLowerCase(Locale.ROOT));
    }
    Map<String, List<DnsEndpoint>> eps = new HashMap<>();
    Map<String, List<String>> rev = new HashMap<>();
    for (Service s : services) {
      for (String ip : s.spec().allClusterIPs()) {
        IpAddress a = IpAddress.tryParse(ip);
        if (a != null) {
          rev.computeIfAbsent(a.toString(), k -> new ArrayList<>()).add(s.metadata().name() + "."
              + s.metadata().namespace());
        }
      }
    }
    for (EndpointSlice slice : slices) {
      String svcName = slice.serviceName();
      if (svcName.isEmpty()) {
        continue;
      }
      String k = key(slice.metadata().namespace(), svcName);
      List<DnsEndpoint> list = eps.computeIfAbsent(k, x -> new ArrayList<>());
      for (Endpoint e : slice.endpoints()) {
        if (!e.conditions().isReady() || e.addresses().isEmpty()) {
          continue;
        }
        String addr = e.addresses().get(0);
        String name = e.hostname().isEmpty() ? dashed(addr) : e.hostname();
        list.add(new DnsEndpoint(addr, name.toLowerCase(Locale.ROOT), slice.ports()));
        IpAddress a = IpAddress.tryParse(addr);
        if (a != null && svc.containsKey(k)) {
          // one PTR per name: an address in two slices of one Service (slice skew) is answered once
          List<String> targets = rev.computeIfAbsent(a.toString(), x -> new ArrayList<>());
          String target = name + "." + svcName + "." + slice.metadata().namespace();
          if (!targets.contains(target)) {
            targets.add(target);
          }
        }
      }
    }
    return new DnsSnapshot(Map.copyOf(svc), Map.copyOf(eps), Set.copyOf(ns), Map.copyOf(rev), Map.copyOf(ips), serial);
  }

  /** CoreDNS's endpoint name for an address without hostname: IPv4 dots and IPv6 colons become dashes. */
  static String dashed(String address) {
    if (address.indexOf(':') < 0) {
      return address.replace('.', '-');
    }
    String d = address.replace(':', '-');
    if (d.endsWith("-")) {
      d = d + "0";
    }
    if (d.startsWith("-")) {
      d = "0" + d;
    }
    return d;
  }

  private static String key(String namespace, String name) {
    return (namespace + "/" + name).toLowerCase(Locale.ROOT);
  }

  public @Nullable Service service(String namespace, String name) {
    return services.get(key(namespace, name));
  }

  /** The ready endpoints of a Service, empty when none. */
  public List<DnsEndpoint> endpoints(String namespace, String name) {
    return endpoints.getOrDefault(key(namespace, name), List.of());
  }

  public boolean namespaceExists(String namespace) {
    return namespaces.contains(namespace.toLowerCase(Locale.ROOT));
  }

  /** PTR targets for an address, relative to {@code svc.<zone>}: {@code svc.ns} or {@code endpoint.svc.ns}. */
  public List<String> reverse(String canonicalAddress) {
    return reverse.getOrDefault(canonicalAddress, List.of());
  }

  /**
   * Whether a pod of {@code namespace} (any case) has {@code ip} as its {@code status.podIP}, compared as text as
   * CoreDNS compares it.
   */
  public boolean podHasIp(String namespace, String ip) {
    return podIps.getOrDefault(namespace.toLowerCase(Locale.ROOT), Set.of()).contains(ip);
  }

  public long serial() {
    return serial;
  }

  /**
   * The Services with {@code ip} among their external addresses ({@link ExternalDns#externalAddresses}), ordered by
   * namespace and name: {@code k8s_external}'s reverse index, built once, at the first question that needs it.
   */
  List<Service> withExternalAddress(IpAddress ip) {
    Map<String, List<Service>> index = byExternalAddress;
    if (index == null) {
      List<Service> all = new ArrayList<>(services.values());
      all.sort(java.util.Comparator.comparing((Service v) -> v.metadata().namespace())
          .thenComparing(v -> v.metadata().name()));
      index = new HashMap<>();
      for (Service s : all) {
        for (String a : ExternalDns.externalAddresses(s)) {
          IpAddress parsed = IpAddress.tryParse(a);
          if (parsed != null) {
            List<Service> at = index.computeIfAbsent(parsed.toString(), k -> new ArrayList<>());
            if (!at.contains(s)) {
              at.add(s);
            }
          }
        }
      }
      byExternalAddress = index;
    }
    return index.getOrDefault(ip.toString(), List.of());
  }

  public int serviceCount() {
    return services.size();
  }
}
