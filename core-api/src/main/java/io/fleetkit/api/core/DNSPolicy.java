package io.fleetkit.api.core;

/**
 * How a pod's DNS resolver is configured ({@code spec.dnsPolicy}, Kubernetes' {@code DNSPolicy}); Kubernetes defaults
 * it to {@link #ClusterFirst}. {@link #None} takes everything from the pod's {@link PodDNSConfig}, which must then name
 * at least one nameserver.
 */
public enum DNSPolicy {
  /** The cluster DNS first, also for a pod on the host's network. */
  ClusterFirstWithHostNet,
  /** The cluster DNS first (the default); a pod on the host's network falls back to {@link #Default}. */
  ClusterFirst,
  /** The resolver configuration of the node the pod runs on. */
  Default,
  /** Only the pod's {@code dnsConfig}. */
  None
}
