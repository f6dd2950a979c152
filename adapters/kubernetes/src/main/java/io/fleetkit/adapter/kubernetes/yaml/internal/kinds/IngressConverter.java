package io.fleetkit.adapter.kubernetes.yaml.internal.kinds;

import io.fabric8.kubernetes.api.model.networking.v1.HTTPIngressPathBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.HTTPIngressRuleValueBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.IngressBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.IngressRuleBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.IngressServiceBackendBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.IngressSpecBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.IngressTLSBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.ServiceBackendPortBuilder;
import io.fleetkit.adapter.kubernetes.yaml.internal.DocumentContext;
import io.fleetkit.adapter.kubernetes.yaml.internal.Fabric8Meta;
import io.fleetkit.adapter.kubernetes.yaml.internal.Fabric8Scheduling;
import io.fleetkit.adapter.kubernetes.yaml.internal.Values;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.networking.HTTPIngressPath;
import io.fleetkit.api.networking.Ingress;
import io.fleetkit.api.networking.IngressBackend;
import io.fleetkit.api.networking.IngressRule;
import io.fleetkit.api.networking.IngressSpec;
import io.fleetkit.api.networking.IngressTLS;
import io.fleetkit.api.networking.PathType;
import java.util.List;
import org.jspecify.annotations.Nullable;

/** networking.k8s.io/v1 Ingress; {@code pathType} is required as in the API; status is not read. */
public final class IngressConverter
    extends AbstractKindConverter<io.fabric8.kubernetes.api.model.networking.v1.Ingress, Ingress> {
  public IngressConverter() {
    super(Ingress.API_VERSION, Ingress.KIND, true,
        io.fabric8.kubernetes.api.model.networking.v1.Ingress.class, Ingress.class);
  }

  @Override
  public @Nullable Ingress toCore(io.fabric8.kubernetes.api.model.networking.v1.Ingress in, DocumentContext ctx) {
    ObjectMeta meta = Fabric8Meta.toCore(in.getMetadata(), kind(), true, ctx);
    var s = in.getSpec() == null ? new io.fabric8.kubernetes.api.model.networking.v1.IngressSpec() : in.getSpec();
    IngressBackend dflt = s.getDefaultBackend() == null ? null
        : backend(s.getDefaultBackend(), "spec.defaultBackend", ctx);
    List<IngressTLS> tls = Fabric8Scheduling.list(s.getTls(), "spec.tls", ctx, (t, p, c) -> c.build(p,
        () -> new IngressTLS(Values.stringList(t.getHosts(), p + ".hosts", c), Values.orEmpty(t.getSecretName()))));
    List<IngressRule> rules = Fabric8Scheduling.list(s.getRules(), "spec.rules", ctx, IngressConverter::rule);
    if (ctx.hasErrors()) {
      return null;
    }
    IngressSpec spec = new IngressSpec(Values.orEmpty(s.getIngressClassName()), dflt, tls, rules);
    return ctx.build("", () -> Ingress.of(meta, spec));
  }

  private static @Nullable IngressRule rule(io.fabric8.kubernetes.api.model.networking.v1.IngressRule r, String path,
      DocumentContext ctx) {
    List<HTTPIngressPath> paths = r.getHttp() == null ? List.of() : Fabric8Scheduling.list(r.getHttp().getPaths(),
        path + ".http.paths", ctx, (p, pp, c) -> {
          PathType type = Values.requiredEnum(PathType.class, p.getPathType(), pp + ".pathType", c);
          IngressBackend b = p.getBackend() == null ? null : backend(p.getBackend(), pp + ".backend", c);
          if (p.getBackend() == null) {
            c.error(pp + ".backend", "is required", null);
          }
          return type == null || b == null ? null : c.build(pp, () -> new HTTPIngressPath(
              p.getPath() == null ? "/" : p.getPath(), type, b));
        });
    return ctx.build(path, () -> new IngressRule(Values.orEmpty(r.getHost()), paths));
  }

  private static @Nullable IngressBackend backend(io.fabric8.kubernetes.api.model.networking.v1.IngressBackend b,
      String path, DocumentContext ctx) {
    var svc = b.getService();
    if (svc == null) {
      ctx.error(path + ".service", "is required (resource backends are not supported)", null);
      return null;
    }
    var port = svc.getPort();
    String name = port == null ? "" : Values.orEmpty(port.getName());
    int number = port == null || port.getNumber() == null ? 0 : port.getNumber();
    return new IngressBackend(Values.orEmpty(svc.getName()), name, number);
  }

  @Override
  public io.fabric8.kubernetes.api.model.networking.v1.Ingress toFabric8(Ingress in) {
    IngressSpec s = in.spec();
    return new IngressBuilder()
        .withApiVersion(apiVersion()).withKind(kind())
        .withMetadata(Fabric8Meta.toFabric8(in.metadata()))
        .withSpec(new IngressSpecBuilder()
            .withIngressClassName(Values.emptyToNull(s.ingressClassName()))
            .withDefaultBackend(s.defaultBackend() == null ? null : backend(s.defaultBackend()))
            .withTls(Fabric8Scheduling.out(s.tls(), t -> new IngressTLSBuilder().withHosts(t.hosts())
                .withSecretName(Values.emptyToNull(t.secretName())).build()))
            .withRules(Fabric8Scheduling.out(s.rules(), r -> new IngressRuleBuilder()
                .withHost(Values.emptyToNull(r.host()))
                .withHttp(new HTTPIngressRuleValueBuilder().withPaths(Fabric8Scheduling.out(r.paths(),
                    p -> new HTTPIngressPathBuilder().withPath(p.path()).withPathType(p.pathType().name())
                        .withBackend(backend(p.backend())).build())).build())
                .build()))
            .build())
        .build();
  }

  private static io.fabric8.kubernetes.api.model.networking.v1.IngressBackend backend(IngressBackend b) {
    return new io.fabric8.kubernetes.api.model.networking.v1.IngressBackendBuilder()
        .withService(new IngressServiceBackendBuilder().withName(b.serviceName())
            .withPort(new ServiceBackendPortBuilder().withName(Values.emptyToNull(b.portName()))
                .withNumber(b.portName().isEmpty() ? b.portNumber() : null).build())
            .build())
        .build();
  }
}
