package io.fleetkit.api.store.spi;

import io.fleetkit.api.Violations;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.NodeAddress;
import io.fleetkit.api.core.NodeSpec;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Kubernetes' {@code ValidateNodeUpdate} beyond the new node's own validation: {@code spec.podCIDRs} and
 * {@code spec.providerID} may be set once (by the node IPAM controller, the cloud provider) and then never change;
 * {@code unschedulable} and taints may change. On the status path (upstream runs the same function for
 * {@code nodes/status}) the new {@code status.addresses} may not repeat an address. Stateless; both checks start
 * with a reference comparison, as nodes are written often (heartbeats).
 */
final class NodeUpdateRule {
  /** Upstream's rule for {@code spec.podCIDRs}. */
  static final String POD_CIDRS = "Forbidden: node updates may not change podCIDR except from \"\" to valid";
  /** Upstream's rule for {@code spec.providerID}. */
  static final String PROVIDER_ID = "Forbidden: node updates may not change providerID except from \"\" to valid";

  private NodeUpdateRule() {}

  /** The spec rules ({@code update}). */
  static void spec(Node stored, Node updated) {
    NodeSpec o = stored.spec();
    NodeSpec n = updated.spec();
    if (o == n) {
      return;
    }
    boolean cidrsKept = o.podCIDRs().isEmpty() || o.podCIDRs().equals(n.podCIDRs());
    boolean providerKept = o.providerID().isEmpty() || o.providerID().equals(n.providerID());
    if (cidrsKept && providerKept) {
      return;
    }
    Violations v = UpdateChecks.violations(updated);
    if (!cidrsKept) {
      List<String> oc = o.podCIDRs();
      List<String> nc = n.podCIDRs();
      if (oc.size() != nc.size()) {
        v.add("spec.podCIDRs", POD_CIDRS, nc);
      } else {
        for (int i = 0; i < oc.size(); i++) {
          if (!oc.get(i).equals(nc.get(i))) {
            v.add("spec.podCIDRs", POD_CIDRS, nc);
          }
        }
      }
    }
    if (!providerKept) {
      v.add("spec.providerID", PROVIDER_ID, n.providerID());
    }
    v.throwIfAny();
  }

  /** The status rule ({@code updateStatus}): no address twice (same type and address). */
  static void status(Node stored, Node updated) {
    List<NodeAddress> addresses = updated.status().addresses();
    if (addresses == stored.status().addresses() || addresses.size() < 2) {
      return;
    }
    Set<NodeAddress> seen = new HashSet<>();
    Violations v = null;
    for (int i = 0; i < addresses.size(); i++) {
      if (!seen.add(addresses.get(i))) {
        v = v == null ? UpdateChecks.violations(updated) : v;
        v.add("status.addresses[" + i + "]", Violations.DUPLICATE, addresses.get(i));
      }
    }
    if (v != null) {
      v.throwIfAny();
    }
  }
}
