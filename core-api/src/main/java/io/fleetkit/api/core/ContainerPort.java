package io.fleetkit.api.core;

import java.util.Objects;

/**
 * A port a container exposes. {@code name} is empty when unnamed; {@code protocol} defaults to {@code TCP};
 * {@code hostPort} is 0 when not bound on the host; {@code hostIP} is the host address a host port binds to, empty for
 * every address ({@code 0.0.0.0}).
 */
public record ContainerPort(String name, int containerPort, String protocol, int hostPort, String hostIP) {
  public ContainerPort {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(protocol, "protocol");
    Objects.requireNonNull(hostIP, "hostIP");
    if (protocol.isEmpty()) {
      protocol = "TCP";
    }
  }

  /** A port with no host IP (a host port, if any, binds to every address). */
  public ContainerPort(String name, int containerPort, String protocol, int hostPort) {
    this(name, containerPort, protocol, hostPort, "");
  }

  /** This port bound on the host at {@code port}. */
  public ContainerPort withHostPort(int port) {
    return new ContainerPort(name, containerPort, protocol, port, hostIP);
  }

  public static ContainerPort of(int containerPort) {
    return new ContainerPort("", containerPort, "TCP", 0);
  }

  public static ContainerPort of(String name, int containerPort) {
    return new ContainerPort(name, containerPort, "TCP", 0);
  }
}
