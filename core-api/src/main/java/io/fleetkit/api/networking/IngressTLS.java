package io.fleetkit.api.networking;

import java.util.List;
import java.util.Objects;

/** TLS for some hosts of an Ingress, with the Secret holding the certificate. */
public record IngressTLS(List<String> hosts, String secretName) {
  public IngressTLS {
    hosts = List.copyOf(hosts);
    Objects.requireNonNull(secretName, "secretName");
  }
}
