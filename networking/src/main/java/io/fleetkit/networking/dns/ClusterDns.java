package io.fleetkit.networking.dns;

import io.fleetkit.api.core.IPFamily;
import io.fleetkit.api.core.Service;
import io.fleetkit.api.core.ServicePort;
import io.fleetkit.api.core.ServiceType;
import io.fleetkit.api.discovery.EndpointPort;
import io.fleetkit.api.net.IpText;
import io.fleetkit.networking.dns.DnsSnapshot.DnsEndpoint;
import io.fleetkit.networking.ipam.IpAddress;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.function.BiFunction;
import org.jspecify.annotations.Nullable;

/**
 * Answers DNS questions for a cluster zone as CoreDNS's {@code kubernetes} plugin does (no {@code fallthrough}, no
 * {@code endpoint_pod_names}; pod names as {@link #pods()} says, {@code disabled} by default): pod names
 * {@code 10-240-0-1.ns.pod.<zone>} A/AAAA/SRV (see {@link PodsMode}), {@code svc.ns.svc.<zone>} A/AAAA (the
 * cluster IPs, or every ready endpoint of a headless Service), {@code _port._proto.svc.ns.svc.<zone>} and
 * {@code svc.ns.svc.<zone>} SRV, {@code endpoint.svc.ns.svc.<zone>} A/AAAA, ExternalName as CNAME (followed inside
 * the zone), PTR for cluster IPs and endpoints, {@code dns-version.<zone>} TXT; NXDOMAIN for names that do not
 * exist and NODATA (NOERROR, empty) for existing names without records of the type, both with the zone's SOA in
 * the authority section. Names match case-insensitively and answers keep the question's spelling. Questions
 * outside the zone and the reverse zones ({@link #authoritativeFor}) are REFUSED, as are zone transfers. Pure;
 * thread-safe.
 */
public final class ClusterDns {
  public static final String DEFAULT_ZONE = "cluster.local";
  /** CoreDNS's default TTL. */
  public static final long DEFAULT_TTL = 5;
  /** The schema version {@code dns-version.<zone>} TXT answers, with its TTL. */
  public static final String DNS_SCHEMA_VERSION = "1.1.0";
  static final long DNS_VERSION_TTL = 28800;
  private static final String V4_REVERSE = "in-addr.arpa.";
  private static final String V6_REVERSE = "ip6.arpa.";

  private final String zone;
  private final long ttl;
  private final PodsMode pods;

  /**
   * Pod names {@link PodsMode#DISABLED}.
   *
   * @param zone the cluster domain, e.g. {@code cluster.local}
   * @param ttl 0..3600 seconds
   */
  public ClusterDns(String zone, long ttl) {
    this(zone, ttl, PodsMode.DISABLED);
  }

  /**
   * @param zone the cluster domain, e.g. {@code cluster.local}
   * @param ttl 0..3600 seconds
   * @param pods how pod names are answered
   */
  public ClusterDns(String zone, long ttl, PodsMode pods) {
    Objects.requireNonNull(pods, "pods");
    Objects.requireNonNull(zone, "zone");
    String z = zone.toLowerCase(Locale.ROOT);
    if (z.endsWith(".")) {
      z = z.substring(0, z.length() - 1);
    }
    if (z.isEmpty() || z.startsWith(".") || z.contains("..")) {
      throw new IllegalArgumentException("cluster DNS zone \"" + zone + "\" is not a valid domain name");
    }
    if (ttl < 0 || ttl > 3600) {
      throw new IllegalArgumentException("cluster DNS ttl " + ttl + " must be between 0 and 3600");
    }
    this.zone = z + ".";
    this.ttl = ttl;
    this.pods = pods;
  }

  public static ClusterDns standard() {
    return new ClusterDns(DEFAULT_ZONE, DEFAULT_TTL);
  }

  /** The zone with a trailing dot. */
  public String zone() {
    return zone;
  }

  /** How pod names are answered. */
  public PodsMode pods() {
    return pods;
  }

