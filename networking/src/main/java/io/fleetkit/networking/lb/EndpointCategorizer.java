package io.fleetkit.networking.lb;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * kube-proxy's {@code CategorizeEndpoints} ({@code pkg/proxy/topology.go}): the usable Cluster-policy endpoints
 * (ready ones, filtered by topology hints when every ready endpoint has a hint and one matches this node or zone;
 * serving-terminating ones when none is ready), the usable Local-policy endpoints (local ready ones, else local
 * serving-terminating ones), everything reachable from this node, and whether the Service has usable endpoints
 * anywhere. Pure; thread-safe.
 */
public final class EndpointCategorizer {
  /** Topology modes chosen from hints. */
  static final String PREFER_SAME_ZONE = "PreferSameZone";
  static final String PREFER_SAME_NODE = "PreferSameNode";

  private EndpointCategorizer() {}

  /**
   * What {@link #categorize} returns. {@code cluster}/{@code local} are {@code null} when the Service port never
   * uses that kind of endpoints.
   */
  public record Categorized(@Nullable List<ProxyEndpoint> cluster, @Nullable List<ProxyEndpoint> local,
      List<ProxyEndpoint> allReachable, boolean hasAnyEndpoints) {}

  public static Categorized categorize(List<ProxyEndpoint> endpoints, ServicePortPolicy svc, String nodeName,
      String zone) {
    if (endpoints.isEmpty()) {
      return new Categorized(null, svc.usesLocalEndpoints() ? List.of() : null,
          List.of(), false);
    }
    List<ProxyEndpoint> cluster = null;
    String mode = "";
    boolean hasAny = false;
    boolean servingTerminatingLocal = false;
    if (svc.usesClusterEndpoints()) {
      mode = topologyMode(endpoints, nodeName, zone);
      String m = mode;
      cluster = filter(endpoints, ep -> ep.ready() && available(ep, m, nodeName, zone));
      if (cluster.isEmpty()) {
        cluster = filter(endpoints, ep -> ep.serving() && ep.terminating());
      }
      hasAny = !cluster.isEmpty();
    }
    if (!svc.usesLocalEndpoints()) {
      return new Categorized(cluster, null, cluster == null ? List.of() : cluster, hasAny);
    }
    boolean localReady = false;
    boolean localServingTerminating = false;
    for (ProxyEndpoint ep : endpoints) {
      if (ep.ready()) {
        hasAny = true;
        localReady |= ep.local();
      } else if (ep.serving() && ep.terminating()) {
        hasAny = true;
        localServingTerminating |= ep.local();
      }
    }
    List<ProxyEndpoint> local = List.of();
    if (localReady) {
      local = filter(endpoints, ep -> ep.local() && ep.ready());
    } else if (localServingTerminating) {
      servingTerminatingLocal = true;
      local = filter(endpoints, ep -> ep.local() && ep.serving() && ep.terminating());
    }
    if (cluster == null) {
      return new Categorized(null, local, local, hasAny);
    }
    if (mode.isEmpty() && !servingTerminatingLocal) {
      return new Categorized(cluster, local, cluster, hasAny);
    }
    Map<String, ProxyEndpoint> merged = new LinkedHashMap<>();
    cluster.forEach(ep -> merged.put(ep.toString(), ep));
    local.forEach(ep -> merged.put(ep.toString(), ep));
    return new Categorized(cluster, local, List.copyOf(merged.values()), hasAny);
  }

  /**
   * {@code topologyModeFromHints}: same-node when every ready endpoint has a node hint and one names this node;
   * else same-zone when every ready endpoint has a zone hint and one names this zone; else none.
   */
  static String topologyMode(List<ProxyEndpoint> endpoints, String nodeName, String zone) {
    boolean hasReady = false;
    boolean forNode = false;
    boolean allNodeHints = true;
    boolean forZone = false;
    boolean allZoneHints = true;
    for (ProxyEndpoint ep : endpoints) {
      if (!ep.ready()) {
        continue;
      }
      hasReady = true;
      if (ep.nodeHints().isEmpty()) {
        allNodeHints = false;
      } else if (ep.nodeHints().contains(nodeName)) {
        forNode = true;
      }
      if (ep.zoneHints().isEmpty()) {
        allZoneHints = false;
      } else if (ep.zoneHints().contains(zone)) {
        forZone = true;
      }
    }
    if (!hasReady) {
      return "";
    }
    if (allNodeHints && forNode) {
      return PREFER_SAME_NODE;
    }
    if (allZoneHints && forZone) {
      return PREFER_SAME_ZONE;
    }
    return "";
  }

  private static boolean available(ProxyEndpoint ep, String mode, String nodeName, String zone) {
    return switch (mode) {
      case "" -> true;
      case PREFER_SAME_NODE -> ep.nodeHints().contains(nodeName);
      case PREFER_SAME_ZONE -> ep.zoneHints().contains(zone);
      default -> false;
    };
  }

  private static List<ProxyEndpoint> filter(List<ProxyEndpoint> in, Predicate<ProxyEndpoint> p) {
    List<ProxyEndpoint> out = new ArrayList<>(in.size());
    for (ProxyEndpoint ep : in) {
      if (p.test(ep)) {
        out.add(ep);
      }
    }
    return out;
  }
}
