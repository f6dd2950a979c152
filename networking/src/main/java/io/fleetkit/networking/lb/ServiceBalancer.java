package io.fleetkit.networking.lb;

import io.fleetkit.api.core.Service;
import io.fleetkit.api.core.ServicePort;
import io.fleetkit.api.core.SessionAffinity;
import io.fleetkit.api.discovery.EndpointSlice;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Picks the endpoint a connection to one Service port reaches from one node, as kube-proxy would route it: the
 * candidates are {@link EndpointCategorizer}'s (Local endpoints for {@code internalTrafficPolicy: Local}, or for
 * external traffic with {@code externalTrafficPolicy: Local}; Cluster endpoints otherwise), then the policy picks
 * one; with {@code sessionAffinity: ClientIP} a client keeps its endpoint while it stays usable and the client was
 * seen within the timeout. Empty when no endpoint is usable (the connection is rejected). Thread-safe.
 */
public final class ServiceBalancer {
  private final ServicePortPolicy portPolicy;
  private final String portName;
  private final boolean clientIpAffinity;
  private final Duration affinityTimeout;
  private final BalancingPolicy policy;
  private final String nodeName;
  private final String zone;
  private final Map<String, Sticky> sticky = new ConcurrentHashMap<>();

  private record Sticky(ProxyEndpoint endpoint, Instant lastUsed) {}

  /**
   * @param port the Service port connections go to
   * @param nodeName the node the proxy runs on
   * @param zone that node's zone (empty when unlabelled)
   */
  public ServiceBalancer(Service service, ServicePort port, String nodeName, String zone, BalancingPolicy policy) {
    this.portPolicy = ServicePortPolicy.of(service, port);
    this.portName = port.name();
    this.clientIpAffinity = service.spec().sessionAffinity() == SessionAffinity.ClientIP;
    this.affinityTimeout = Duration.ofSeconds(service.spec().sessionAffinityTimeoutSeconds());
    this.policy = Objects.requireNonNull(policy, "policy");
    this.nodeName = Objects.requireNonNull(nodeName, "nodeName");
    this.zone = Objects.requireNonNull(zone, "zone");
  }

  /** The usable endpoints for internal or external traffic. */
  public List<ProxyEndpoint> candidates(List<EndpointSlice> slices, boolean external) {
    EndpointCategorizer.Categorized c = EndpointCategorizer.categorize(
        ProxyEndpoint.fromSlices(slices, portName, nodeName), portPolicy, nodeName, zone);
    boolean useLocal = external ? portPolicy.externalPolicyLocal() : portPolicy.internalPolicyLocal();
    List<ProxyEndpoint> out = useLocal ? c.local() : c.cluster();
    return out == null ? List.of() : out;
  }

  /** The endpoint a connection from {@code clientIp} at {@code now} reaches, or empty when it is rejected. */
  public Optional<ProxyEndpoint> pick(List<EndpointSlice> slices, boolean external, String clientIp, Instant now) {
    List<ProxyEndpoint> candidates = candidates(slices, external);
    if (candidates.isEmpty()) {
      return Optional.empty();
    }
    if (clientIpAffinity) {
      Sticky s = sticky.get(clientIp);
      if (s != null && candidates.contains(s.endpoint())
          && Duration.between(s.lastUsed(), now).compareTo(affinityTimeout) < 0) {
        sticky.put(clientIp, new Sticky(s.endpoint(), now));
        return Optional.of(s.endpoint());
      }
    }
    ProxyEndpoint chosen = policy.pick(candidates);
    if (clientIpAffinity) {
      sticky.put(clientIp, new Sticky(chosen, now));
    }
    return Optional.of(chosen);
  }
}