  /** This cluster DNS answering pod names as {@code mode} says. */
  public ClusterDns withPods(PodsMode mode) {
    return new ClusterDns(zone, ttl, mode);
  }

  /**
   * Whether {@code qname} (any case, with or without the trailing dot) is in a zone this cluster DNS answers: the
   * cluster zone or the reverse zones {@code in-addr.arpa.} and {@code ip6.arpa.}. Every other name is REFUSED by
   * {@link #resolve}; a server may forward it instead.
   */
  public boolean authoritativeFor(String qname) {
    String lower = qname.toLowerCase(Locale.ROOT);
    if (!lower.endsWith(".")) {
      lower = lower + ".";
    }
    return lower.equals(zone) || lower.endsWith("." + zone) || lower.endsWith("." + V4_REVERSE)
        || lower.endsWith("." + V6_REVERSE);
  }

  /** What a parsed question names. */
  private record Target(@Nullable Service service, String namespace, String name, @Nullable String endpoint,
      String port, String protocol, boolean exists) {}

  /**
   * The answer to {@code qname} of {@code qtype}, as CoreDNS would give it without an upstream: an ExternalName whose
   * target is outside the zone is answered with its CNAME alone.
   */
  public DnsResponse resolve(DnsSnapshot snap, String qname, RecordType qtype) {
    return resolve(snap, qname, qtype, null, List.of());
  }

  /**
   * The answer to {@code qname} of {@code qtype}, as CoreDNS would give it with {@code upstream} as its kubernetes
   * plugin's upstream: an A or AAAA question for an ExternalName whose target is outside the zone gets the CNAME,
   * then the answer records {@code upstream} gives for the target (CoreDNS's {@code plugin.A}/{@code AAAA} CNAME
   * lookup), truncated when that answer was; {@code upstream} is asked nothing else.
   *
   * @param upstream the answer to a name outside the zone and a type, e.g. {@link Forwarder#resolve}
   */
  public DnsResponse resolve(DnsSnapshot snap, String qname, RecordType qtype,
      BiFunction<String, RecordType, DnsResponse> upstream) {
    return resolve(snap, qname, qtype, Objects.requireNonNull(upstream, "upstream"), List.of());
  }

  /** CoreDNS's {@code maxCnameChainLength}: an ExternalName chain inside the zone is followed this far. */
  private static final int MAX_CNAME_CHAIN = 10;

