package io.fleetkit.api.store.spi;

import io.fleetkit.api.Violations;
import io.fleetkit.api.core.IPFamily;
import io.fleetkit.api.core.IPFamilyPolicy;
import io.fleetkit.api.core.Service;
import io.fleetkit.api.core.ServiceSpec;
import io.fleetkit.api.core.ServiceType;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Kubernetes' {@code ValidateServiceUpdate} beyond the new Service's own validation: once set, cluster IPs and IP
 * families change only by adding a secondary (never its primary) or, with {@code ipFamilyPolicy: SingleStack}, by
 * releasing it; headless Services, and a change to or from headless, may change families; a Service of, or becoming,
 * type ExternalName is free (its addresses are dropped); a LoadBalancer Service that stays one keeps its
 * {@code loadBalancerClass}; a Service that needs a health-check node port before and after keeps its
 * {@code healthCheckNodePort} (an update that omits it is refused too: upstream's registry copies the allocated port
 * into the update before validating, FleetKit does not). Everything else of a Service's spec may change (type, ports, selector, affinity, traffic
 * policies, source ranges, {@code allocateLoadBalancerNodePorts}), subject to the new Service's validation when it is
 * built. Stateless.
 */
final class ServiceUpdateRule {
  /** Upstream's rule for releasing a secondary without the SingleStack policy, completed by "clusterIP"/"ipFamily". */
  static final String SINGLE_STACK = "must be set to 'SingleStack' when releasing the secondary ";
  static final String CHANGED = "may not change once set";

  private ServiceUpdateRule() {}

  static void check(Service stored, Service updated) {
    ServiceSpec o = stored.spec();
    ServiceSpec n = updated.spec();
    if (o == n) {
      return;
    }
    Violations v = UpdateChecks.violations(updated);
    if (n.type() != ServiceType.ExternalName && o.type() != ServiceType.ExternalName) {
      List<String> oldIps = clusterIPs(o);
      List<String> newIps = clusterIPs(n);
      boolean oldHeadless = isHeadless(oldIps);
      boolean newHeadless = isHeadless(newIps);
      if (!(oldHeadless && newHeadless)) {
        clusterIPs(oldIps, newIps, n.ipFamilyPolicy(), v);
      }
      if (oldHeadless == newHeadless && !newHeadless) {
        families(o.ipFamilies(), n.ipFamilies(), newIps, n.ipFamilyPolicy(), v);
      }
    }
    if (o.type() == ServiceType.LoadBalancer && n.type() == ServiceType.LoadBalancer
        && !o.loadBalancerClass().equals(n.loadBalancerClass())) {
      v.add("spec.loadBalancerClass", CHANGED, n.loadBalancerClass());
    }
    if (o.needsHealthCheck() && n.needsHealthCheck()
        && !Objects.equals(o.healthCheckNodePort(), n.healthCheckNodePort())) {
      v.add("spec.healthCheckNodePort", "field is immutable", n.healthCheckNodePort());
    }
    v.throwIfAny();
  }

  /** {@code validateUpgradeDowngradeClusterIPs}. */
  private static void clusterIPs(List<String> oldIps, List<String> newIps, @Nullable IPFamilyPolicy policy,
      Violations v) {
    if (oldIps.size() == newIps.size()) {
      for (int i = 0; i < oldIps.size(); i++) {
        if (!oldIps.get(i).equals(newIps.get(i))) {
          v.add("spec.clusterIPs[" + i + "]", CHANGED, newIps);
        }
      }
    } else if (oldIps.size() > newIps.size()) {
      if (newIps.isEmpty()) {
        v.add("spec.clusterIPs[0]", "primary clusterIP can not be unset", newIps);
      } else if (!oldIps.get(0).equals(newIps.get(0))) {
        v.add("spec.clusterIPs[0]", CHANGED, newIps);
      }
      if (newIps.size() == 1 && policy != IPFamilyPolicy.SingleStack) {
        v.add("spec.ipFamilyPolicy", SINGLE_STACK + "clusterIP", policy);
      }
    } else if (!oldIps.isEmpty() && !oldIps.get(0).equals(newIps.get(0))) {
      v.add("spec.clusterIPs[0]", CHANGED, newIps);
    }
  }

  /** {@code validateUpgradeDowngradeIPFamilies}, for Services that are not headless before and after. */
  private static void families(List<IPFamily> of, List<IPFamily> nf, List<String> newIps,
      @Nullable IPFamilyPolicy policy, Violations v) {
    if (of.size() == nf.size()) {
      for (int i = 0; i < of.size(); i++) {
        if (of.get(i) != nf.get(i)) {
          v.add("spec.ipFamilies[0]", CHANGED, nf);
        }
      }
    } else if (of.size() > nf.size()) {
      if (newIps.isEmpty()) {
        v.add("spec.ipFamilies[0]", "primary ipFamily can not be unset", nf);
      }
      if (!nf.isEmpty() && nf.get(0) != of.get(0)) {
        v.add("spec.ipFamilies[0]", CHANGED, newIps);
      }
      if (nf.size() == 1 && policy != IPFamilyPolicy.SingleStack) {
        v.add("spec.ipFamilyPolicy", SINGLE_STACK + "ipFamily", policy);
      }
    } else if (!of.isEmpty() && nf.get(0) != of.get(0)) {
      v.add("spec.ipFamilies[0]", CHANGED, newIps);
    }
  }

  /** {@code spec.clusterIPs}, or {@code [clusterIP]} when only that is set (as the API server defaults it). */
  static List<String> clusterIPs(ServiceSpec s) {
    if (!s.clusterIPs().isEmpty() || s.clusterIP().isEmpty()) {
      return s.clusterIPs();
    }
    return List.of(s.clusterIP());
  }

  private static boolean isHeadless(List<String> ips) {
    return ips.size() == 1 && ServiceSpec.CLUSTER_IP_NONE.equals(ips.get(0));
  }
}
