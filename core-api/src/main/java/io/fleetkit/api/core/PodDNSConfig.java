package io.fleetkit.api.core;

import java.util.List;

/**
 * DNS parameters of a pod in addition to those its {@link DNSPolicy} gives ({@code spec.dnsConfig}, Kubernetes'
 * {@code PodDNSConfig}): merged into the resolver configuration the kubelet writes, duplicates removed. The limits
 * (at most {@value #MAX_NAMESERVERS} nameservers, {@value #MAX_SEARCH_PATHS} search paths of at most
 * {@value #MAX_SEARCH_LIST_CHARS} characters in all) are checked when the pod is built. {@code null} lists become
 * empty.
 *
 * @param nameservers IP addresses of DNS servers
 * @param searches search domains for host-name lookup
 * @param options resolver options
 */
public record PodDNSConfig(List<String> nameservers, List<String> searches, List<PodDNSConfigOption> options) {
  /** Kubernetes' {@code MaxDNSNameservers}. */
  public static final int MAX_NAMESERVERS = 3;
  /** Kubernetes' {@code MaxDNSSearchPaths}. */
  public static final int MAX_SEARCH_PATHS = 32;
  /** Kubernetes' {@code MaxDNSSearchListChars}: the search list joined with spaces. */
  public static final int MAX_SEARCH_LIST_CHARS = 2048;

  public PodDNSConfig {
    nameservers = nameservers == null ? List.of() : List.copyOf(nameservers);
    searches = searches == null ? List.of() : List.copyOf(searches);
    options = options == null ? List.of() : List.copyOf(options);
  }
}
