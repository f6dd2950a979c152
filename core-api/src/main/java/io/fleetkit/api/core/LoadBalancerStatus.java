package io.fleetkit.api.core;

import java.util.List;

/** The observed state of a Service's load balancer: its ingress points. */
public record LoadBalancerStatus(List<LoadBalancerIngress> ingress) {
  public LoadBalancerStatus {
    ingress = List.copyOf(ingress);
  }
}
