package io.fleetkit.api.store.spi;

import io.fleetkit.api.core.IPFamily;
import io.fleetkit.api.core.Service;
import io.fleetkit.api.core.ServicePort;
import io.fleetkit.api.core.ServiceSpec;
import io.fleetkit.api.core.ServiceType;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What an update does to a Service before its rules are checked, as Kubernetes' Service registry
 * ({@code pkg/registry/core/service/storage/storage.go} {@code patchAllocatedValues}, and {@code alloc.go}
 * {@code initIPFamilyFields} for an update): a client that puts back the manifest it created the Service from, without
 * the values the cluster allocated, keeps them.
 *
 * <ul>
 *   <li>while both versions need a cluster IP (neither is {@code ExternalName}): an empty {@code clusterIP} and empty
 *       {@code clusterIPs} are the stored ones;</li>
 *   <li>while both need node ports ({@code NodePort}, {@code LoadBalancer}): a port without a node port gets the one
 *       the stored port of the same name had, unless the update gives that node port to a port of its own;</li>
 *   <li>while both need a health-check node port: an unset one is the stored one;</li>
 *   <li>an unset {@code ipFamilyPolicy} is the stored one; unset {@code ipFamilies} for the stored addresses are the
 *       stored families, and families missing for cluster IPs are their addresses' families.</li>
 * </ul>
 */
final class ServiceWrites {
  private ServiceWrites() {}

  static Service prepareForUpdate(Service stored, Service updated) {
    ServiceSpec o = stored.spec();
    ServiceSpec n = updated.spec();
    ServiceSpec.Builder b = null;
    if (needsClusterIP(o) && needsClusterIP(n)) {
      if (n.clusterIP().isEmpty() && !o.clusterIP().isEmpty()) {
        b = builder(b, n).clusterIP(o.clusterIP());
      }
      if (n.clusterIPs().isEmpty() && !o.clusterIPs().isEmpty()) {
        b = builder(b, n).clusterIPs(o.clusterIPs());
      }
    }
    if (needsNodePorts(o) && needsNodePorts(n)) {
      List<ServicePort> ports = patchedNodePorts(o.ports(), n.ports());
      if (ports != null) {
        b = builder(b, n).ports(ports);
      }
    }
    if (o.needsHealthCheck() && n.needsHealthCheck() && n.healthCheckNodePort() == null
        && o.healthCheckNodePort() != null) {
      b = builder(b, n).healthCheckNodePort(o.healthCheckNodePort());
    }
    if (n.type() != ServiceType.ExternalName && n.ipFamilyPolicy() == null && o.ipFamilyPolicy() != null) {
      b = builder(b, n).ipFamilyPolicy(o.ipFamilyPolicy());
    }
    if (needsClusterIP(o) && needsClusterIP(n) && n.ipFamilies().isEmpty() && !o.ipFamilies().isEmpty()
        && ServiceUpdateRule.clusterIPs(b != null ? b.build() : n).equals(ServiceUpdateRule.clusterIPs(o))) {
      // the same addresses (a headless Service's "None" among them): the families the cluster gave them, as
      // initIPFamilyFields infers or defaults them again
      b = builder(b, n).ipFamilies(o.ipFamilies());
    }
    if (b == null) {
      return updated;
    }
    ServiceSpec patched = b.build();
    List<String> ips = ServiceUpdateRule.clusterIPs(patched);
    if (n.type() != ServiceType.ExternalName && patched.ipFamilies().size() < ips.size()) {
      List<IPFamily> families = new ArrayList<>(patched.ipFamilies());
      for (int i = families.size(); i < ips.size() && !ips.get(i).equals(ServiceSpec.CLUSTER_IP_NONE); i++) {
        families.add(IPFamily.of(ips.get(i)));
      }
      patched = patched.toBuilder().ipFamilies(families).build();
    }
    return updated.withSpec(patched);
  }

  private static ServiceSpec.Builder builder(ServiceSpec.Builder b, ServiceSpec n) {
    return b != null ? b : n.toBuilder();
  }

  private static boolean needsClusterIP(ServiceSpec s) {
    return s.type() != ServiceType.ExternalName;
  }

  private static boolean needsNodePorts(ServiceSpec s) {
    return s.type() == ServiceType.NodePort || s.type() == ServiceType.LoadBalancer;
  }

  /** The updated ports with the stored node ports patched in, or {@code null} when none was missing or known. */
  private static List<ServicePort> patchedNodePorts(List<ServicePort> stored, List<ServicePort> updated) {
    Set<Integer> usedBefore = new HashSet<>();
    Map<String, Integer> byName = new HashMap<>();
    for (ServicePort p : stored) {
      if (p.nodePort() != null) {
        usedBefore.add(p.nodePort());
        byName.put(p.name(), p.nodePort());
      }
    }
    Set<Integer> used = new HashSet<>(); // node ports both versions use: they cannot be patched in elsewhere
    for (ServicePort p : updated) {
      if (p.nodePort() != null && usedBefore.contains(p.nodePort())) {
        used.add(p.nodePort());
      }
    }
    List<ServicePort> out = null;
    for (int i = 0; i < updated.size(); i++) {
      ServicePort p = updated.get(i);
      Integer old = byName.get(p.name());
      if (p.nodePort() == null && old != null && !used.contains(old)) {
        if (out == null) {
          out = new ArrayList<>(updated);
        }
        out.set(i, new ServicePort(p.name(), p.protocol(), p.port(), p.targetPort(), old, p.appProtocol()));
      }
    }
    return out;
  }
}