  /** @param chain the targets of the CNAMEs followed to this name, in order */
  private DnsResponse resolve(DnsSnapshot snap, String qname, RecordType qtype,
      @Nullable BiFunction<String, RecordType, DnsResponse> upstream, List<String> chain) {
    String q = qname.endsWith(".") ? qname : qname + ".";
    String lower = q.toLowerCase(Locale.ROOT);
    if (lower.endsWith("." + V4_REVERSE) || lower.endsWith("." + V6_REVERSE)) {
      return reverse(snap, q, lower, qtype);
    }
    if (!lower.equals(zone) && !lower.endsWith("." + zone)) {
      return DnsResponse.of(Rcode.REFUSED); // outside every zone answered: authoritativeFor is false
    }
    if (qtype == RecordType.AXFR || qtype == RecordType.IXFR) {
      return DnsResponse.of(Rcode.REFUSED);
    }
    String rel = lower.equals(zone) ? "" : lower.substring(0, lower.length() - zone.length() - 1);
    String[] labels = rel.isEmpty() ? new String[0] : rel.split("\\.", -1);
    if (labels.length == 0) {
      if (qtype == RecordType.SOA) {
        return new DnsResponse(Rcode.NOERROR, List.of(soa(spelledZone(q), snap)), List.of(), List.of());
      }
      if (qtype == RecordType.NS) {
        return new DnsResponse(Rcode.NOERROR, List.of(new DnsRecord(q, RecordType.NS, ttl, "ns.dns." + spelledZone(q))),
            List.of(), List.of());
      }
      return nodata(snap, q);
    }
    if (labels.length == 1 && labels[0].equals("dns-version")) {
      if (qtype == RecordType.TXT) {
        return new DnsResponse(Rcode.NOERROR, List.of(new DnsRecord(q, RecordType.TXT, DNS_VERSION_TTL,
            DNS_SCHEMA_VERSION)), List.of(), List.of());
      }
      return nodata(snap, q);
    }
    String last = labels[labels.length - 1];
    if (last.equals("pod")) {
      return pod(snap, q, labels, qtype);
    }
    if (!last.equals("svc")) {
      return nxdomain(snap, q);
    }
    if (labels.length == 1) {
      return nodata(snap, q);
    }
    if (labels.length == 2) {
      return snap.namespaceExists(labels[0]) ? nodata(snap, q) : nxdomain(snap, q);
    }
    Target t = parse(snap, labels);
    if (t == null || !t.exists) {
      return nxdomain(snap, q);
    }
    Service s = Objects.requireNonNull(t.service);
    switch (qtype) {
      case A, AAAA -> {
        return addresses(snap, q, t, s, qtype == RecordType.A ? IPFamily.IPv4 : IPFamily.IPv6, upstream, chain);
      }
      case SRV -> {
        return srv(snap, q, t, s);
      }
      case CNAME -> {
        if (s.spec().type() == ServiceType.ExternalName && t.endpoint == null) {
          return new DnsResponse(Rcode.NOERROR, List.of(cname(q, s)), List.of(), List.of());
        }
        return nodata(snap, q);
      }
      default -> {
        return nodata(snap, q);
      }
    }
  }

  /**
   * A name under {@code pod.<zone>}, as CoreDNS's {@code findPods}: {@code [endpoint.|_port._proto.]ip.ns.pod}, the
   * labels left of the pod name read and ignored; the pod name is an IP with dashes for dots (exactly three dashes,
   * none doubled) or else for colons.
   */
  private DnsResponse pod(DnsSnapshot snap, String q, String[] labels, RecordType qtype) {
    if (labels.length == 1) {
      return nodata(snap, q);
    }
    String ns = labels[labels.length - 2];
    if (labels.length > 5 || pods == PodsMode.DISABLED || !snap.namespaceExists(ns)) {
      return nxdomain(snap, q);
    }
    if (labels.length == 2) {
      return nodata(snap, q);
    }
    String podName = labels[labels.length - 3];
    long dashes = podName.chars().filter(c -> c == '-').count();
    String ip = dashes == 3 && !podName.contains("--") ? podName.replace('-', '.') : podName.replace('-', ':');
    byte[] bytes = IpText.parse(ip);
    boolean exists = pods == PodsMode.INSECURE ? bytes != null : snap.podHasIp(ns, ip);
    if (!exists || bytes == null) {
      return nxdomain(snap, q);
    }
    // CoreDNS's msg.Service.HostType: an IPv4-mapped IPv6 address is an A record
    byte[] v4 = bytes.length == 4 ? bytes
        : IpText.isV4Mapped(bytes) ? java.util.Arrays.copyOfRange(bytes, 12, 16) : null;
    String address = v4 != null ? new IpAddress(IPFamily.IPv4, new BigInteger(1, v4)).toString()
        : new IpAddress(IPFamily.IPv6, new BigInteger(1, bytes)).toString();
    RecordType type = v4 != null ? RecordType.A : RecordType.AAAA;
    if (qtype == type) {
      return new DnsResponse(Rcode.NOERROR, List.of(new DnsRecord(q, type, ttl, address)), List.of(), List.of());
    }
    if (qtype == RecordType.SRV) {
      // CoreDNS's SRV of a pod: port 0, the target the pod name in its namespace, the address as an extra
      String target = podName + "." + ns + ".pod." + spelledZone(q);
      return new DnsResponse(Rcode.NOERROR, List.of(new DnsRecord(q, RecordType.SRV, ttl, "0 100 0 " + target)),
          List.of(), List.of(new DnsRecord(target, type, ttl, address)));
    }
    return nodata(snap, q);
  }

