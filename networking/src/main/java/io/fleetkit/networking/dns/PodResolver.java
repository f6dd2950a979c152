package io.fleetkit.networking.dns;

import io.fleetkit.api.core.HostAlias;
import io.fleetkit.reconcile.node.ResolverConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * How a process in a pod looks a name up: the C library's resolver with Kubernetes' {@code nsswitch.conf}
 * ({@code hosts: files dns}), over the {@code /etc/hosts} and {@code resolv.conf} the kubelet writes for the pod.
 *
 * <ol>
 *   <li><b>Files</b>: an A or AAAA question whose name (without a trailing dot, any case) is in the pod's hosts file is
 *       answered from it, without asking DNS. The kubelet's file holds {@code localhost}, the pod's own host name
 *       with its IP, and the pod's {@code hostAliases}.
 *   <li><b>DNS</b>, glibc's {@code res_search}: a name ending in a dot is asked as it is, and only so. Otherwise, with
 *       at least {@code ndots} dots (the {@code ndots:N} option, default 1, at most 15) it is asked as it is first;
 *       then with each search domain appended, in order, until one is answered; then as it is, if not asked yet. An
 *       answer with records ends the search; NXDOMAIN, an answer without records (NODATA), SERVFAIL and REFUSED go
 *       on to the next name. When none is answered, the result is NODATA if some name existed without records of
 *       the type, else the last name's answer.
 * </ol>
 *
 * <p>Stateless and thread-safe; the DNS is given as a function from a fully qualified name to its answer.
 */
public final class PodResolver {
  /** glibc's default {@code ndots}. */
  public static final int DEFAULT_NDOTS = 1;
  /** glibc caps {@code ndots} at 15 ({@code RES_MAXNDOTS}). */
  public static final int MAX_NDOTS = 15;

  private PodResolver() {}

  /** One name asked of the DNS, and its answer's code and record count. */
  public record Attempt(String name, Rcode rcode, int answers) {
    public Attempt {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(rcode, "rcode");
    }
  }

  /**
   * The outcome of a lookup: the addresses the hosts file gave (then nothing was asked of the DNS), or the names asked
   * in order and the answer returned.
   *
   * @param hostsAddresses the addresses of the hosts file's entry, empty when it has none for the name
   * @param tried the names asked of the DNS, in order
   * @param answeredName the name whose answer is returned, or {@code null} when the hosts file answered
   * @param response the answer returned; {@code null} when the hosts file answered
   */
  public record Lookup(List<String> hostsAddresses, List<Attempt> tried, @Nullable String answeredName,
      @Nullable DnsResponse response) {
    public Lookup {
      hostsAddresses = List.copyOf(hostsAddresses);
      tried = List.copyOf(tried);
    }

    /** Whether the hosts file answered. */
    public boolean fromHostsFile() {
      return !hostsAddresses.isEmpty();
    }
  }

  /** A hosts file line: an address and the names it answers. */
  public record HostsEntry(String address, List<String> names) {
    public HostsEntry {
      Objects.requireNonNull(address, "address");
      names = List.copyOf(names);
    }
  }

  /**
   * The hosts file the kubelet writes for a pod (Kubernetes' {@code managedHostsFileContent}): {@code localhost} on
   * {@code 127.0.0.1} and {@code ::1}, the pod's IPs with its host name (and {@code hostname.subdomain.namespace.svc.
   * domain} when it has a subdomain), then the {@code hostAliases}.
   */
  public static List<HostsEntry> hostsFile(List<String> podIps, String hostname, String subdomain, String namespace,
      String clusterDomain, List<HostAlias> hostAliases) {
    List<HostsEntry> out = new ArrayList<>();
    out.add(new HostsEntry("127.0.0.1", List.of("localhost")));
    out.add(new HostsEntry("::1", List.of("localhost", "ip6-localhost", "ip6-loopback")));
    for (String ip : podIps) {
      List<String> names = subdomain.isEmpty() ? List.of(hostname)
          : List.of(hostname + "." + subdomain + "." + namespace + ".svc." + clusterDomain, hostname);
      out.add(new HostsEntry(ip, names));
    }
    for (HostAlias a : hostAliases) {
      out.add(new HostsEntry(a.ip(), a.hostnames()));
    }
    return out;
  }

  /** {@code ndots} from resolver options ({@code ndots:N}, the last one wins), at most {@link #MAX_NDOTS}. */
  public static int ndots(List<String> options) {
    int n = DEFAULT_NDOTS;
    for (String o : options) {
      if (o.startsWith("ndots:")) {
        try {
          n = Math.min(MAX_NDOTS, Math.max(0, Integer.parseInt(o.substring("ndots:".length()))));
        } catch (NumberFormatException e) {
          // glibc ignores a value it cannot read
        }
      }
    }
    return n;
  }

  /**
   * Looks {@code name} up of type {@code type} as a process of the pod would: its hosts file first (A and AAAA), then
   * {@code dns} with {@code config}'s search domains and {@code ndots}.
   */
  public static Lookup resolve(ResolverConfig config, List<HostsEntry> hosts, String name, RecordType type,
      Function<String, DnsResponse> dns) {
    Objects.requireNonNull(name, "name");
    if (name.isEmpty()) {
      throw new IllegalArgumentException("name: must not be empty");
    }
    boolean absolute = name.endsWith(".");
    String bare = absolute ? name.substring(0, name.length() - 1) : name;
    if (type == RecordType.A || type == RecordType.AAAA) {
      List<String> found = new ArrayList<>();
      for (HostsEntry e : hosts) {
        boolean v6 = e.address().indexOf(':') >= 0;
        if (v6 != (type == RecordType.AAAA)) {
          continue;
        }
        for (String n : e.names()) {
          if (n.toLowerCase(Locale.ROOT).equals(bare.toLowerCase(Locale.ROOT))) {
            found.add(e.address());
            break;
          }
        }
      }
      if (!found.isEmpty()) {
        return new Lookup(found, List.of(), null, null);
      }
    }
    List<Attempt> tried = new ArrayList<>();
    if (absolute) {
      DnsResponse r = dns.apply(name);
      tried.add(attempt(name, r));
      return new Lookup(List.of(), tried, name, r);
    }
    int dots = 0;
    for (int i = 0; i < bare.length(); i++) {
      if (bare.charAt(i) == '.') {
        dots++;
      }
    }
    boolean triedAsIs = false;
    DnsResponse last = null;
    String lastName = null;
    DnsResponse nodata = null;
    String nodataName = null;
    List<String> order = new ArrayList<>();
    if (dots >= ndots(config.options())) {
      order.add(bare + ".");
      triedAsIs = true;
    }
    for (String domain : config.searches()) {
      String d = domain.endsWith(".") ? domain.substring(0, domain.length() - 1) : domain;
      if (!d.isEmpty()) {
        order.add(bare + "." + d + ".");
      }
    }
    if (!triedAsIs) {
      order.add(bare + ".");
    }
    for (String q : order) {
      DnsResponse r = dns.apply(q);
      tried.add(attempt(q, r));
      if (r.rcode() == Rcode.NOERROR && !r.answers().isEmpty()) {
        return new Lookup(List.of(), tried, q, r);
      }
      if (r.rcode() == Rcode.NOERROR && nodata == null) {
        nodata = r;
        nodataName = q;
      }
      last = r;
      lastName = q;
    }
    return nodata != null ? new Lookup(List.of(), tried, nodataName, nodata)
        : new Lookup(List.of(), tried, lastName, last);
  }

  private static Attempt attempt(String name, DnsResponse r) {
    return new Attempt(name, r.rcode(), r.answers().size());
  }
}
