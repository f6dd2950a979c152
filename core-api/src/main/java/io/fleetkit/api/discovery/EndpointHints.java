package io.fleetkit.api.discovery;

import java.util.List;

/**
 * Topology hints of one endpoint: the zones (and nodes) whose clients should use it.
 *
 * @param forZones zone names, at most {@value EndpointSlice#MAX_ZONE_HINTS}
 * @param forNodes node names
 */
public record EndpointHints(List<String> forZones, List<String> forNodes) {
  public EndpointHints {
    forZones = List.copyOf(forZones);
    forNodes = List.copyOf(forNodes);
  }

  public static EndpointHints forZone(String zone) {
    return new EndpointHints(List.of(zone), List.of());
  }
}