  /** Parses {@code [endpoint.] svc.ns.svc} or {@code _port._proto.svc.ns.svc}; null when not a valid name. */
  private @Nullable Target parse(DnsSnapshot snap, String[] labels) {
    String endpoint = null;
    String port = "";
    String protocol = "";
    int extra = labels.length - 3;
    if (extra == 1) {
      endpoint = labels[0];
    } else if (extra == 2) {
      port = stripUnderscore(labels[0]);
      protocol = stripUnderscore(labels[1]);
    } else if (extra > 2) {
      return null;
    }
    String name = labels[extra];
    String ns = labels[extra + 1];
    String portLabel = port;
    String protoLabel = protocol;
    if (!snap.namespaceExists(ns)) {
      return null;
    }
    Service s = snap.service(ns, name);
    if (s == null) {
      return null;
    }
    boolean exists;
    if (s.spec().type() == ServiceType.ExternalName) {
      exists = endpoint == null && port.isEmpty();
    } else if (endpoint != null || s.spec().headless()) {
      exists = false;
      for (DnsEndpoint e : snap.endpoints(ns, name)) {
        if (endpoint != null && !e.name().equals(endpoint)) {
          continue;
        }
        if (e.ports().isEmpty() ? portLabel.isEmpty() && protoLabel.isEmpty()
            : e.ports().stream().anyMatch(p -> matches(portLabel, protoLabel, p.name(), p.protocol().name()))) {
          exists = true;
          break;
        }
      }
    } else {
      exists = s.spec().ports().stream().anyMatch(p -> matches(portLabel, protoLabel, p.name(),
          p.protocol().name()));
    }
    return new Target(s, ns, name, endpoint, port, protocol, exists);
  }

  private static String stripUnderscore(String label) {
    return label.startsWith("_") ? label.substring(1) : label;
  }

  static boolean matches(String port, String protocol, String portName, String portProtocol) {
    return (port.isEmpty() || port.equals(portName.toLowerCase(Locale.ROOT)))
        && (protocol.isEmpty() || protocol.equalsIgnoreCase(portProtocol));
  }

  private DnsResponse addresses(DnsSnapshot snap, String owner, Target t, Service s, IPFamily family,
      @Nullable BiFunction<String, RecordType, DnsResponse> upstream, List<String> chain) {
    if (s.spec().type() == ServiceType.ExternalName) {
      return externalName(snap, owner, s, family == IPFamily.IPv4 ? RecordType.A : RecordType.AAAA, upstream, chain);
    }
    Set<String> seen = new LinkedHashSet<>();
    if (t.endpoint != null || s.spec().headless()) {
      for (DnsEndpoint e : snap.endpoints(t.namespace, t.name)) {
        if (t.endpoint == null || e.name().equals(t.endpoint)) {
          addIfFamily(seen, e.address(), family);
        }
      }
    } else {
      for (String ip : s.spec().allClusterIPs()) {
        addIfFamily(seen, ip, family);
      }
    }
    if (seen.isEmpty()) {
      return nodata(snap, owner);
    }
    List<DnsRecord> answers = new ArrayList<>(seen.size());
    RecordType type = family == IPFamily.IPv4 ? RecordType.A : RecordType.AAAA;
    for (String ip : seen) {
      answers.add(new DnsRecord(owner, type, ttl, ip));
    }
    return new DnsResponse(Rcode.NOERROR, answers, List.of(), List.of());
  }

  private static void addIfFamily(Set<String> out, String ip, IPFamily family) {
    IpAddress a = IpAddress.tryParse(ip);
    if (a != null && a.family() == family) {
      out.add(a.toString());
    }
  }

