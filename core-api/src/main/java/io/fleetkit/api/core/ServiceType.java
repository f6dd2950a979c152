package io.fleetkit.api.core;

/** How a Service is exposed, spelled as in Kubernetes. Defaults to ClusterIP. */
public enum ServiceType {
  /** A virtual IP reachable inside the cluster only. */
  ClusterIP,
  /** ClusterIP plus a port on every node. */
  NodePort,
  /** NodePort plus an external load balancer. */
  LoadBalancer,
  /** A DNS alias ({@code CNAME}) for {@code spec.externalName}; no cluster IP, no endpoints. */
  ExternalName
}
