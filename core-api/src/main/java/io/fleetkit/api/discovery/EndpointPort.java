package io.fleetkit.api.discovery;

import io.fleetkit.api.core.ServiceProtocol;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One port of an EndpointSlice: the Service port's name with the number it resolves to on these endpoints.
 *
 * @param name the Service port's name; empty for an unnamed port
 * @param port the port number, {@code null} for "all ports"
 * @param appProtocol the application protocol; empty when unset
 */
public record EndpointPort(String name, @Nullable Integer port, ServiceProtocol protocol, String appProtocol) {
  public EndpointPort {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(protocol, "protocol");
    Objects.requireNonNull(appProtocol, "appProtocol");
  }

  public static EndpointPort of(String name, int port) {
    return new EndpointPort(name, port, ServiceProtocol.TCP, "");
  }
}
