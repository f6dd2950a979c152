package io.fleetkit.api.core;

import java.util.List;
import java.util.Objects;

/**
 * An entry the kubelet adds to a pod's hosts file ({@code spec.hostAliases[i]}, Kubernetes' {@code HostAlias}): the
 * host names that resolve to {@code ip}. When the pod is built the address must be an IP address and each name a
 * DNS-1123 subdomain. A {@code null} list of names becomes empty.
 *
 * @param ip an IPv4 or IPv6 address
 * @param hostnames the names for it
 */
public record HostAlias(String ip, List<String> hostnames) {
  public HostAlias {
    Objects.requireNonNull(ip, "ip");
    hostnames = hostnames == null ? List.of() : List.copyOf(hostnames);
  }

  public static HostAlias of(String ip, String... hostnames) {
    return new HostAlias(ip, List.of(hostnames));
  }
}
