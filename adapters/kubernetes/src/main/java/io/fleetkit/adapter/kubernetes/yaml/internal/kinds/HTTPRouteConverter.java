package io.fleetkit.adapter.kubernetes.yaml.internal.kinds;

import io.fabric8.kubernetes.api.model.gatewayapi.v1.HTTPBackendRefBuilder;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.HTTPHeaderMatchBuilder;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.HTTPPathMatchBuilder;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.HTTPQueryParamMatchBuilder;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.HTTPRouteBuilder;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.HTTPRouteMatchBuilder;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.HTTPRouteRuleBuilder;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.HTTPRouteSpecBuilder;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.ParentReferenceBuilder;
import io.fleetkit.adapter.kubernetes.yaml.internal.DocumentContext;
import io.fleetkit.adapter.kubernetes.yaml.internal.Fabric8Meta;
import io.fleetkit.adapter.kubernetes.yaml.internal.Fabric8Scheduling;
import io.fleetkit.adapter.kubernetes.yaml.internal.Values;
import io.fleetkit.api.gateway.HTTPBackendRef;
import io.fleetkit.api.gateway.HTTPHeaderMatch;
import io.fleetkit.api.gateway.HTTPPathMatch;
import io.fleetkit.api.gateway.HTTPQueryParamMatch;
import io.fleetkit.api.gateway.HTTPRoute;
import io.fleetkit.api.gateway.HTTPRouteMatch;
import io.fleetkit.api.gateway.HTTPRouteRule;
import io.fleetkit.api.gateway.HTTPRouteSpec;
import io.fleetkit.api.gateway.ParentReference;
import io.fleetkit.api.gateway.PathMatchType;
import io.fleetkit.api.gateway.ValueMatchType;
import io.fleetkit.api.meta.ObjectMeta;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * gateway.networking.k8s.io/v1 HTTPRoute: parentRefs, hostnames, rules with matches (path, headers, query
 * parameters, method) and backendRefs with weights (a kind other than Service is kept, for the route's
 * {@code InvalidKind} status); filters and timeouts are not modelled (a rule or backend with filters is refused
 * rather than silently changed).
 */
