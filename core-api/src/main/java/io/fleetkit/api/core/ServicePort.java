package io.fleetkit.api.core;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One port of a Service. Rules (range, names, uniqueness) are checked by {@link Service}.
 *
 * @param name empty when unset; required and unique when a Service has more than one port
 * @param port the port the Service exposes
 * @param targetPort the pod port traffic goes to; defaults to {@code port}
 * @param nodePort the node port for NodePort and LoadBalancer Services, {@code null} when unset
 */
public record ServicePort(String name, ServiceProtocol protocol, int port, ServiceTargetPort targetPort,
    @Nullable Integer nodePort) {
  public ServicePort {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(protocol, "protocol");
    Objects.requireNonNull(targetPort, "targetPort");
  }

  /** An unnamed TCP port whose target is the same number. */
  public static ServicePort of(int port) {
    return new ServicePort("", ServiceProtocol.TCP, port, ServiceTargetPort.of(port), null);
  }

  /** A named TCP port. */
  public static ServicePort of(String name, int port, int targetPort) {
    return new ServicePort(name, ServiceProtocol.TCP, port, ServiceTargetPort.of(targetPort), null);
  }

  /** A named TCP port targeting a named container port. */
  public static ServicePort of(String name, int port, String targetPortName) {
    return new ServicePort(name, ServiceProtocol.TCP, port, ServiceTargetPort.named(targetPortName), null);
  }

  public ServicePort withProtocol(ServiceProtocol p) {
    return new ServicePort(name, p, port, targetPort, nodePort);
  }

  public ServicePort withNodePort(@Nullable Integer n) {
    return new ServicePort(name, protocol, port, targetPort, n);
  }
}
