package io.fleetkit.reconcile.node;

import io.fleetkit.api.core.DNSPolicy;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodDNSConfig;
import io.fleetkit.api.core.PodDNSConfigOption;
import io.fleetkit.api.core.PodSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The resolver configuration a kubelet writes for a pod (Kubernetes' {@code pkg/kubelet/network/dns/dns.go},
 * {@code Configurer.GetPodDNS}), as a pure function of the kubelet's settings and the pod.
 *
 * <ul>
 *   <li>{@link DNSPolicy#ClusterFirst} (unless the pod uses the host's network) and
 *       {@link DNSPolicy#ClusterFirstWithHostNet}: the cluster DNS servers only, the search domains
 *       {@code <namespace>.svc.<domain>}, {@code svc.<domain>}, {@code <domain>} and then the host's, option
 *       {@code ndots:5}. Without cluster DNS servers the pod falls back to {@link DNSPolicy#Default}, with the warning
 *       {@code MissingClusterDNS}.
 *   <li>{@link DNSPolicy#Default} (and ClusterFirst on the host's network): the host's configuration; with no
 *       {@code resolv.conf} ({@code --resolv-conf=""}) a local nameserver per node address family and search
 *       {@code .}.
 *   <li>{@link DNSPolicy#None}: nothing but the pod's {@code dnsConfig}.
 * </ul>
 *
 * <p>Then the pod's {@code dnsConfig} is appended (duplicates removed; an option of the pod's replaces one of the same
 * name) and the result cut to the resolver's limits: at most {@value PodDNSConfig#MAX_NAMESERVERS} nameservers,
 * {@value PodDNSConfig#MAX_SEARCH_PATHS} search domains, none longer than 253 characters, and
 * {@value PodDNSConfig#MAX_SEARCH_LIST_CHARS} characters in all (the last domains dropped); each cut is a
 * {@code DNSConfigForming} warning with upstream's message. Immutable and thread-safe.
 *
 * @param clusterDns the cluster DNS server addresses ({@code --cluster-dns}); empty when not configured
 * @param clusterDomain the cluster domain ({@code --cluster-domain}, e.g. {@code cluster.local}); empty for none
 * @param hostConfig the node's {@code resolv.conf} ({@code --resolv-conf}); {@code null} when set to {@code ""}
 * @param nodeIps the node's addresses, which decide the local nameservers used without a {@code resolv.conf}
 */
public record PodDns(List<String> clusterDns, String clusterDomain, @Nullable ResolverConfig hostConfig,
    List<String> nodeIps) {
  /** The options of the cluster policies ({@code defaultDNSOptions}). */
  public static final List<String> DEFAULT_OPTIONS = List.of("ndots:5");
  /** A search domain longer than this is dropped (glibc aborts on one). */
  private static final int MAX_SEARCH_LENGTH = 253;

  public PodDns {
    clusterDns = List.copyOf(clusterDns);
    Objects.requireNonNull(clusterDomain, "clusterDomain");
    nodeIps = List.copyOf(nodeIps);
  }

  /** The configuration and the warnings of one pod. */
  public record Result(ResolverConfig config, List<String> warnings) {
    public Result {
      warnings = List.copyOf(warnings);
    }
  }

  /** How the base configuration is chosen ({@code getPodDNSType}). */
  enum Kind { CLUSTER, HOST, NONE }

  /** Upstream's {@code getPodDNSType}: ClusterFirst on the host's network falls back to the host's configuration. */
  static Kind kind(DNSPolicy policy, boolean hostNetwork) {
    return switch (policy) {
      case None -> Kind.NONE;
      case ClusterFirstWithHostNet -> Kind.CLUSTER;
      case ClusterFirst -> hostNetwork ? Kind.HOST : Kind.CLUSTER;
      case Default -> Kind.HOST;
    };
  }

  /**
   * The resolver configuration for {@code pod} ({@code GetPodDNS}), in the node's network namespace when its spec says
   * {@code hostNetwork}.
   */
  public Result forPod(Pod pod) {
    return forSpec(pod.metadata().namespace(), pod.spec(), pod.spec().hostNetwork());
  }

  /**
   * {@link #forPod} for a pod of {@code namespace} with {@code spec}; {@code hostNetwork} whether it runs in the node's
   * network namespace (upstream's tests give it apart from the spec).
   */
  public Result forSpec(String namespace, PodSpec spec, boolean hostNetwork) {
    List<String> warnings = new ArrayList<>(0);
    ResolverConfig host = hostConfig == null ? ResolverConfig.EMPTY : hostConfig;
    List<String> servers = host.servers();
    List<String> searches = host.searches();
    List<String> options = host.options();
    Kind kind = kind(spec.dnsPolicy(), hostNetwork);
    if (kind == Kind.NONE) {
      servers = List.of();
      searches = List.of();
      options = List.of();
    } else if (kind == Kind.CLUSTER && !clusterDns.isEmpty()) {
      servers = clusterDns;
      searches = clusterSearches(namespace, searches);
      options = DEFAULT_OPTIONS;
    } else {
      if (kind == Kind.CLUSTER) {
        warnings.add("MissingClusterDNS: kubelet does not have ClusterDNS IP configured and cannot create Pod using"
            + " \"ClusterFirst\" policy. Falling back to \"Default\" policy.");
      }
      if (hostConfig == null) {
        List<String> local = new ArrayList<>(servers);
        for (String ip : nodeIps) {
          local.add(ip.indexOf(':') >= 0 ? "::1" : "127.0.0.1");
        }
        if (local.isEmpty()) {
          local.add("127.0.0.1");
        }
        servers = local;
        searches = List.of(".");
      }
    }
    PodDNSConfig own = spec.dnsConfig();
    if (own != null) {
      servers = distinct(servers, own.nameservers());
      searches = distinct(searches, own.searches());
      options = mergeOptions(options, own.options());
    }
    return new Result(new ResolverConfig(fitNameservers(servers, warnings), fitSearches(searches, warnings), options),
        warnings);
  }

  /** Upstream's {@code generateSearchesForDNSClusterFirst}. */
  private List<String> clusterSearches(String namespace, List<String> hostSearches) {
    if (clusterDomain.isEmpty()) {
      return hostSearches;
    }
    return distinct(List.of(namespace + ".svc." + clusterDomain, "svc." + clusterDomain, clusterDomain),
        hostSearches);
  }

  /** {@code a} then {@code b}, each value once, in first-seen order ({@code omitDuplicates}). */
  static List<String> distinct(List<String> a, List<String> b) {
    LinkedHashSet<String> out = new LinkedHashSet<>(a);
    out.addAll(b);
    return List.copyOf(out);
  }

  /**
   * Upstream's {@code mergeDNSOptions}: {@code name:value} options by name, the pod's replacing the base's, written
   * back as {@code name} or {@code name:value}. Upstream's order is a Go map's; here the first appearance's.
   */
  static List<String> mergeOptions(List<String> base, List<PodDNSConfigOption> pods) {
    Map<String, String> byName = new LinkedHashMap<>();
    for (String op : base) {
      int colon = op.indexOf(':');
      if (colon >= 0) {
        byName.put(op.substring(0, colon), op.substring(colon + 1));
      } else {
        byName.put(op, "");
      }
    }
    for (PodDNSConfigOption op : pods) {
      byName.put(op.name(), op.value() == null ? "" : op.value());
    }
    List<String> out = new ArrayList<>(byName.size());
    byName.forEach((name, value) -> out.add(value.isEmpty() ? name : name + ":" + value));
    return out;
  }

  /** Upstream's {@code formDNSNameserversFitsLimits}. */
  static List<String> fitNameservers(List<String> servers, List<String> warnings) {
    if (servers.size() <= PodDNSConfig.MAX_NAMESERVERS) {
      return servers;
    }
    List<String> kept = servers.subList(0, PodDNSConfig.MAX_NAMESERVERS);
    warnings.add("DNSConfigForming: Nameserver limits were exceeded, some nameservers have been omitted, the applied"
        + " nameserver line is: " + String.join(" ", kept));
    return kept;
  }

  /** Upstream's {@code formDNSSearchFitsLimits}. */
  static List<String> fitSearches(List<String> searches, List<String> warnings) {
    boolean exceeded = false;
    List<String> kept = searches;
    if (kept.size() > PodDNSConfig.MAX_SEARCH_PATHS) {
      kept = kept.subList(0, PodDNSConfig.MAX_SEARCH_PATHS);
      exceeded = true;
    }
    List<String> shortEnough = new ArrayList<>(kept.size());
    for (String s : kept) {
      if (s.length() > MAX_SEARCH_LENGTH) {
        exceeded = true;
      } else {
        shortEnough.add(s);
      }
    }
    kept = shortEnough;
    int length = String.join(" ", kept).length();
    if (length > PodDNSConfig.MAX_SEARCH_LIST_CHARS) {
      int cut = 0;
      int cutLength = 0;
      for (int i = kept.size() - 1; i >= 0; i--) {
        cutLength += kept.get(i).length() + 1;
        cut++;
        if (length - cutLength <= PodDNSConfig.MAX_SEARCH_LIST_CHARS) {
          break;
        }
      }
      kept = kept.subList(0, kept.size() - cut);
      exceeded = true;
    }
    if (exceeded) {
      warnings.add("DNSConfigForming: Search Line limits were exceeded, some search paths have been omitted, the"
          + " applied search line is: " + String.join(" ", kept));
    }
    return List.copyOf(kept);
  }
}