public final class HTTPRouteConverter
    extends AbstractKindConverter<io.fabric8.kubernetes.api.model.gatewayapi.v1.HTTPRoute, HTTPRoute> {
  public HTTPRouteConverter() {
    super(HTTPRoute.API_VERSION, HTTPRoute.KIND, true,
        io.fabric8.kubernetes.api.model.gatewayapi.v1.HTTPRoute.class, HTTPRoute.class);
  }

  @Override
  public @Nullable HTTPRoute toCore(io.fabric8.kubernetes.api.model.gatewayapi.v1.HTTPRoute in,
      DocumentContext ctx) {
    ObjectMeta meta = Fabric8Meta.toCore(in.getMetadata(), kind(), true, ctx);
    var s = in.getSpec() == null ? new io.fabric8.kubernetes.api.model.gatewayapi.v1.HTTPRouteSpec() : in.getSpec();
    List<ParentReference> parents = Fabric8Scheduling.list(s.getParentRefs(), "spec.parentRefs", ctx,
        (p, path, c) -> new ParentReference(Values.orEmpty(p.getGroup()), Values.orEmpty(p.getKind()),
            Values.orEmpty(p.getName()), Values.orEmpty(p.getNamespace()), Values.orEmpty(p.getSectionName()),
            p.getPort()));
    List<String> hostnames = Values.stringList(s.getHostnames(), "spec.hostnames", ctx);
    List<HTTPRouteRule> rules = Fabric8Scheduling.list(s.getRules(), "spec.rules", ctx, HTTPRouteConverter::rule);
    if (ctx.hasErrors()) {
      return null;
    }
    return ctx.build("", () -> new HTTPRoute(meta, new HTTPRouteSpec(parents, hostnames, rules)));
  }

  private static @Nullable HTTPRouteRule rule(io.fabric8.kubernetes.api.model.gatewayapi.v1.HTTPRouteRule r,
      String path, DocumentContext ctx) {
    if (r.getFilters() != null && !r.getFilters().isEmpty()) {
      ctx.error(path + ".filters", "are not supported", r.getFilters().size());
    }
    List<HTTPRouteMatch> matches = Fabric8Scheduling.list(r.getMatches(), path + ".matches", ctx,
        HTTPRouteConverter::match);
    List<HTTPBackendRef> backends = Fabric8Scheduling.list(r.getBackendRefs(), path + ".backendRefs", ctx,
        (b, p, c) -> {
          if (b.getFilters() != null && !b.getFilters().isEmpty()) {
            c.error(p + ".filters", "are not supported", b.getFilters().size());
            return null;
          }
          // Another kind is kept: the route then reports ResolvedRefs=False InvalidKind, as upstream does.
          return new HTTPBackendRef(Values.orEmpty(b.getGroup()), Values.orEmpty(b.getKind()),
              Values.orEmpty(b.getName()), Values.orEmpty(b.getNamespace()), b.getPort(),
              b.getWeight() == null ? HTTPBackendRef.DEFAULT_WEIGHT : b.getWeight());
        });
    return ctx.build(path, () -> new HTTPRouteRule(matches, backends));
  }

  private static @Nullable HTTPRouteMatch match(io.fabric8.kubernetes.api.model.gatewayapi.v1.HTTPRouteMatch m,
      String path, DocumentContext ctx) {
    HTTPPathMatch p = HTTPPathMatch.EVERYTHING;
    if (m.getPath() != null) {
      PathMatchType t = Values.enumValue(PathMatchType.class, m.getPath().getType(), PathMatchType.PathPrefix,
          path + ".path.type", ctx);
      String v = m.getPath().getValue() == null ? "/" : m.getPath().getValue();
      p = t == null ? null : new HTTPPathMatch(t, v);
    }
    List<HTTPHeaderMatch> headers = Fabric8Scheduling.list(m.getHeaders(), path + ".headers", ctx, (h, hp, c) -> {
      ValueMatchType t = Values.enumValue(ValueMatchType.class, h.getType(), ValueMatchType.Exact, hp + ".type", c);
      return t == null ? null : new HTTPHeaderMatch(t, Values.orEmpty(h.getName()), Values.orEmpty(h.getValue()));
    });
    List<HTTPQueryParamMatch> query = Fabric8Scheduling.list(m.getQueryParams(), path + ".queryParams", ctx,
        (q, qp, c) -> {
          ValueMatchType t = Values.enumValue(ValueMatchType.class, q.getType(), ValueMatchType.Exact, qp + ".type",
              c);
          return t == null ? null : new HTTPQueryParamMatch(t, Values.orEmpty(q.getName()),
              Values.orEmpty(q.getValue()));
        });
    HTTPPathMatch pm = p;
    return pm == null ? null : ctx.build(path, () -> new HTTPRouteMatch(pm, headers, query,
        Values.orEmpty(m.getMethod())));
  }

  @Override
  public io.fabric8.kubernetes.api.model.gatewayapi.v1.HTTPRoute toFabric8(HTTPRoute in) {
    HTTPRouteSpec s = in.spec();
    return new HTTPRouteBuilder()
        .withApiVersion(apiVersion()).withKind(kind())
        .withMetadata(Fabric8Meta.toFabric8(in.metadata()))
        .withSpec(new HTTPRouteSpecBuilder()
            .withParentRefs(Fabric8Scheduling.out(s.parentRefs(), p -> new ParentReferenceBuilder()
                .withGroup(Values.emptyToNull(p.group())).withKind(Values.emptyToNull(p.kind())).withPort(p.port())
                .withName(p.name()).withNamespace(Values.emptyToNull(p.namespace()))
                .withSectionName(Values.emptyToNull(p.sectionName())).build()))
            .withHostnames(Values.emptyToNull(s.hostnames()))
            .withRules(Fabric8Scheduling.out(s.rules(), r -> new HTTPRouteRuleBuilder()
                .withMatches(Fabric8Scheduling.out(r.matches(), m -> new HTTPRouteMatchBuilder()
                    .withPath(m.path().equals(HTTPPathMatch.EVERYTHING) ? null : new HTTPPathMatchBuilder()
                        .withType(m.path().type().name()).withValue(m.path().value()).build())
                    .withHeaders(Fabric8Scheduling.out(m.headers(), h -> new HTTPHeaderMatchBuilder()
                        .withType(h.type() == ValueMatchType.Exact ? null : h.type().name()).withName(h.name())
                        .withValue(h.value()).build()))
                    .withQueryParams(Fabric8Scheduling.out(m.queryParams(), q -> new HTTPQueryParamMatchBuilder()
                        .withType(q.type() == ValueMatchType.Exact ? null : q.type().name()).withName(q.name())
                        .withValue(q.value()).build()))
                    .withMethod(Values.emptyToNull(m.method()))
                    .build()))
                .withBackendRefs(Fabric8Scheduling.out(r.backendRefs(), b -> new HTTPBackendRefBuilder()
                    .withGroup(Values.emptyToNull(b.group())).withKind(Values.emptyToNull(b.kind()))
                    .withName(b.name()).withNamespace(Values.emptyToNull(b.namespace())).withPort(b.port())
                    .withWeight(b.weight() == HTTPBackendRef.DEFAULT_WEIGHT ? null : b.weight()).build()))
                .build()))
            .build())
        .build();
  }
}
