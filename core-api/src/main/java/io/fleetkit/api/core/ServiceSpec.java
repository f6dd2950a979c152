package io.fleetkit.api.core;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The desired state of a Service. Rules are checked by {@link Service}.
 *
 * @param selector labels of the pods that back the Service; empty for a Service without selector
 * @param type how the Service is exposed
 * @param clusterIP empty to have one allocated, {@value #CLUSTER_IP_NONE} for a headless Service, else an IP
 */
public record ServiceSpec(Map<String, String> selector, List<ServicePort> ports, ServiceType type,
    String clusterIP, SessionAffinity sessionAffinity) {
  /** The {@code clusterIP} of a headless Service. */
  public static final String CLUSTER_IP_NONE = "None";

  public ServiceSpec {
    selector = Map.copyOf(selector);
    ports = List.copyOf(ports);
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(clusterIP, "clusterIP");
    Objects.requireNonNull(sessionAffinity, "sessionAffinity");
  }

  /** Whether this Service is headless ({@code clusterIP: None}). */
  public boolean headless() {
    return CLUSTER_IP_NONE.equals(clusterIP);
  }

  public static Builder builder() {
    return new Builder();
  }

  public Builder toBuilder() {
    Builder b = new Builder().selector(selector).ports(ports).type(type).clusterIP(clusterIP);
    return b.sessionAffinity(sessionAffinity);
  }

  /** Mutable builder; defaults as in Kubernetes (ClusterIP, no session affinity). Not thread-safe. */
  public static final class Builder {
    private final Map<String, String> selector = new LinkedHashMap<>();
    private final List<ServicePort> ports = new ArrayList<>();
    private ServiceType type = ServiceType.ClusterIP;
    private String clusterIP = "";
    private SessionAffinity sessionAffinity = SessionAffinity.None;

    private Builder() {}

    public Builder selector(Map<String, String> v) { selector.clear(); selector.putAll(v); return this; }
    public Builder selector(String key, String value) { selector.put(key, value); return this; }
    public Builder ports(List<ServicePort> v) { ports.clear(); ports.addAll(v); return this; }
    public Builder port(ServicePort v) { ports.add(v); return this; }
    public Builder type(ServiceType v) { type = v; return this; }
    public Builder clusterIP(String v) { clusterIP = v; return this; }
    public Builder headless() { clusterIP = CLUSTER_IP_NONE; return this; }
    public Builder sessionAffinity(SessionAffinity v) { sessionAffinity = v; return this; }

    public ServiceSpec build() {
      return new ServiceSpec(selector, ports, type, clusterIP, sessionAffinity);
    }
  }
}
