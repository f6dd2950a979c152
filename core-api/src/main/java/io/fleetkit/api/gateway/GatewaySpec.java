package io.fleetkit.api.gateway;

import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The desired state of a Gateway. Rules are checked by {@link Gateway}.
 *
 * @param backendClientCertificateRef {@code spec.tls.backend.clientCertificateRef}: the certificate the Gateway
 *     presents to backends that ask for one (resolved by its controller like a listener's certificate); {@code null}
 *     when unset
 */
public record GatewaySpec(String gatewayClassName, List<Listener> listeners,
    @Nullable SecretObjectReference backendClientCertificateRef) {
  public GatewaySpec {
    Objects.requireNonNull(gatewayClassName, "gatewayClassName");
    listeners = List.copyOf(listeners);
  }

  /** A spec without backend TLS settings. */
  public GatewaySpec(String gatewayClassName, List<Listener> listeners) {
    this(gatewayClassName, listeners, null);
  }
}
