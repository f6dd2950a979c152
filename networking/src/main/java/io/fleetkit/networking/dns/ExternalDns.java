package io.fleetkit.networking.dns;

import io.fleetkit.api.core.IPFamily;
import io.fleetkit.api.core.LoadBalancerIngress;
import io.fleetkit.api.core.Service;
import io.fleetkit.api.core.ServicePort;
import io.fleetkit.api.discovery.EndpointPort;
import io.fleetkit.networking.dns.DnsSnapshot.DnsEndpoint;
import io.fleetkit.networking.ipam.IpAddress;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Names outside the cluster for its Services, as CoreDNS's {@code k8s_external} plugin answers them: in each of its
 * zones, {@code service.namespace.<zone>} A/AAAA are the Service's external addresses ({@code spec.externalIPs}, then
 * its load balancer's ingress points from {@code status.loadBalancer}; a host name is a CNAME),
 * {@code [_port._proto.]service.namespace.<zone>} SRV point at {@code service.namespace.<zone>} (or at the host name),
 * and with {@link #headless} a headless Service without external addresses answers with its ready endpoints
 * ({@code endpoint.service.namespace.<zone>}) as the {@code kubernetes} plugin's headless records. PTR questions in a
 * reverse zone among its zones answer {@code service.namespace.<first zone>} for an external address. The apex has
 * an SOA ({@code ns1.dns.<zone> hostmaster.dns.<zone>}) and an NS ({@code ns1.dns.<zone>}, with
 * {@link #nameserverAddresses} as glue); {@code ns1.dns.<zone>} A/AAAA are those addresses. Other types are NODATA;
 * names that match nothing NXDOMAIN, with the SOA. Pure; thread-safe.
 */
public final class ExternalDns {
  /** The plugin's default {@code apex}: the label under which its name server lives. */
  public static final String DEFAULT_APEX = "dns";
  private static final String HOSTMASTER = "hostmaster";

  private final List<String> zones;
  private final long ttl;
  private final boolean headless;
  private final List<String> nameserverAddresses;

  /**
   * @param zones the zones answered, e.g. {@code example.com} (a reverse zone such as {@code in-addr.arpa} answers
   *     PTR questions); at least one
   * @param ttl 0..3600 seconds (the plugin's default 5)
   * @param headless whether headless Services answer with their endpoints ({@code headless} option)
   * @param nameserverAddresses the name server's own addresses ({@code ns1.dns.<zone>}); may be empty
   * @throws IllegalArgumentException naming the value when a zone is not a domain name or the TTL is out of range
   */
  public ExternalDns(List<String> zones, long ttl, boolean headless, List<String> nameserverAddresses) {
    Objects.requireNonNull(zones, "zones");
    if (zones.isEmpty()) {
      throw new IllegalArgumentException("k8s_external: at least one zone is needed");
    }
    List<String> z = new ArrayList<>();
    for (String zone : zones) {
      String lower = zone.toLowerCase(Locale.ROOT);
      lower = lower.endsWith(".") ? lower : lower + ".";
      if (lower.equals(".") || lower.startsWith(".") || lower.contains("..")) {
        throw new IllegalArgumentException("k8s_external: zone \"" + zone + "\" is not a valid domain name");
      }
      z.add(lower);
    }
    if (ttl < 0 || ttl > 3600) {
      throw new IllegalArgumentException("k8s_external: ttl " + ttl + " must be between 0 and 3600");
    }
    for (String a : nameserverAddresses) {
      if (IpAddress.tryParse(a) == null) {
        throw new IllegalArgumentException("k8s_external: name server address \"" + a + "\" is not an IP address");
      }
    }
    this.zones = List.copyOf(z);
    this.ttl = ttl;
    this.headless = headless;
    this.nameserverAddresses = List.copyOf(nameserverAddresses);
  }

  /** {@code k8s_external ZONES...} with the plugin's defaults: TTL 5, no headless records, no name server address. */
  public static ExternalDns of(String... zones) {
    return new ExternalDns(List.of(zones), ClusterDns.DEFAULT_TTL, false, List.of());
  }

  /** The zones, lower case with a trailing dot, in the order given. */
  public List<String> zones() {
    return zones;
  }

  /** The plugin's {@code headless} option. */
  public boolean headless() {
    return headless;
  }

  /** The name server's own addresses. */
  public List<String> nameserverAddresses() {
    return nameserverAddresses;
  }

  /** The zone of {@link #zones} that holds {@code qname}, the longest when several do ({@code plugin.Zones.Matches}). */
  public Optional<String> zoneOf(String qname) {
    String lower = qname.toLowerCase(Locale.ROOT);
    lower = lower.endsWith(".") ? lower : lower + ".";
    String best = null;
    for (String z : zones) {
      if ((lower.equals(z) || lower.endsWith("." + z)) && (best == null || z.length() > best.length())) {
        best = z;
      }
    }
    return Optional.ofNullable(best);
  }

  /** One external record set: an address or host name, with a port. */
  private record Item(String host, int port, String owner) {}

  /**
   * The answer to {@code qname} of {@code qtype}, or empty when {@code qname} is in none of the zones (the next
   * plugin answers it). Answers are authoritative.
   */
  public Optional<DnsResponse> resolve(DnsSnapshot snap, String qname, RecordType qtype) {
    Optional<String> zoneMatch = zoneOf(qname);
    if (zoneMatch.isEmpty()) {
      return Optional.empty();
    }
    String q = qname.endsWith(".") ? qname : qname + ".";
    String lower = q.toLowerCase(Locale.ROOT);
    String zone = zoneMatch.get();
    String spelledZone = q.substring(q.length() - zone.length());
    for (String z : zones) {
      if (lower.equals(z)) {
        return Optional.of(apex(snap, q, spelledZone, qtype));
      }
      String sub = DEFAULT_APEX + "." + z;
      if (lower.equals(sub) || lower.endsWith("." + sub)) {
        return Optional.of(subApex(snap, q, lower, z, spelledZone, qtype));
      }
    }
    List<Item> items = new ArrayList<>();
    Rcode rcode = external(snap, lower, zone, qtype, items);
    if (qtype == RecordType.PTR && rcode == Rcode.NOERROR && !items.isEmpty()) {
      List<DnsRecord> answers = new ArrayList<>();
      Set<String> dup = new LinkedHashSet<>();
      for (Item i : items) {
        if (dup.add(i.host)) {
          answers.add(new DnsRecord(q, RecordType.PTR, ttl, i.host + "." + zones.get(0)));
        }
      }
      return Optional.of(new DnsResponse(Rcode.NOERROR, answers, List.of(), List.of()));
    }
    if (items.isEmpty()) {
      return Optional.of(new DnsResponse(rcode, List.of(), List.of(soa(snap, spelledZone)), List.of()));
    }
    DnsResponse r = switch (qtype) {
      case A -> addresses(q, items, RecordType.A);
      case AAAA -> addresses(q, items, RecordType.AAAA);
      case SRV -> srv(q, items);
      default -> null;
    };
    if (r == null || r.answers().isEmpty()) {
      return Optional.of(new DnsResponse(Rcode.NOERROR, List.of(), List.of(soa(snap, spelledZone)), List.of()));
    }
    return Optional.of(r);
  }

  /** {@code Kubernetes.External}: the records a name stands for, and the rcode when there are none. */
  private Rcode external(DnsSnapshot snap, String lower, String zone, RecordType qtype, List<Item> out) {
    if (qtype == RecordType.PTR && (lower.endsWith(".in-addr.arpa.") || lower.endsWith(".ip6.arpa."))) {
      IpAddress ip = ClusterDns.fromReverse(lower, lower.endsWith(".in-addr.arpa."));
      if (ip != null) {
        for (Service s : snap.withExternalAddress(ip)) {
          out.add(new Item(s.metadata().name() + "." + s.metadata().namespace(), 0, ""));
        }
        return out.isEmpty() ? Rcode.NXDOMAIN : Rcode.NOERROR;
      }
      // not a reverse address: the name's own answer (NXDOMAIN or NODATA) below
    }
    String base = lower.equals(zone) ? "" : lower.substring(0, lower.length() - zone.length() - 1);
    String[] segs = base.isEmpty() ? new String[0] : base.split("\\.", -1);
    int last = segs.length - 1;
    if (last < 0) {
      return Rcode.SERVFAIL;
    }
    String namespace = segs[last];
    if (!snap.namespaceExists(namespace)) {
      return Rcode.NXDOMAIN;
    }
    last--;
    if (last < 0) {
      return Rcode.NOERROR;
    }
    String service = segs[last];
    last--;
    String endpoint = null;
    String port = "";
    String protocol = "";
    if (last == 0) {
      endpoint = stripUnderscore(segs[last]);
      last--;
    } else if (last == 1) {
      protocol = stripUnderscore(segs[last]);
      port = stripUnderscore(segs[last - 1]);
      last -= 2;
    }
    if (last != -1) {
      return Rcode.NXDOMAIN;
    }
    Service s = snap.service(namespace, service);
    Rcode rcode = Rcode.NXDOMAIN;
    if (s == null) {
      out.clear();
      return rcode;
    }
    String svcName = service + "." + namespace + "." + zone;
    List<String> external = externalAddresses(s);
    if (headless && external.isEmpty() && (s.spec().headless() || endpoint != null)) {
      for (DnsEndpoint e : snap.endpoints(namespace, service)) {
        if (endpoint != null && !endpoint.equals(e.name())) {
          continue;
        }
        for (EndpointPort p : e.ports()) {
          if (p.port() != null && ClusterDns.matches(port, protocol, p.name(), p.protocol().name())) {
            rcode = Rcode.NOERROR;
            out.add(new Item(e.address(), p.port(), e.name() + "." + svcName));
          }
        }
      }
    } else {
      for (String ip : external) {
        for (ServicePort p : s.spec().ports()) {
          if (ClusterDns.matches(port, protocol, p.name(), p.protocol().name())) {
            rcode = Rcode.NOERROR;
            out.add(new Item(ip, p.port(), svcName));
          }
        }
      }
    }
    if (qtype == RecordType.PTR) {
      out.clear(); // a PTR question for a forward name: no records, the name's rcode (NXDOMAIN or NODATA)
    }
    return rcode;
  }

  /**
   * A Service's external addresses as CoreDNS's {@code object.Service} holds them: {@code spec.externalIPs}, then
   * each load balancer ingress point's IP, else its host name.
   */
  static List<String> externalAddresses(Service s) {
    List<String> out = new ArrayList<>(s.spec().externalIPs());
    if (s.status().loadBalancer() != null) {
      for (LoadBalancerIngress i : s.status().loadBalancer().ingress()) {
        out.add(i.ip().isEmpty() ? i.hostname() : i.ip());
      }
    }
    return out;
  }

  private DnsResponse addresses(String q, List<Item> items, RecordType type) {
    List<DnsRecord> answers = new ArrayList<>();
    Set<String> dup = new LinkedHashSet<>();
    for (Item i : items) {
      IpAddress ip = IpAddress.tryParse(i.host);
      if (ip == null) {
        answers.add(new DnsRecord(q, RecordType.CNAME, ttl, fqdn(i.host))); // the upstream lookup is not made
      } else if ((ip.family() == IPFamily.IPv4) == (type == RecordType.A) && dup.add(ip.toString())) {
        answers.add(new DnsRecord(q, type, ttl, ip.toString()));
      }
    }
    return new DnsResponse(Rcode.NOERROR, answers, List.of(), List.of());
  }

  /** {@code srv}: weight 100 split over the records, at least 1; each address once in the additional section. */
  private DnsResponse srv(String q, List<Item> items) {
    int weight = Math.max(1, 100 / items.size());
    List<DnsRecord> answers = new ArrayList<>();
    List<DnsRecord> extra = new ArrayList<>();
    Set<String> dup = new LinkedHashSet<>();
    for (Item i : items) {
      IpAddress ip = IpAddress.tryParse(i.host);
      String target = ip == null ? fqdn(i.host) : i.owner;
      if (dup.add(target + " " + i.port)) {
        answers.add(new DnsRecord(q, RecordType.SRV, ttl, "0 " + weight + " " + i.port + " " + target));
      }
      if (ip != null && dup.add(target + "/" + ip)) {
        extra.add(new DnsRecord(target, ip.family() == IPFamily.IPv4 ? RecordType.A : RecordType.AAAA, ttl,
            ip.toString()));
      }
    }
    return new DnsResponse(Rcode.NOERROR, answers, List.of(), extra);
  }

  private DnsResponse apex(DnsSnapshot snap, String q, String spelledZone, RecordType qtype) {
    return switch (qtype) {
      case SOA -> new DnsResponse(Rcode.NOERROR, List.of(soa(snap, spelledZone)), List.of(), List.of());
      case NS -> {
        String ns = "ns1." + DEFAULT_APEX + "." + spelledZone;
        List<DnsRecord> glue = new ArrayList<>();
        for (String a : nameserverAddresses) {
          IpAddress ip = IpAddress.parse(a);
          glue.add(new DnsRecord(ns, ip.family() == IPFamily.IPv4 ? RecordType.A : RecordType.AAAA, ttl,
              ip.toString()));
        }
        yield new DnsResponse(Rcode.NOERROR, List.of(new DnsRecord(q, RecordType.NS, ttl, ns)), List.of(), glue);
      }
      default -> new DnsResponse(Rcode.NOERROR, List.of(), List.of(soa(snap, spelledZone)), List.of());
    };
  }

  /** {@code serveSubApex}: {@code dns.<zone>} is an empty non-terminal, {@code ns1.dns.<zone>} the name server. */
  private DnsResponse subApex(DnsSnapshot snap, String q, String lower, String zone, String spelledZone,
      RecordType qtype) {
    String base = lower.substring(0, lower.length() - zone.length());
    int labels = base.isEmpty() ? 0 : base.split("\\.").length;
    if (labels == 1) {
      return new DnsResponse(Rcode.NOERROR, List.of(), List.of(soa(snap, spelledZone)), List.of());
    }
    if (labels != 2 || !base.startsWith("ns1.")) {
      return new DnsResponse(Rcode.NXDOMAIN, List.of(), List.of(soa(snap, spelledZone)), List.of());
    }
    List<DnsRecord> answers = new ArrayList<>();
    for (String a : nameserverAddresses) {
      IpAddress ip = IpAddress.parse(a);
      RecordType t = ip.family() == IPFamily.IPv4 ? RecordType.A : RecordType.AAAA;
      if (t == qtype) {
        answers.add(new DnsRecord(q, t, ttl, ip.toString()));
      }
    }
    return answers.isEmpty() ? new DnsResponse(Rcode.NOERROR, List.of(), List.of(soa(snap, spelledZone)), List.of())
        : new DnsResponse(Rcode.NOERROR, answers, List.of(), List.of());
  }

  /** The zone's SOA: {@code ns1.dns.<zone> hostmaster.dns.<zone> serial 7200 1800 86400 ttl}. */
  DnsRecord soa(DnsSnapshot snap, String spelledZone) {
    String ns = "ns1." + DEFAULT_APEX + "." + spelledZone;
    String mbox = HOSTMASTER + "." + DEFAULT_APEX + "." + spelledZone;
    return new DnsRecord(spelledZone, RecordType.SOA, ttl, ns + " " + mbox + " " + snap.serial() + " 7200 1800 86400 "
        + ttl);
  }

  private static String stripUnderscore(String label) {
    return label.startsWith("_") ? label.substring(1) : label;
  }

  private static String fqdn(String name) {
    return name.endsWith(".") ? name : name + ".";
  }
}
