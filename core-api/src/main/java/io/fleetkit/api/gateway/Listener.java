package io.fleetkit.api.gateway;

import java.util.List;
import java.util.Objects;

/**
 * A logical endpoint of a Gateway: where it accepts connections and which routes may attach.
 *
 * @param name unique in the Gateway; what a route's {@code parentRefs[].sectionName} names
 * @param hostname the host names served: exact, {@code *.suffix}, or empty for every host
 * @param protocol {@code HTTP}, {@code HTTPS}, {@code TLS}, {@code TCP}, {@code UDP} or a domain-prefixed name
 * @param certificateRefs the certificates, Secrets in the Gateway's or (with a {@link ReferenceGrant}) another
 *     namespace (HTTPS and TLS only, {@code tls.certificateRefs})
 */
public record Listener(String name, String hostname, int port, String protocol, AllowedRoutes allowedRoutes,
    List<SecretObjectReference> certificateRefs) {
  public Listener {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(hostname, "hostname");
    Objects.requireNonNull(protocol, "protocol");
    Objects.requireNonNull(allowedRoutes, "allowedRoutes");
    certificateRefs = List.copyOf(certificateRefs);
  }

  /** An HTTP listener with the default allowed routes. */
  public static Listener http(String name, String hostname, int port) {
    return new Listener(name, hostname, port, "HTTP", AllowedRoutes.SAME_NAMESPACE, List.of());
  }

  public Listener withAllowedRoutes(AllowedRoutes a) {
    return new Listener(name, hostname, port, protocol, a, certificateRefs);
  }
}
