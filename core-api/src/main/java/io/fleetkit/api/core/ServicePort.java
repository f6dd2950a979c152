package io.fleetkit.api.core;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One port of a Service. Rules (range, names, uniqueness, {@code appProtocol}) are checked by {@link Service}.
 *
 * @param name empty when unset; required and unique when a Service has more than one port
 * @param port the port the Service exposes
 * @param targetPort the pod port traffic goes to; defaults to {@code port}
 * @param nodePort the node port for NodePort and LoadBalancer Services, {@code null} when unset
 * @param appProtocol the application protocol ({@code appProtocol}: an IANA name such as {@code https}, a
 *     {@code kubernetes.io/} name such as {@code kubernetes.io/h2c}, or a domain-prefixed one such as
 *     {@code example.com/custom}); a Kubernetes qualified name, empty when unset
 */
public record ServicePort(String name, ServiceProtocol protocol, int port, ServiceTargetPort targetPort,
    @Nullable Integer nodePort, String appProtocol) {
  public ServicePort {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(protocol, "protocol");
    Objects.requireNonNull(targetPort, "targetPort");
    Objects.requireNonNull(appProtocol, "appProtocol");
  }

  /** A port without {@code appProtocol}. */
  public ServicePort(String name, ServiceProtocol protocol, int port, ServiceTargetPort targetPort,
      @Nullable Integer nodePort) {
    this(name, protocol, port, targetPort, nodePort, "");
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
    return new ServicePort(name, p, port, targetPort, nodePort, appProtocol);
  }

  public ServicePort withNodePort(@Nullable Integer n) {
    return new ServicePort(name, protocol, port, targetPort, n, appProtocol);
  }

  public ServicePort withAppProtocol(String a) {
    return new ServicePort(name, protocol, port, targetPort, nodePort, a);
  }
}
