package io.fleetkit.api.core;

import java.util.Objects;

/**
 * A port a container exposes. {@code name} is empty when unnamed; {@code protocol} defaults to {@code TCP};
 * {@code hostPort} is 0 when not bound on the host.
 */
public record ContainerPort(String name, int containerPort, String protocol, int hostPort) {
  public ContainerPort {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(protocol, "protocol");
    if (protocol.isEmpty()) {
      protocol = "TCP";
    }
  }

  public static ContainerPort of(int containerPort) {
    return new ContainerPort("", containerPort, "TCP", 0);
  }

  public static ContainerPort of(String name, int containerPort) {
    return new ContainerPort(name, containerPort, "TCP", 0);
  }
}