  /**
   * A or AAAA of an ExternalName, as CoreDNS's {@code plugin.A}: the CNAME, then what its target resolves to. A target
   * inside the zone is followed (at most {@value #MAX_CNAME_CHAIN} CNAMEs, none to the owner itself or a name below
   * it, or to a target already in the chain) and the CNAME given only when the target has records; a target outside it is looked up
   * {@code upstream}, when there is one, and the CNAME given whatever that answers. NODATA when nothing is given.
   */
  private DnsResponse externalName(DnsSnapshot snap, String owner, Service s, RecordType type,
      @Nullable BiFunction<String, RecordType, DnsResponse> upstream, List<String> chain) {
    DnsRecord cname = cname(owner, s);
    String target = cname.data();
    List<DnsRecord> answers = new ArrayList<>();
    boolean truncated = false;
    String lowerTarget = target.toLowerCase(Locale.ROOT);
    String lowerOwner = owner.toLowerCase(Locale.ROOT);
    // x CNAME x, or a name below x: a direct loop (CoreDNS's Name(qname).Matches(target))
    boolean loop = lowerTarget.equals(lowerOwner) || lowerTarget.endsWith("." + lowerOwner);
    if (!loop && chain.size() <= MAX_CNAME_CHAIN && !chain.contains(target)) {
      if (target.toLowerCase(Locale.ROOT).endsWith("." + zone)) {
        List<String> longer = new ArrayList<>(chain);
        longer.add(target);
        DnsResponse next = resolve(snap, target, type, upstream, longer);
        if (next.rcode() == Rcode.NOERROR && !next.answers().isEmpty()) {
          answers.add(cname);
          answers.addAll(next.answers());
        }
        truncated = next.truncated();
      } else {
        answers.add(cname);
        if (upstream != null) {
          DnsResponse up = upstream.apply(target, type);
          answers.addAll(up.answers());
          truncated = up.truncated();
        }
      }
    }
    return answers.isEmpty() ? nodata(snap, owner)
        : new DnsResponse(Rcode.NOERROR, answers, List.of(), List.of(), truncated);
  }

  /** One SRV candidate: CoreDNS's msg.Service (host, port, target name). */
  private record SrvItem(String target, int port, String address) {}

  private DnsResponse srv(DnsSnapshot snap, String owner, Target t, Service s) {
    if (s.spec().type() == ServiceType.ExternalName) {
      return nodata(snap, owner);
    }
    String svcName = t.name + "." + t.namespace + ".svc." + spelledZone(owner);
    List<SrvItem> items = new ArrayList<>();
    if (t.endpoint != null || s.spec().headless()) {
      for (DnsEndpoint e : snap.endpoints(t.namespace, t.name)) {
        if (t.endpoint != null && !e.name().equals(t.endpoint)) {
          continue;
        }
        for (EndpointPort p : e.ports()) {
          if (p.port() != null && matches(t.port, t.protocol, p.name(), p.protocol().name())) {
            items.add(new SrvItem(e.name() + "." + svcName, p.port(), e.address()));
          }
        }
      }
    } else {
      for (ServicePort p : s.spec().ports()) {
        if (matches(t.port, t.protocol, p.name(), p.protocol().name())) {
          for (String ip : s.spec().allClusterIPs()) {
            items.add(new SrvItem(svcName, p.port(), ip));
          }
        }
      }
    }
    if (items.isEmpty()) {
      return nodata(snap, owner);
    }
    int weight = Math.max(1, 100 / items.size());
    Set<String> dupSrv = new LinkedHashSet<>();
    Set<String> dupExtra = new LinkedHashSet<>();
    List<DnsRecord> answers = new ArrayList<>();
    List<DnsRecord> extra = new ArrayList<>();
    for (SrvItem i : items) {
      if (dupSrv.add(i.target + ":" + i.port)) {
        answers.add(new DnsRecord(owner, RecordType.SRV, ttl, "0 " + weight + " " + i.port + " " + i.target));
      }
      IpAddress a = IpAddress.tryParse(i.address);
      if (a != null && dupExtra.add(i.target + "/" + a)) {
        extra.add(new DnsRecord(i.target, a.family() == IPFamily.IPv4 ? RecordType.A : RecordType.AAAA, ttl,
            a.toString()));
      }
    }
    return new DnsResponse(Rcode.NOERROR, answers, List.of(), extra);
  }

