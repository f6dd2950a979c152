package io.fleetkit.adapter.kubernetes.yaml.internal.kinds;

import io.fabric8.kubernetes.api.model.gatewayapi.v1.AllowedRoutesBuilder;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.GatewayBackendTLSBuilder;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.GatewayBuilder;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.GatewaySpecBuilder;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.GatewayStatusBuilder;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.GatewayTLSConfigBuilder;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.ListenerStatusBuilder;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.ListenerBuilder;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.ListenerTLSConfigBuilder;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.RouteGroupKindBuilder;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.RouteNamespacesBuilder;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.SecretObjectReferenceBuilder;
import io.fleetkit.adapter.kubernetes.yaml.internal.DocumentContext;
import io.fleetkit.adapter.kubernetes.yaml.internal.Fabric8Meta;
import io.fleetkit.adapter.kubernetes.yaml.internal.Fabric8Scheduling;
import io.fleetkit.adapter.kubernetes.yaml.internal.Fabric8Selectors;
import io.fleetkit.adapter.kubernetes.yaml.internal.Values;
import io.fleetkit.api.gateway.AllowedRoutes;
import io.fleetkit.api.gateway.FromNamespaces;
import io.fleetkit.api.gateway.Gateway;
import io.fleetkit.api.gateway.GatewaySpec;
import io.fleetkit.api.gateway.GatewayStatus;
import io.fleetkit.api.gateway.Listener;
import io.fleetkit.api.gateway.ListenerStatus;
import io.fleetkit.api.gateway.RouteGroupKind;
import io.fleetkit.api.gateway.SecretObjectReference;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.meta.ObjectMeta;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * gateway.networking.k8s.io/v1 Gateway: {@code gatewayClassName} and listeners (name, hostname, port, protocol,
 * {@code allowedRoutes} namespaces and kinds, {@code tls.certificateRefs} with their group, kind and namespace,
 * resolved by the Gateway's controller).
 * {@code spec.tls.backend.clientCertificateRef} is read like a listener's certificate reference.
 * Parts not modelled are refused rather than dropped: {@code spec.addresses}, {@code spec.infrastructure},
 * {@code spec.allowedListeners}, {@code spec.tls.frontend}, TLS {@code Passthrough} mode, route kinds of other
 * groups.
 *
 * <p>The status as {@code kubectl get -o yaml} prints it: {@code conditions} ({@link GatewayApiStatusYaml}) and
 * {@code listeners}, each with its {@code name}, {@code supportedKinds} (group and kind; an unset group is the API's
 * default {@value Gateway#GROUP}; always written, {@code []} when empty), {@code attachedRoutes} (always written, 0
 * included) and {@code conditions}.
 * {@code status.addresses} and {@code status.attachedListenerSets} are not modelled: read past and not written (the
 * load warns of them).
 */
public final class GatewayConverter
    extends AbstractKindConverter<io.fabric8.kubernetes.api.model.gatewayapi.v1.Gateway, Gateway> {
  public GatewayConverter() {
    super(Gateway.API_VERSION, Gateway.KIND, true,
        io.fabric8.kubernetes.api.model.gatewayapi.v1.Gateway.class, Gateway.class);
  }

  @Override
  public @Nullable Gateway toCore(io.fabric8.kubernetes.api.model.gatewayapi.v1.Gateway in, DocumentContext ctx) {
    ObjectMeta meta = Fabric8Meta.toCore(in.getMetadata(), kind(), true, ctx);
    var s = in.getSpec() == null ? new io.fabric8.kubernetes.api.model.gatewayapi.v1.GatewaySpec() : in.getSpec();
    if (s.getAddresses() != null && !s.getAddresses().isEmpty()) {
      ctx.error("spec.addresses", "are not supported", s.getAddresses().size());
    }
    if (s.getInfrastructure() != null) {
      ctx.error("spec.infrastructure", "is not supported", null);
    }
    if (s.getAllowedListeners() != null) {
      ctx.error("spec.allowedListeners", "is not supported (FleetKit does not model ListenerSets)", null);
    }
    SecretObjectReference clientCertificate = null;
    if (s.getTls() != null) {
      if (s.getTls().getFrontend() != null) {
        ctx.error("spec.tls.frontend", "is not supported (FleetKit does not model client certificate validation)",
            null);
      }
      var backend = s.getTls().getBackend();
      if (backend != null && backend.getClientCertificateRef() != null) {
        clientCertificate = secretReference(backend.getClientCertificateRef());
      }
    }
    List<Listener> listeners = Fabric8Scheduling.list(s.getListeners(), "spec.listeners", ctx,
        GatewayConverter::listener);
    String className = Values.orEmpty(s.getGatewayClassName());
    GatewayStatus status = status(in.getStatus(), ctx);
    if (ctx.hasErrors()) {
      return null;
    }
    SecretObjectReference cc = clientCertificate;
    return ctx.build("", () -> new Gateway(meta, new GatewaySpec(className, listeners, cc), status));
  }

  private static GatewayStatus status(io.fabric8.kubernetes.api.model.gatewayapi.v1.@Nullable GatewayStatus st,
      DocumentContext ctx) {
    if (st == null) {
      return GatewayStatus.EMPTY;
    }
    // status.addresses and status.attachedListenerSets, which every programmed Gateway of a real cluster reports, are
    // read past: FleetKit's Gateways have no addresses or ListenerSets, and status is its controllers' to write
    Set<String> names = new HashSet<>();
    List<ListenerStatus> listeners = Fabric8Scheduling.list(st.getListeners(), "status.listeners", ctx,
        (l, p, c) -> {
          String name = Values.required(l.getName(), p + ".name", c);
          if (!name.isEmpty() && !names.add(name)) {
            c.error(p + ".name", "Duplicate value: listener statuses are keyed by name", name);
          }
          Integer attached = l.getAttachedRoutes();
          if (attached == null) {
            c.error(p + ".attachedRoutes", "is required", null);
          } else if (attached < 0) {
            c.error(p + ".attachedRoutes", "must be greater than or equal to 0", attached);
          }
          List<RouteGroupKind> kinds = Fabric8Scheduling.list(l.getSupportedKinds(), p + ".supportedKinds", c,
              (k, kp, kc) -> {
                String kind = Values.required(k.getKind(), kp + ".kind", kc);
                return kind.isEmpty() ? null
                    : new RouteGroupKind(k.getGroup() == null ? Gateway.GROUP : k.getGroup(), kind);
              });
          var conditions = GatewayApiStatusYaml.conditions(l.getConditions(), p + ".conditions", c);
          if (name.isEmpty() || attached == null || attached < 0) {
            return null;
          }
          return c.build(p, () -> new ListenerStatus(name, kinds, attached, conditions));
        });
    var conditions = GatewayApiStatusYaml.conditions(st.getConditions(), "status.conditions", ctx);
    return new GatewayStatus(conditions, listeners);
  }

  private static @Nullable Listener listener(io.fabric8.kubernetes.api.model.gatewayapi.v1.Listener l, String path,
      DocumentContext ctx) {
    if (l.getPort() == null) {
      ctx.error(path + ".port", "is required", null);
      return null;
    }
    List<SecretObjectReference> certs = List.of();
    var tls = l.getTls();
    if (tls != null) {
      String mode = Values.orEmpty(tls.getMode());
      if (!mode.isEmpty() && !mode.equals("Terminate")) {
        ctx.error(path + ".tls.mode", "only Terminate is supported", mode);
      }
      // Any group, kind and namespace is read: the Gateway's controller reports a reference it cannot resolve
      // (another kind, a namespace without a ReferenceGrant) in the listener's ResolvedRefs condition, as upstream.
      certs = Fabric8Scheduling.list(tls.getCertificateRefs(), path + ".tls.certificateRefs", ctx,
          (c, cp, cc) -> secretReference(c));
    }
    AllowedRoutes allowed = AllowedRoutes.SAME_NAMESPACE;
    var a = l.getAllowedRoutes();
    if (a != null) {
      FromNamespaces from = FromNamespaces.Same;
      LabelSelector sel = null;
      if (a.getNamespaces() != null) {
        from = Values.enumValue(FromNamespaces.class, a.getNamespaces().getFrom(), FromNamespaces.Same,
            path + ".allowedRoutes.namespaces.from", ctx);
        sel = Fabric8Selectors.toCore(a.getNamespaces().getSelector(), path + ".allowedRoutes.namespaces.selector",
            ctx);
      }
      List<String> kinds = Fabric8Scheduling.list(a.getKinds(), path + ".allowedRoutes.kinds", ctx, (k, kp, kc) -> {
        String group = k.getGroup() == null ? Gateway.GROUP : k.getGroup();
        if (!group.equals(Gateway.GROUP)) {
          kc.error(kp + ".group", "only route kinds of " + Gateway.GROUP + " are supported", group);
          return null;
        }
        return Values.orEmpty(k.getKind());
      });
      if (from == null) {
        return null;
      }
      allowed = new AllowedRoutes(from, sel, kinds);
    }
    AllowedRoutes ar = allowed;
    List<SecretObjectReference> cr = certs;
    return ctx.build(path, () -> new Listener(Values.orEmpty(l.getName()), Values.orEmpty(l.getHostname()),
        l.getPort(), Values.orEmpty(l.getProtocol()), ar, cr));
  }

  /** A certificate reference as written; the kind defaults to Secret, as the CRD defaults it. */
  private static SecretObjectReference secretReference(
      io.fabric8.kubernetes.api.model.gatewayapi.v1.SecretObjectReference c) {
    return new SecretObjectReference(Values.orEmpty(c.getGroup()),
        c.getKind() == null ? SecretObjectReference.SECRET : c.getKind(), Values.orEmpty(c.getName()),
        Values.orEmpty(c.getNamespace()));
  }

  private static io.fabric8.kubernetes.api.model.gatewayapi.v1.SecretObjectReference secretReferenceOut(
      SecretObjectReference c) {
    return new SecretObjectReferenceBuilder().withGroup(c.group()).withKind(c.kind()).withName(c.name())
        .withNamespace(Values.emptyToNull(c.namespace())).build();
  }

  @Override
  public io.fabric8.kubernetes.api.model.gatewayapi.v1.Gateway toFabric8(Gateway in) {
    return new GatewayBuilder()
        .withApiVersion(apiVersion()).withKind(kind())
        .withMetadata(Fabric8Meta.toFabric8(in.metadata()))
        .withSpec(new GatewaySpecBuilder()
            .withGatewayClassName(in.spec().gatewayClassName())
            .withListeners(Fabric8Scheduling.out(in.spec().listeners(), l -> new ListenerBuilder()
                .withName(l.name()).withHostname(Values.emptyToNull(l.hostname())).withPort(l.port())
                .withProtocol(l.protocol())
                .withTls(l.certificateRefs().isEmpty() ? null : new ListenerTLSConfigBuilder()
                    .withCertificateRefs(Fabric8Scheduling.out(l.certificateRefs(),
                        GatewayConverter::secretReferenceOut))
                    .build())
                .withAllowedRoutes(l.allowedRoutes().equals(AllowedRoutes.SAME_NAMESPACE) ? null
                    : new AllowedRoutesBuilder()
                        .withNamespaces(new RouteNamespacesBuilder().withFrom(l.allowedRoutes().from().name())
                            .withSelector(Fabric8Selectors.toFabric8(l.allowedRoutes().selector())).build())
                        .withKinds(Fabric8Scheduling.out(l.allowedRoutes().kinds(),
                            k -> new RouteGroupKindBuilder().withKind(k).build()))
                        .build())
                .build()))
            .withTls(in.spec().backendClientCertificateRef() == null ? null : new GatewayTLSConfigBuilder()
                .withBackend(new GatewayBackendTLSBuilder()
                    .withClientCertificateRef(secretReferenceOut(in.spec().backendClientCertificateRef())).build())
                .build())
            .build())
        .withStatus(status(in.status()))
        .build();
  }

  private static io.fabric8.kubernetes.api.model.gatewayapi.v1.@Nullable GatewayStatus status(GatewayStatus st) {
    if (st.equals(GatewayStatus.EMPTY)) {
      return null;
    }
    return new GatewayStatusBuilder()
        .withConditions(GatewayApiStatusYaml.conditionsOut(st.conditions()))
        .withListeners(Fabric8Scheduling.out(st.listeners(), GatewayConverter::listenerStatus))
        .build();
  }

  private static io.fabric8.kubernetes.api.model.gatewayapi.v1.ListenerStatus listenerStatus(ListenerStatus l) {
    var out = new ListenerStatusBuilder()
        .withName(l.name())
        .withSupportedKinds(Fabric8Scheduling.out(l.supportedKinds(),
            k -> new RouteGroupKindBuilder().withGroup(k.group()).withKind(k.kind()).build()))
        .withAttachedRoutes(l.attachedRoutes())
        .withConditions(GatewayApiStatusYaml.conditionsOut(l.conditions()))
        .build();
    if (l.supportedKinds().isEmpty()) {
      // fabric8 leaves an empty list out; upstream writes `supportedKinds: []` (the field is omitzero, not omitempty,
      // since v1.5 for CRDs before it, which require it) and its conformance tests expect none supported
      out.setAdditionalProperty("supportedKinds", List.of());
    }
    return out;
  }
}
