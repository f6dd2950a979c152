package io.fleetkit.networking.endpointslice;

import io.fleetkit.api.core.Endpoints;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Kubernetes' {@code RepackSubsets} ({@code pkg/api/v1/endpoints/util.go}): the canonical form of an Endpoints
 * object's subsets, one subset per distinct set of addresses, with every port those addresses offer. An address is
 * one per IP and target UID; an address listed both ready and not ready for a port is not ready for it. Addresses are
 * sorted by IP then UID, ports by name, number and protocol, subsets by their first port and address. Pure;
 * thread-safe.
 */
final class EndpointsRepacking {
  private EndpointsRepacking() {}

  /** An address's identity ({@code addressKey}): its IP and its target's UID. */
  private record AddressKey(String ip, String uid) {
    static AddressKey of(Endpoints.Address a) {
      return new AddressKey(a.ip(), a.targetRef() == null ? "" : a.targetRef().uid());
    }
  }

  /** The port a subset without ports is filed under (upstream's sentinel port -1). */
  private static final Optional<Endpoints.Port> NO_PORT = Optional.empty();

  static List<Endpoints.Subset> repack(List<Endpoints.Subset> subsets) {
    Map<AddressKey, Endpoints.Address> first = new LinkedHashMap<>();
    // per port: each address and whether it is ready for that port
    Map<Optional<Endpoints.Port>, Map<AddressKey, Boolean>> byPort = new LinkedHashMap<>();
    for (Endpoints.Subset s : subsets) {
      List<Optional<Endpoints.Port>> ports = s.ports().isEmpty() ? List.of(NO_PORT)
          : s.ports().stream().map(Optional::of).toList();
      for (Optional<Endpoints.Port> port : ports) {
        map(s.addresses(), true, port, first, byPort);
        map(s.notReadyAddresses(), false, port, first, byPort);
      }
    }
    // group the ports by the exact set of addresses (with readiness) offering them
    Map<Map<AddressKey, Boolean>, List<Endpoints.Port>> portsByAddresses = new LinkedHashMap<>();
    byPort.forEach((port, addresses) -> {
      List<Endpoints.Port> ports = portsByAddresses.computeIfAbsent(addresses, a -> new ArrayList<>());
      port.ifPresent(ports::add);
    });
    Comparator<Endpoints.Address> byIp = Comparator.comparing(Endpoints.Address::ip)
        .thenComparing(a -> AddressKey.of(a).uid());
    Comparator<Endpoints.Port> portOrder = Comparator.comparing(Endpoints.Port::name)
        .thenComparingInt(Endpoints.Port::port).thenComparing(Endpoints.Port::protocol)
        .thenComparing(Endpoints.Port::appProtocol);
    List<Endpoints.Subset> out = new ArrayList<>();
    portsByAddresses.forEach((addresses, ports) -> {
      List<Endpoints.Address> ready = new ArrayList<>();
      List<Endpoints.Address> notReady = new ArrayList<>();
      addresses.forEach((key, isReady) -> (isReady ? ready : notReady).add(first.get(key)));
      ready.sort(byIp);
      notReady.sort(byIp);
      List<Endpoints.Port> sortedPorts = new ArrayList<>(ports);
      sortedPorts.sort(portOrder);
      out.add(new Endpoints.Subset(ready, notReady, sortedPorts));
    });
    out.sort(Comparator.comparing(EndpointsRepacking::sortKey));
    return out;
  }

  private static void map(List<Endpoints.Address> addresses, boolean ready, Optional<Endpoints.Port> port,
      Map<AddressKey, Endpoints.Address> first, Map<Optional<Endpoints.Port>, Map<AddressKey, Boolean>> byPort) {
    for (Endpoints.Address a : addresses) {
      AddressKey key = AddressKey.of(a);
      first.putIfAbsent(key, a);
      // not ready always wins over ready
      byPort.computeIfAbsent(port, p -> new LinkedHashMap<>()).merge(key, ready, (was, now) -> was && now);
    }
  }

  private static String sortKey(Endpoints.Subset s) {
    String port = s.ports().isEmpty() ? "" : s.ports().get(0).name() + ":" + s.ports().get(0).port();
    Endpoints.Address a = !s.addresses().isEmpty() ? s.addresses().get(0)
        : s.notReadyAddresses().isEmpty() ? null : s.notReadyAddresses().get(0);
    return port + "/" + (a == null ? "" : a.ip());
  }
}