  private DnsRecord cname(String owner, Service s) {
    String target = s.spec().externalName();
    return new DnsRecord(owner, RecordType.CNAME, ttl, target.endsWith(".") ? target : target + ".");
  }

  private DnsResponse reverse(DnsSnapshot snap, String q, String lower, RecordType qtype) {
    boolean v4 = lower.endsWith("." + V4_REVERSE);
    String reverseZone = q.substring(q.length() - (v4 ? V4_REVERSE : V6_REVERSE).length());
    IpAddress ip = fromReverse(lower, v4);
    List<String> targets = ip == null ? List.of() : snap.reverse(ip.toString());
    if (targets.isEmpty()) {
      return new DnsResponse(Rcode.NXDOMAIN, List.of(), List.of(soa(reverseZone, snap)), List.of());
    }
    if (qtype != RecordType.PTR) {
      return new DnsResponse(Rcode.NOERROR, List.of(), List.of(soa(reverseZone, snap)), List.of());
    }
    List<DnsRecord> answers = new ArrayList<>();
    for (String t : targets) {
      String[] parts = t.split("\\.");
      String name = parts.length == 2 ? t + ".svc." + zone
          : parts[0] + "." + parts[1] + "." + parts[2] + ".svc." + zone;
      answers.add(new DnsRecord(q, RecordType.PTR, ttl, name.toLowerCase(Locale.ROOT)));
    }
    return new DnsResponse(Rcode.NOERROR, answers, List.of(), List.of());
  }

  static @Nullable IpAddress fromReverse(String lower, boolean v4) {
    String body = lower.substring(0, lower.length() - (v4 ? V4_REVERSE.length() : V6_REVERSE.length()) - 1);
    String[] parts = body.split("\\.", -1);
    if (v4) {
      if (parts.length != 4) {
        return null;
      }
      return IpAddress.tryParse(parts[3] + "." + parts[2] + "." + parts[1] + "." + parts[0]);
    }
    if (parts.length != 32) {
      return null;
    }
    BigInteger v = BigInteger.ZERO;
    for (int i = parts.length - 1; i >= 0; i--) {
      char c = parts[i].length() == 1 ? parts[i].charAt(0) : 0;
      int nibble = c > 0 && c < 128 ? Character.digit(c, 16) : -1; // ASCII: Character.digit reads every script
      if (nibble < 0) {
        return null;
      }
      v = v.shiftLeft(4).or(BigInteger.valueOf(nibble));
    }
    return new IpAddress(IPFamily.IPv6, v);
  }

  /**
   * The SOA of {@code zoneName} (the zone as the question spells it): {@code ns.dns.<zone> hostmaster.<zone> serial
   * 7200 1800 86400 ttl}, TTL min(ttl, 300), as CoreDNS builds it for the zone that answers.
   */
  DnsRecord soa(String zoneName, DnsSnapshot snap) {
    String data = "ns.dns." + zoneName + " hostmaster." + zoneName + " " + snap.serial() + " 7200 1800 86400 " + ttl;
    return new DnsRecord(zoneName, RecordType.SOA, Math.min(ttl, 300), data);
  }

  /** The cluster zone as {@code name}, a name inside it, spells it (CoreDNS answers with the question's case). */
  private String spelledZone(String name) {
    return name.substring(name.length() - zone.length());
  }

  private DnsResponse nxdomain(DnsSnapshot snap, String q) {
    return new DnsResponse(Rcode.NXDOMAIN, List.of(), List.of(soa(spelledZone(q), snap)), List.of());
  }

  private DnsResponse nodata(DnsSnapshot snap, String q) {
    return new DnsResponse(Rcode.NOERROR, List.of(), List.of(soa(spelledZone(q), snap)), List.of());
  }
}
