package io.fleetkit.api.store.spi;

import io.fleetkit.api.Violations;
import io.fleetkit.api.core.IPFamily;
import io.fleetkit.api.core.Service;
import io.fleetkit.api.core.ServiceSpec;
import io.fleetkit.api.core.ServiceType;
import java.util.List;

/**
 * Kubernetes' {@code ValidateServiceUpdate} beyond the new Service's own validation: once set, cluster IPs and IP
 * families change only by adding a secondary (and never its primary); headless Services, and a change to or from
 * headless, may change families; a Service of, or becoming, type ExternalName is free (its addresses are dropped).
 * Everything else of a Service's spec may change (type, ports, selector, affinity, traffic policies), subject to
 * the new Service's validation when it is built.
 *
 * <p>FleetKit has no {@code ipFamilyPolicy}: an unset policy is never {@code SingleStack}, so releasing the secondary
 * cluster IP or family is always refused, as upstream refuses it for every policy but SingleStack. Stateless.
 */
final class ServiceUpdateRule {
  /** Upstream's rule for a downgrade without the SingleStack policy, completed by "clusterIP" or "ipFamily". */
  static final String SINGLE_STACK = "`ipFamilyPolicy` must be set to 'SingleStack' when releasing the secondary ";
  static final String CHANGED = "may not change once set";

  private ServiceUpdateRule() {}

  static void check(Service stored, Service updated) {
    ServiceSpec o = stored.spec();
    ServiceSpec n = updated.spec();
    if (o == n) {
      return;
    }
    if (n.type() == ServiceType.ExternalName || o.type() == ServiceType.ExternalName) {
      return;
    }
    List<String> oldIps = clusterIPs(o);
    List<String> newIps = clusterIPs(n);
    if (oldIps.equals(newIps) && o.ipFamilies().equals(n.ipFamilies())) {
      return;
    }
    Violations v = UpdateChecks.violations(updated);
    boolean oldHeadless = isHeadless(oldIps);
    boolean newHeadless = isHeadless(newIps);
    if (!(oldHeadless && newHeadless)) {
      clusterIPs(oldIps, newIps, v);
    }
    if (oldHeadless == newHeadless && !newHeadless) {
      families(o.ipFamilies(), n.ipFamilies(), newIps, v);
    }
    v.throwIfAny();
  }

  /** {@code validateUpgradeDowngradeClusterIPs}. */
  private static void clusterIPs(List<String> oldIps, List<String> newIps, Violations v) {
    if (oldIps.size() == newIps.size()) {
      for (int i = 0; i < oldIps.size(); i++) {
        if (!oldIps.get(i).equals(newIps.get(i))) {
          v.add("spec.clusterIPs[0]", CHANGED, newIps);
        }
      }
    } else if (oldIps.size() > newIps.size()) {
      if (newIps.isEmpty()) {
        v.add("spec.clusterIPs[0]", "primary clusterIP can not be unset", newIps);
      } else if (!oldIps.get(0).equals(newIps.get(0))) {
        v.add("spec.clusterIPs[0]", CHANGED, newIps);
      }
      if (newIps.size() == 1) {
        v.add("spec.clusterIPs[0]", SINGLE_STACK + "clusterIP", newIps);
      }
    } else if (!oldIps.isEmpty() && !oldIps.get(0).equals(newIps.get(0))) {
      v.add("spec.clusterIPs[0]", CHANGED, newIps);
    }
  }

  /** {@code validateUpgradeDowngradeIPFamilies}, for Services that are not headless before and after. */
  private static void families(List<IPFamily> of, List<IPFamily> nf, List<String> newIps, Violations v) {
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
        v.add("spec.clusterIPs[0]", CHANGED, newIps);
      }
      if (nf.size() == 1) {
        v.add("spec.clusterIPs[0]", SINGLE_STACK + "ipFamily", newIps);
      }
    } else if (!of.isEmpty() && nf.get(0) != of.get(0)) {
      v.add("spec.ipFamilies[0]", CHANGED, newIps);
    }
  }

  /** {@code spec.clusterIPs}, or {@code [clusterIP]} when only that is set (as the API server defaults it). */
  private static List<String> clusterIPs(ServiceSpec s) {
    if (!s.clusterIPs().isEmpty() || s.clusterIP().isEmpty()) {
      return s.clusterIPs();
    }
    return List.of(s.clusterIP());
  }

  private static boolean isHeadless(List<String> ips) {
    return ips.size() == 1 && ServiceSpec.CLUSTER_IP_NONE.equals(ips.get(0));
  }
}
