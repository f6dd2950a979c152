package io.fleetkit.reconcile.probe;

import io.fleetkit.api.core.Container;
import io.fleetkit.api.core.ContainerPort;
import io.fleetkit.api.core.ServiceTargetPort;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalInt;

/**
 * Where a probe goes: the container's address (the pod IP, or a host a real agent knows) and its named ports, so
 * that {@code port: http} resolves as the kubelet resolves it (first container port with that name).
 *
 * @param host the address probes connect to when the probe names no host of its own
 * @param namedPorts container port numbers by port name
 */
public record ProbeTarget(String host, Map<String, Integer> namedPorts) {
  public ProbeTarget {
    Objects.requireNonNull(host, "host");
    namedPorts = Map.copyOf(namedPorts);
  }

  /** {@code host} with the named ports of {@code container}. */
  public static ProbeTarget of(String host, Container container) {
    Map<String, Integer> ports = new LinkedHashMap<>();
    for (ContainerPort p : container.ports()) {
      if (!p.name().isEmpty()) {
        ports.putIfAbsent(p.name(), p.containerPort());
      }
    }
    return new ProbeTarget(host, ports);
  }

  /** {@code host} with no named ports. */
  public static ProbeTarget of(String host) {
    return new ProbeTarget(host, Map.of());
  }

  /** The port number {@code port} means here; empty when it names a port the container does not have. */
  public OptionalInt resolve(ServiceTargetPort port) {
    if (!port.isNamed()) {
      return OptionalInt.of(port.number());
    }
    Integer n = namedPorts.get(port.name());
    return n == null ? OptionalInt.empty() : OptionalInt.of(n);
  }
}
