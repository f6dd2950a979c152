package io.fleetkit.api.core;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The desired state of a Service. Rules are checked by {@link Service}.
 *
 * @param selector labels of the pods that back the Service; empty for a Service without selector
 * @param type how the Service is exposed
 * @param clusterIP empty to have one allocated, {@value #CLUSTER_IP_NONE} for a headless Service, else an IP
 * @param clusterIPs every cluster IP, one per family, the first equal to {@code clusterIP}; empty when unset
 * @param ipFamilies the families of the Service's addresses in order; empty when unset (the family of the cluster
 *     IP then applies, and a headless Service without families serves both)
 * @param publishNotReadyAddresses endpoints count as ready whatever the pod's readiness (StatefulSet peers)
 * @param externalName the DNS name an {@code ExternalName} Service aliases; empty when unset (other types may carry
 *     one, as in Kubernetes; nothing reads it there)
 * @param internalTrafficPolicy where traffic from inside the cluster may go
 * @param externalTrafficPolicy where traffic from outside (node ports, load balancer) may go
 * @param trafficDistribution {@code PreferClose} (or {@code PreferSameZone}, {@code PreferSameNode}) for
 *     topology hints; empty when unset
 * @param sessionAffinityTimeoutSeconds the {@code ClientIP} affinity timeout
 *     ({@code sessionAffinityConfig.clientIP.timeoutSeconds}), 1..86400, default {@value #DEFAULT_AFFINITY_TIMEOUT}
 * @param ipFamilyPolicy how many IP families the Service asks for; {@code null} when unset (the address allocator
 *     writes the default when it gives the Service its addresses)
 * @param loadBalancerSourceRanges the client CIDRs a LoadBalancer Service's load balancer admits; empty when unset
 * @param allocateLoadBalancerNodePorts whether a LoadBalancer Service gets node ports; {@code null} when unset, which
 *     for a LoadBalancer Service means {@code true} (Kubernetes' default), see {@link #allocatesNodePorts()}
 * @param loadBalancerClass the load balancer implementation a LoadBalancer Service asks for (a qualified name such as
 *     {@code example.com/internal-vip}); empty when unset, i.e. the cluster's default implementation
 * @param externalIPs addresses outside the cluster at which the nodes also accept the Service's traffic; empty when
 *     unset
 * @param loadBalancerIP the address a LoadBalancer Service asks its load balancer for (deprecated in Kubernetes in
 *     favour of implementation-specific annotations); empty when unset
 * @param healthCheckNodePort the node port on which a LoadBalancer Service with {@code externalTrafficPolicy: Local}
 *     answers its load balancer's health checks; {@code null} when unset (the address allocator then gives it one),
 *     see {@link #needsHealthCheck()}
 */
public record ServiceSpec(Map<String, String> selector, List<ServicePort> ports, ServiceType type,
    String clusterIP, SessionAffinity sessionAffinity, List<String> clusterIPs, List<IPFamily> ipFamilies,
    boolean publishNotReadyAddresses, String externalName, ServiceTrafficPolicy internalTrafficPolicy,
    ServiceTrafficPolicy externalTrafficPolicy, String trafficDistribution, int sessionAffinityTimeoutSeconds,
    @Nullable IPFamilyPolicy ipFamilyPolicy, List<String> loadBalancerSourceRanges,
    @Nullable Boolean allocateLoadBalancerNodePorts, String loadBalancerClass, List<String> externalIPs,
    String loadBalancerIP, @Nullable Integer healthCheckNodePort) {
  /** The {@code clusterIP} of a headless Service. */
  public static final String CLUSTER_IP_NONE = "None";
  /** Kubernetes' default {@code ClientIP} affinity timeout: three hours. */
  public static final int DEFAULT_AFFINITY_TIMEOUT = 10800;

  public ServiceSpec {
    selector = Map.copyOf(selector);
    ports = List.copyOf(ports);
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(clusterIP, "clusterIP");
    Objects.requireNonNull(sessionAffinity, "sessionAffinity");
    clusterIPs = List.copyOf(clusterIPs);
    ipFamilies = List.copyOf(ipFamilies);
    Objects.requireNonNull(externalName, "externalName");
    Objects.requireNonNull(internalTrafficPolicy, "internalTrafficPolicy");
    Objects.requireNonNull(externalTrafficPolicy, "externalTrafficPolicy");
    Objects.requireNonNull(trafficDistribution, "trafficDistribution");
    loadBalancerSourceRanges = List.copyOf(loadBalancerSourceRanges);
    Objects.requireNonNull(loadBalancerClass, "loadBalancerClass");
    externalIPs = List.copyOf(externalIPs);
    Objects.requireNonNull(loadBalancerIP, "loadBalancerIP");
  }

  /** A spec with Kubernetes' defaults for the fields not named. */
  public ServiceSpec(Map<String, String> selector, List<ServicePort> ports, ServiceType type, String clusterIP,
      SessionAffinity sessionAffinity) {
    this(selector, ports, type, clusterIP, sessionAffinity, List.of(), List.of(), false, "",
        ServiceTrafficPolicy.Cluster, ServiceTrafficPolicy.Cluster, "", DEFAULT_AFFINITY_TIMEOUT, null, List.of(),
        null, "", List.of(), "", null);
  }

  /** Whether this Service is headless ({@code clusterIP: None}). */
  public boolean headless() {
    return CLUSTER_IP_NONE.equals(clusterIP);
  }

  /**
   * Whether the Service gets node ports for the ports that name none: NodePort Services always, LoadBalancer
   * Services unless {@code allocateLoadBalancerNodePorts} is {@code false} (upstream's
   * {@code shouldAllocateNodePorts}); other types never.
   */
  public boolean allocatesNodePorts() {
    return type == ServiceType.NodePort
        || (type == ServiceType.LoadBalancer && !Boolean.FALSE.equals(allocateLoadBalancerNodePorts));
  }

  /**
   * Whether traffic reaches the Service from outside the cluster: NodePort and LoadBalancer Services, and ClusterIP
   * Services with {@code externalIPs} (upstream's {@code ExternallyAccessible}); only these may set
   * {@code externalTrafficPolicy: Local}.
   */
  public boolean externallyAccessible() {
    return type == ServiceType.NodePort || type == ServiceType.LoadBalancer
        || (type == ServiceType.ClusterIP && !externalIPs.isEmpty());
  }

  /**
   * Whether the Service has a health-check node port: a LoadBalancer Service with {@code externalTrafficPolicy:
   * Local} (upstream's {@code NeedsHealthCheck}); only these may set {@code healthCheckNodePort}.
   */
  public boolean needsHealthCheck() {
    return type == ServiceType.LoadBalancer && externalTrafficPolicy == ServiceTrafficPolicy.Local;
  }

  /** The cluster IPs: {@code clusterIPs}, else {@code clusterIP} alone; empty when headless or unallocated. */
  public List<String> allClusterIPs() {
    if (headless() || clusterIP.isEmpty()) {
      return List.of();
    }
    return clusterIPs.isEmpty() ? List.of(clusterIP) : clusterIPs;
  }

  /** The port named {@code name}, or {@code null}. */
  public @Nullable ServicePort port(String name) {
    for (ServicePort p : ports) {
      if (p.name().equals(name)) {
        return p;
      }
    }
    return null;
  }

  public ServiceSpec withClusterIPs(List<String> ips) {
    return toBuilder().clusterIP(ips.isEmpty() ? "" : ips.get(0)).clusterIPs(ips).build();
  }

  public static Builder builder() {
    return new Builder();
  }

  public Builder toBuilder() {
    Builder b = new Builder().selector(selector).ports(ports).type(type).clusterIP(clusterIP);
    b.sessionAffinity(sessionAffinity).clusterIPs(clusterIPs).ipFamilies(ipFamilies);
    b.publishNotReadyAddresses(publishNotReadyAddresses).externalName(externalName);
    b.internalTrafficPolicy(internalTrafficPolicy).externalTrafficPolicy(externalTrafficPolicy);
    b.ipFamilyPolicy(ipFamilyPolicy).loadBalancerSourceRanges(loadBalancerSourceRanges);
    b.allocateLoadBalancerNodePorts(allocateLoadBalancerNodePorts).loadBalancerClass(loadBalancerClass);
    b.externalIPs(externalIPs).loadBalancerIP(loadBalancerIP).healthCheckNodePort(healthCheckNodePort);
    return b.trafficDistribution(trafficDistribution).sessionAffinityTimeoutSeconds(sessionAffinityTimeoutSeconds);
  }

  /** Mutable builder; defaults as in Kubernetes (ClusterIP, no session affinity). Not thread-safe. */
  public static final class Builder {
    private final Map<String, String> selector = new LinkedHashMap<>();
    private final List<ServicePort> ports = new ArrayList<>();
    private ServiceType type = ServiceType.ClusterIP;
    private String clusterIP = "";
    private SessionAffinity sessionAffinity = SessionAffinity.None;
    private final List<String> clusterIPs = new ArrayList<>();
    private final List<IPFamily> ipFamilies = new ArrayList<>();
    private boolean publishNotReadyAddresses;
    private String externalName = "";
    private ServiceTrafficPolicy internalTrafficPolicy = ServiceTrafficPolicy.Cluster;
    private ServiceTrafficPolicy externalTrafficPolicy = ServiceTrafficPolicy.Cluster;
    private String trafficDistribution = "";
    private int sessionAffinityTimeoutSeconds = DEFAULT_AFFINITY_TIMEOUT;
    private @Nullable IPFamilyPolicy ipFamilyPolicy;
    private final List<String> loadBalancerSourceRanges = new ArrayList<>();
    private @Nullable Boolean allocateLoadBalancerNodePorts;
    private String loadBalancerClass = "";
    private final List<String> externalIPs = new ArrayList<>();
    private String loadBalancerIP = "";
    private @Nullable Integer healthCheckNodePort;

    private Builder() {}

    public Builder selector(Map<String, String> v) { selector.clear(); selector.putAll(v); return this; }
    public Builder selector(String key, String value) { selector.put(key, value); return this; }
    public Builder ports(List<ServicePort> v) { ports.clear(); ports.addAll(v); return this; }
    public Builder port(ServicePort v) { ports.add(v); return this; }
    public Builder type(ServiceType v) { type = v; return this; }
    public Builder clusterIP(String v) { clusterIP = v; return this; }
    public Builder headless() { clusterIP = CLUSTER_IP_NONE; return this; }
    public Builder sessionAffinity(SessionAffinity v) { sessionAffinity = v; return this; }
    public Builder clusterIPs(List<String> v) { clusterIPs.clear(); clusterIPs.addAll(v); return this; }
    public Builder ipFamilies(List<IPFamily> v) { ipFamilies.clear(); ipFamilies.addAll(v); return this; }
    public Builder publishNotReadyAddresses(boolean v) { publishNotReadyAddresses = v; return this; }
    public Builder externalName(String v) { externalName = v; return this; }
    public Builder internalTrafficPolicy(ServiceTrafficPolicy v) { internalTrafficPolicy = v; return this; }
    public Builder externalTrafficPolicy(ServiceTrafficPolicy v) { externalTrafficPolicy = v; return this; }
    public Builder trafficDistribution(String v) { trafficDistribution = v; return this; }
    public Builder sessionAffinityTimeoutSeconds(int v) { sessionAffinityTimeoutSeconds = v; return this; }
    /** {@code null} leaves the policy unset. */
    public Builder ipFamilyPolicy(@Nullable IPFamilyPolicy v) { ipFamilyPolicy = v; return this; }
    public Builder loadBalancerSourceRanges(List<String> v) {
      loadBalancerSourceRanges.clear();
      loadBalancerSourceRanges.addAll(v);
      return this;
    }
    /** {@code null} leaves it unset ({@code true} for a LoadBalancer Service). */
    public Builder allocateLoadBalancerNodePorts(@Nullable Boolean v) {
      allocateLoadBalancerNodePorts = v;
      return this;
    }
    public Builder loadBalancerClass(String v) { loadBalancerClass = v; return this; }
    public Builder externalIPs(List<String> v) { externalIPs.clear(); externalIPs.addAll(v); return this; }
    public Builder loadBalancerIP(String v) { loadBalancerIP = v; return this; }
    /** {@code null} leaves it unset (allocated with the node ports when the Service needs one). */
    public Builder healthCheckNodePort(@Nullable Integer v) { healthCheckNodePort = v; return this; }

    public ServiceSpec build() {
      return new ServiceSpec(selector, ports, type, clusterIP, sessionAffinity, clusterIPs, ipFamilies,
          publishNotReadyAddresses, externalName, internalTrafficPolicy, externalTrafficPolicy, trafficDistribution,
          sessionAffinityTimeoutSeconds, ipFamilyPolicy, loadBalancerSourceRanges, allocateLoadBalancerNodePorts,
          loadBalancerClass, externalIPs, loadBalancerIP, healthCheckNodePort);
    }
  }
}
