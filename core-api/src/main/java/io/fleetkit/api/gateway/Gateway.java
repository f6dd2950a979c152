package io.fleetkit.api.gateway;

import io.fleetkit.api.Violations;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.ObjectMeta;
import java.util.HashSet;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A Gateway ({@code gateway.networking.k8s.io/v1}): listeners that routes attach to, and the status the controller
 * of its GatewayClass writes ({@link GatewayStatus#EMPTY} until then; replaced only by a status update).
 *
 * <p>The constructor checks the API's rules (the CRD's schema and CEL rules) and reports every violation at once:
 * {@code spec.gatewayClassName} is required; 1..64 listeners with unique DNS-subdomain names, ports in 1..65535,
 * a protocol that is a core name or domain-prefixed, a hostname as for routes, unset for TCP and UDP; the
 * combination of port, protocol and hostname is unique; {@code tls} is only for HTTPS and TLS, and HTTPS needs at
 * least one certificate; {@code allowedRoutes.namespaces.selector} is set exactly when {@code from} is
 * {@code Selector}; {@code spec.tls.backend.clientCertificateRef}, when set, is a reference as a listener's
 * certificate is.
 *
 * <p>The constructor throws {@link io.fleetkit.api.ValidationException} when a rule is broken.
 */
public record Gateway(ObjectMeta metadata, GatewaySpec spec, GatewayStatus status) implements ApiObject<Gateway> {
  public static final String GROUP = "gateway.networking.k8s.io";
  public static final String API_VERSION = GROUP + "/v1";
  public static final String KIND = "Gateway";
  private static final Pattern PROTOCOL = Pattern.compile(
      "[a-zA-Z0-9]([-a-zA-Z0-9]{0,61}[a-zA-Z0-9])?|[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*"
          + "/[A-Za-z0-9]+");
  /** The API's {@code Kind}: 1..63 characters. */
  private static final Pattern KIND_NAME = Pattern.compile("[a-zA-Z]([-a-zA-Z0-9]{0,61}[a-zA-Z0-9])?");

  public Gateway {
    Objects.requireNonNull(metadata, "metadata");
    Objects.requireNonNull(spec, "spec");
    Objects.requireNonNull(status, "status");
    validate(metadata, spec);
  }

  /** A Gateway without status. */
  public Gateway(ObjectMeta metadata, GatewaySpec spec) {
    this(metadata, spec, GatewayStatus.EMPTY);
  }

  private static void validate(ObjectMeta metadata, GatewaySpec spec) {
    Violations v = Violations.forObject(KIND, metadata);
    v.objectMeta(metadata, true);
    if (spec.gatewayClassName().isEmpty()) {
      v.required("spec.gatewayClassName");
    }
    if (spec.listeners().isEmpty()) {
      v.add("spec.listeners", "must have at least 1 item", 0);
    } else if (spec.listeners().size() > 64) {
      v.add("spec.listeners", "must have at most 64 items", spec.listeners().size());
    }
    Set<String> names = new HashSet<>();
    Set<String> combos = new HashSet<>();
    for (int i = 0; i < spec.listeners().size(); i++) {
      Listener l = spec.listeners().get(i);
      String f = "spec.listeners[" + i + "]";
      v.dnsSubdomain(f + ".name", l.name());
      if (!l.name().isEmpty() && !names.add(l.name())) {
        v.add(f + ".name", "must be unique within the Gateway", l.name());
      }
      v.portNumber(f + ".port", l.port());
      if (!PROTOCOL.matcher(l.protocol()).matches()) {
        v.add(f + ".protocol", "must be HTTP, HTTPS, TLS, TCP, UDP or a domain-prefixed name", l.protocol());
      }
      boolean l4 = l.protocol().equals("TCP") || l.protocol().equals("UDP");
      if (!l.hostname().isEmpty()) {
        if (l4) {
          v.add(f + ".hostname", "must not be specified for protocols ['TCP', 'UDP']", l.hostname());
        } else {
          GatewayRules.hostname(v, f + ".hostname", l.hostname());
        }
      }
      if (!combos.add(l.port() + "/" + l.protocol() + "/" + l.hostname())) {
        v.add(f, "combination of port, protocol and hostname must be unique for each listener",
            l.port() + " " + l.protocol() + " \"" + l.hostname() + "\"");
      }
      boolean tlsAllowed = l.protocol().equals("HTTPS") || l.protocol().equals("TLS");
      if (!l.certificateRefs().isEmpty() && !tlsAllowed) {
        v.add(f + ".tls", "must not be specified for protocols ['HTTP', 'TCP', 'UDP']", l.protocol());
      }
      if (l.protocol().equals("HTTPS") && l.certificateRefs().isEmpty()) {
        v.add(f + ".tls.certificateRefs", "must have at least 1 item for protocol HTTPS", 0);
      }
      for (int j = 0; j < l.certificateRefs().size(); j++) {
        secretReference(v, f + ".tls.certificateRefs[" + j + "]", l.certificateRefs().get(j));
      }
      AllowedRoutes a = l.allowedRoutes();
      String af = f + ".allowedRoutes.namespaces";
      if (a.from() == FromNamespaces.Selector) {
        if (a.selector() == null) {
          v.required(af + ".selector", "when from is Selector");
        } else {
          v.labelSelector(af + ".selector", a.selector());
        }
      } else if (a.selector() != null) {
        v.add(af + ".selector", "must not be set unless from is Selector", a.from());
      }
      for (int j = 0; j < a.kinds().size(); j++) {
        if (a.kinds().get(j).isEmpty()) {
          v.required(f + ".allowedRoutes.kinds[" + j + "].kind");
        }
      }
    }
    if (spec.backendClientCertificateRef() != null) {
      secretReference(v, "spec.tls.backend.clientCertificateRef", spec.backendClientCertificateRef());
    }
    v.throwIfAny();
  }

  /** A {@code SecretObjectReference}'s schema: DNS-subdomain name and group, DNS-label namespace, a Kind. */
  private static void secretReference(Violations v, String cf, SecretObjectReference c) {
    v.dnsSubdomain(cf + ".name", c.name());
    if (!c.namespace().isEmpty()) {
      v.dnsLabel(cf + ".namespace", c.namespace());
    }
    if (!c.group().isEmpty()) {
      v.dnsSubdomain(cf + ".group", c.group());
    }
    if (!KIND_NAME.matcher(c.kind()).matches()) {
      v.add(cf + ".kind", "must match " + KIND_NAME.pattern(), c.kind());
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
  public Gateway withMetadata(ObjectMeta m) {
    return new Gateway(m, spec, status);
  }

  /** This Gateway with {@code s} as its status. */
  public Gateway withStatus(GatewayStatus s) {
    return new Gateway(metadata, spec, s);
  }

  @Override
  public Gateway withStatusOf(Gateway other) {
    return new Gateway(metadata, spec, other.status);
  }
}
