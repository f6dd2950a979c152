package io.fleetkit.networking.lb;

import io.fleetkit.api.discovery.Endpoint;
import io.fleetkit.api.discovery.EndpointPort;
import io.fleetkit.api.discovery.EndpointSlice;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * One endpoint as kube-proxy sees it for one Service port: {@code address:port}, its conditions, whether it runs on
 * the proxy's own node, and its topology hints.
 */
public record ProxyEndpoint(String address, int port, boolean ready, boolean serving, boolean terminating,
    boolean local, Set<String> zoneHints, Set<String> nodeHints) {
  public ProxyEndpoint {
    Objects.requireNonNull(address, "address");
    zoneHints = Set.copyOf(zoneHints);
    nodeHints = Set.copyOf(nodeHints);
  }

  /** {@code address:port} (IPv6 in brackets), kube-proxy's endpoint string. */
  @Override
  public String toString() {
    return (address.indexOf(':') >= 0 ? "[" + address + "]" : address) + ":" + port;
  }

  /**
   * The endpoints of a Service port from its slices, seen from {@code nodeName}: the first address of each
   * endpoint, the port named {@code portName} in that slice (slices without it are skipped).
   */
  public static List<ProxyEndpoint> fromSlices(List<EndpointSlice> slices, String portName, String nodeName) {
    List<ProxyEndpoint> out = new ArrayList<>();
    for (EndpointSlice s : slices) {
      Integer port = null;
      for (EndpointPort p : s.ports()) {
        if (p.name().equals(portName)) {
          port = p.port();
        }
      }
      if (port == null) {
        continue;
      }
      for (Endpoint e : s.endpoints()) {
        if (e.addresses().isEmpty()) {
          continue;
        }
        var h = e.hints();
        out.add(new ProxyEndpoint(e.addresses().get(0), port, e.conditions().isReady(), e.conditions().isServing(),
            e.conditions().isTerminating(), !nodeName.isEmpty() && nodeName.equals(e.nodeName()),
            h == null ? Set.of() : Set.copyOf(h.forZones()), h == null ? Set.of() : Set.copyOf(h.forNodes())));
      }
    }
    return out;
  }
}
