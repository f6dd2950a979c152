package io.fleetkit.networking.lb;

import io.fleetkit.api.core.Service;
import io.fleetkit.api.core.ServicePort;
import io.fleetkit.api.core.ServiceTrafficPolicy;
import io.fleetkit.api.core.ServiceType;

/**
 * What kube-proxy needs to know about a Service port to choose endpoints ({@code BaseServicePortInfo}).
 *
 * @param internalPolicyLocal {@code internalTrafficPolicy: Local}
 * @param externalPolicyLocal {@code externalTrafficPolicy: Local} on an externally accessible port
 * @param externallyAccessible the port has a node port (or load balancer)
 */
public record ServicePortPolicy(boolean internalPolicyLocal, boolean externalPolicyLocal,
    boolean externallyAccessible) {
  public ServicePortPolicy {
    externalPolicyLocal = externalPolicyLocal && externallyAccessible;
  }

  public static ServicePortPolicy of(Service service, ServicePort port) {
    boolean external = port.nodePort() != null || service.spec().type() == ServiceType.NodePort
        || service.spec().type() == ServiceType.LoadBalancer;
    return new ServicePortPolicy(service.spec().internalTrafficPolicy() == ServiceTrafficPolicy.Local,
        service.spec().externalTrafficPolicy() == ServiceTrafficPolicy.Local, external);
  }

  /** Cluster endpoints are needed for internal Cluster policy, or for any external traffic (short-circuiting). */
  public boolean usesClusterEndpoints() {
    return !internalPolicyLocal || externallyAccessible;
  }

  public boolean usesLocalEndpoints() {
    return internalPolicyLocal || externalPolicyLocal;
  }
}
