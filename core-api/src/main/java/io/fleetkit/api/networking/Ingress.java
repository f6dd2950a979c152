package io.fleetkit.api.networking;

import io.fleetkit.api.core.LoadBalancerStatus;
import io.fleetkit.api.Violations;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.ObjectMeta;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * An Ingress ({@code networking.k8s.io/v1}): HTTP routes by host and path to Services.
 *
 * <p>The constructor checks the API's rules and reports every violation at once: a default backend or at least one
 * rule; hosts are DNS-1123 subdomains, optionally with a single leading {@code *.} label; {@code Exact} and
 * {@code Prefix} paths start with {@code /}; backends name a Service and a port (name or number in 1..65535).
 *
 * @param status the load balancer addresses, or {@code null} until a controller exposes the Ingress
 * <p>The constructor throws {@link io.fleetkit.api.ValidationException} when a rule is broken
 */
public record Ingress(ObjectMeta metadata, IngressSpec spec, @Nullable LoadBalancerStatus status)
    implements ApiObject<Ingress> {
  public static final String API_VERSION = "networking.k8s.io/v1";
  public static final String KIND = "Ingress";
  /** The legacy annotation naming the class; an Ingress with it is not given the default class. */
  public static final String CLASS_ANNOTATION = "kubernetes.io/ingress.class";

  public Ingress {
    Objects.requireNonNull(metadata, "metadata");
    Objects.requireNonNull(spec, "spec");
    validate(metadata, spec);
  }

  public static Ingress of(ObjectMeta metadata, IngressSpec spec) {
    return new Ingress(metadata, spec, null);
  }

  private static void validate(ObjectMeta metadata, IngressSpec spec) {
    Violations v = Violations.forObject(KIND, metadata);
    v.objectMeta(metadata, true);
    if (spec.defaultBackend() == null && spec.rules().isEmpty()) {
      v.add("spec", "either `defaultBackend` or `rules` must be specified", null);
    }
    if (spec.defaultBackend() != null) {
      backend(v, "spec.defaultBackend", spec.defaultBackend());
    }
    for (int i = 0; i < spec.rules().size(); i++) {
      IngressRule r = spec.rules().get(i);
      String path = "spec.rules[" + i + "]";
      if (!r.host().isEmpty()) {
        host(v, path + ".host", r.host());
      }
      for (int j = 0; j < r.paths().size(); j++) {
        HTTPIngressPath p = r.paths().get(j);
        String pp = path + ".http.paths[" + j + "]";
        if (p.pathType() != PathType.ImplementationSpecific && !p.path().startsWith("/")) {
          v.add(pp + ".path", "must be an absolute path", p.path());
        }
        backend(v, pp + ".backend", p.backend());
      }
    }
    for (int i = 0; i < spec.tls().size(); i++) {
      for (int j = 0; j < spec.tls().get(i).hosts().size(); j++) {
        host(v, "spec.tls[" + i + "].hosts[" + j + "]", spec.tls().get(i).hosts().get(j));
      }
    }
    v.throwIfAny();
  }

  private static void host(Violations v, String field, String host) {
    String h = host.startsWith("*.") ? host.substring(2) : host;
    if (h.contains("*")) {
      v.add(field, "a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which "
          + "must consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character",
          host);
      return;
    }
    v.dnsSubdomain(field, h);
  }

  private static void backend(Violations v, String field, IngressBackend b) {
    v.dnsLabel(field + ".service.name", b.serviceName());
    if (b.portName().isEmpty()) {
      v.portNumber(field + ".service.port.number", b.portNumber());
    } else if (b.portNumber() != 0) {
      v.add(field + ".service.port", "cannot set both port name & port number", b.portName());
    } else {
      v.portName(field + ".service.port.name", b.portName());
    }
  }

  @Override
  public String apiVersion() {
    return API_VERSION;
  }

  @Override
  public String kind() {
    return KIND;
  }

  @Override
  public boolean namespaced() {
    return true;
  }

  @Override
  public Ingress withMetadata(ObjectMeta m) {
    return new Ingress(m, spec, status);
  }

  public Ingress withSpec(IngressSpec s) {
    return new Ingress(metadata, s, status);
  }

  @Override
  public Ingress withStatusOf(Ingress other) {
    return new Ingress(metadata, spec, other.status);
  }
}
