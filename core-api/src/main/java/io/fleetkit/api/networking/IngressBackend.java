package io.fleetkit.api.networking;

import java.util.Objects;

/**
 * A Service backend of an Ingress ({@code service.name} and {@code service.port.name} or {@code .number}).
 *
 * @param portName empty when the port is given by number
 * @param portNumber 0 when the port is given by name
 */
public record IngressBackend(String serviceName, String portName, int portNumber) {
  public IngressBackend {
    Objects.requireNonNull(serviceName, "serviceName");
    Objects.requireNonNull(portName, "portName");
  }

  public static IngressBackend of(String serviceName, int port) {
    return new IngressBackend(serviceName, "", port);
  }

  public static IngressBackend of(String serviceName, String portName) {
    return new IngressBackend(serviceName, portName, 0);
  }
}
