package io.fleetkit.api.networking;

import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The desired state of an Ingress. Rules are checked by {@link Ingress}.
 *
 * @param ingressClassName the IngressClass; empty when unset (the default class applies when the Ingress is
 *     created)
 * @param defaultBackend where requests matching no rule go, or {@code null}
 */
public record IngressSpec(String ingressClassName, @Nullable IngressBackend defaultBackend, List<IngressTLS> tls,
    List<IngressRule> rules) {
  public IngressSpec {
    Objects.requireNonNull(ingressClassName, "ingressClassName");
    tls = List.copyOf(tls);
    rules = List.copyOf(rules);
  }

  public IngressSpec withIngressClassName(String name) {
    return new IngressSpec(name, defaultBackend, tls, rules);
  }
}
