package io.fleetkit.networking.endpointslice;

import io.fleetkit.api.discovery.Endpoint;
import io.fleetkit.api.discovery.EndpointHints;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Topology hints for {@code spec.trafficDistribution} ({@code k8s.io/endpointslice} {@code trafficdist.go}): with
 * {@code PreferClose} or {@code PreferSameZone} every ready endpoint is hinted for its own zone, with
 * {@code PreferSameNode} also for its own node; not-ready endpoints are left alone; with any other value every hint
 * is removed. Pure; thread-safe.
 */
public final class TrafficDistributionHints {
  public static final String PREFER_CLOSE = "PreferClose";
  public static final String PREFER_SAME_ZONE = "PreferSameZone";
  public static final String PREFER_SAME_NODE = "PreferSameNode";
  private static final Set<String> CLOSE = Set.of(PREFER_CLOSE, PREFER_SAME_ZONE, PREFER_SAME_NODE);

  private final boolean close;
  private final boolean nodeHints;

  private TrafficDistributionHints(@Nullable String trafficDistribution) {
    this.close = trafficDistribution != null && CLOSE.contains(trafficDistribution);
    this.nodeHints = PREFER_SAME_NODE.equals(trafficDistribution);
  }

  /** The heuristic for a Service's {@code trafficDistribution} (empty or unknown: remove hints). */
  public static TrafficDistributionHints of(String trafficDistribution) {
    return new TrafficDistributionHints(trafficDistribution.isEmpty() ? null : trafficDistribution);
  }

  private static boolean ready(Endpoint e) {
    return Boolean.TRUE.equals(e.conditions().ready());
  }

  /** Whether an unchanged slice's endpoints carry hints other than this heuristic would write. */
  public boolean needsUpdate(List<Endpoint> endpoints) {
    for (Endpoint e : endpoints) {
      EndpointHints h = e.hints();
      if (!close) {
        if (h != null) {
          return true;
        }
        continue;
      }
      if (!ready(e)) {
        continue;
      }
      if (!e.zone().isEmpty()) {
        if (h == null || h.forZones().size() != 1 || !h.forZones().get(0).equals(e.zone())) {
          return true;
        }
      } else if (h != null && !h.forZones().isEmpty()) {
        return true;
      }
      if (!e.nodeName().isEmpty() && nodeHints) {
        if (h == null || h.forNodes().size() != 1 || !h.forNodes().get(0).equals(e.nodeName())) {
          return true;
        }
      } else if (h != null && !h.forNodes().isEmpty()) {
        return true;
      }
    }
    return false;
  }

  /** The endpoint with this heuristic's hints. */
  public Endpoint apply(Endpoint e) {
    if (!close) {
      return e.hints() == null ? e : e.withHints(null);
    }
    if (!ready(e)) {
      return e;
    }
    List<String> zones = e.zone().isEmpty() ? List.of() : List.of(e.zone());
    List<String> nodes = !e.nodeName().isEmpty() && nodeHints ? List.of(e.nodeName()) : List.of();
    if (zones.isEmpty() && nodes.isEmpty()) {
      return e.hints() == null ? e : e.withHints(null);
    }
    return e.withHints(new EndpointHints(zones, nodes));
  }
}
