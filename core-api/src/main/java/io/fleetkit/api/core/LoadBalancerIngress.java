package io.fleetkit.api.core;

import java.util.Objects;

/** One ingress point of a load balancer: an IP address or a host name (the other is empty). */
public record LoadBalancerIngress(String ip, String hostname) {
  public LoadBalancerIngress {
    Objects.requireNonNull(ip, "ip");
    Objects.requireNonNull(hostname, "hostname");
  }

  public static LoadBalancerIngress ofIp(String ip) {
    return new LoadBalancerIngress(ip, "");
  }

  public static LoadBalancerIngress ofHostname(String hostname) {
    return new LoadBalancerIngress("", hostname);
  }
}
