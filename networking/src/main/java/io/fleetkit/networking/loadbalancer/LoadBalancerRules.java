package io.fleetkit.networking.loadbalancer;

import io.fleetkit.api.core.LoadBalancerStatus;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Service;
import io.fleetkit.api.core.ServiceSpec;
import io.fleetkit.api.core.ServiceType;
import io.fleetkit.api.scheduling.Taint;
import io.fleetkit.api.text.GoBools;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The cloud provider service controller's decisions ({@code k8s.io/cloud-provider/controllers/service/controller.go}),
 * as pure functions: which Services want a load balancer, which need theirs cleaned up, which changes call for
 * another sync, which nodes are backends, and which node changes call for a node sync.
 */
public final class LoadBalancerRules {
  /**
   * The taint the cluster autoscaler puts on a node it is about to delete ({@code ToBeDeletedTaint}): such a node is
   * no backend.
   */
  public static final String TO_BE_DELETED_TAINT = "ToBeDeletedByClusterAutoscaler";

  private LoadBalancerRules() {}

  /**
   * {@code wantsLoadBalancer}: type {@code LoadBalancer} with no {@code loadBalancerClass} (a class asks for another
   * implementation than the cloud's).
   */
  public static boolean wantsLoadBalancer(Service s) {
    return s.spec().type() == ServiceType.LoadBalancer && s.spec().loadBalancerClass().isEmpty();
  }

  /**
   * {@code needsCleanup}: the Service holds the cleanup finalizer and is being deleted or is no longer of type
   * {@code LoadBalancer}.
   */
  public static boolean needsCleanup(Service s) {
    if (!s.metadata().finalizers().contains(Service.LOAD_BALANCER_CLEANUP_FINALIZER)) {
      return false;
    }
    return s.metadata().deletionTimestamp() != null || s.spec().type() != ServiceType.LoadBalancer;
  }

  /**
   * {@code needsUpdate}: whether the change from {@code old} to {@code now} calls for another sync of the load
   * balancer: it is wanted by one and not the other, or (for a Service that wants one) the source ranges, the ports
   * (name, protocol, port, node port, target port, app protocol), the session affinity and its timeout, the requested
   * IP, the external IPs, the annotations, the uid, the external traffic policy, the health check node port or the
   * number of IP families changed.
   */
  public static boolean needsUpdate(Service old, Service now) {
    boolean wantedBefore = wantsLoadBalancer(old);
    boolean wanted = wantsLoadBalancer(now);
    if (!wantedBefore && !wanted) {
      return false;
    }
    if (wantedBefore != wanted) {
      return true;
    }
    ServiceSpec a = old.spec();
    ServiceSpec b = now.spec();
    return !a.loadBalancerSourceRanges().equals(b.loadBalancerSourceRanges())
        || !a.ports().equals(b.ports()) // a port's record is exactly upstream's portEqualForLB fields
        || a.sessionAffinity() != b.sessionAffinity()
        || a.sessionAffinityTimeoutSeconds() != b.sessionAffinityTimeoutSeconds()
        || !a.loadBalancerIP().equals(b.loadBalancerIP())
        || !a.externalIPs().equals(b.externalIPs())
        || !old.metadata().annotations().equals(now.metadata().annotations())
        || !old.metadata().uid().equals(now.metadata().uid())
        || a.externalTrafficPolicy() != b.externalTrafficPolicy()
        || !Objects.equals(a.healthCheckNodePort(), b.healthCheckNodePort())
        || a.ipFamilies().size() != b.ipFamilies().size();
  }

  /**
   * {@code nodeIncludedPredicate}: the node does not carry {@value Node#LABEL_EXCLUDE_FROM_EXTERNAL_LOAD_BALANCERS},
   * or carries it with a value Go's {@code strconv.ParseBool} reads as false.
   */
  public static boolean nodeIncluded(Node n) {
    String v = n.metadata().labels().get(Node.LABEL_EXCLUDE_FROM_EXTERNAL_LOAD_BALANCERS);
    if (v == null) {
      return true;
    }
    return GoBools.parse(v).map(excluded -> !excluded).orElse(false);
  }

  /** {@code nodeUnTaintedPredicate}: no {@value #TO_BE_DELETED_TAINT} taint. */
  public static boolean nodeUntainted(Node n) {
    for (Taint t : n.spec().taints()) {
      if (t.key().equals(TO_BE_DELETED_TAINT)) {
        return false;
      }
    }
    return true;
  }

  /** {@code nodeReadyPredicate}: a {@code Ready=True} condition. */
  public static boolean nodeReady(Node n) {
    return n.isReady();
  }

  /** {@code nodeNotDeletedPredicate}: not being deleted. */
  public static boolean nodeNotDeleted(Node n) {
    return n.metadata().deletionTimestamp() == null;
  }

  /** {@code allNodePredicates}: included, untainted and ready. */
  public static boolean passesAllPredicates(Node n) {
    return nodeIncluded(n) && nodeUntainted(n) && nodeReady(n);
  }

  /**
   * {@code stableNodeSetPredicates}: not being deleted, included and untainted: a load balancer's backends. Readiness
   * is left out, so that a node that flaps does not resync every load balancer.
   */
  public static boolean inStableNodeSet(Node n) {
    return nodeNotDeleted(n) && nodeIncluded(n) && nodeUntainted(n);
  }

  /** The nodes of {@code nodes} in the stable node set, in order. */
  public static List<Node> stableNodeSet(List<Node> nodes) {
    List<Node> out = new ArrayList<>(nodes.size());
    for (Node n : nodes) {
      if (inStableNodeSet(n)) {
        out.add(n);
      }
    }
    return out;
  }

  /**
   * {@code shouldSyncUpdatedNode}: whether a node's update calls for a node sync of every load balancer: its
   * exclusion changed, or its provider ID did. Other changes (readiness, taints, labels) wait for the next sync that
   * happens anyway.
   */
  public static boolean shouldSyncUpdatedNode(Node old, Node now) {
    return nodeIncluded(old) != nodeIncluded(now) || !old.spec().providerID().equals(now.spec().providerID());
  }

  /** {@code nodesSufficientlyEqual}: the same node names, each with the same provider ID. */
  public static boolean nodesSufficientlyEqual(List<Node> old, List<Node> now) {
    if (old.size() != now.size()) {
      return false;
    }
    return providerIds(old).equals(providerIds(now));
  }

  private static Map<String, String> providerIds(List<Node> nodes) {
    Map<String, String> m = new HashMap<>();
    for (Node n : nodes) {
      m.put(n.name(), n.spec().providerID());
    }
    return m;
  }

  /** {@code LoadBalancerStatusEqual}, an absent status reading as one without ingress points. */
  public static boolean statusEqual(@Nullable LoadBalancerStatus a, @Nullable LoadBalancerStatus b) {
    return ingressOf(a).equals(ingressOf(b));
  }

  private static List<?> ingressOf(@Nullable LoadBalancerStatus s) {
    return s == null ? List.of() : s.ingress();
  }
}
