package io.fleetkit.adapter.kubernetes.yaml.internal.kinds;

import io.fabric8.kubernetes.api.model.gatewayapi.v1.BackendObjectReferenceBuilder;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.FractionBuilder;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.HTTPBackendRefBuilder;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.HTTPCORSFilterBuilder;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.HTTPHeaderBuilder;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.HTTPHeaderFilterBuilder;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.HTTPHeaderMatchBuilder;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.HTTPPathMatchBuilder;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.HTTPPathModifierBuilder;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.HTTPQueryParamMatchBuilder;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.HTTPRequestMirrorFilterBuilder;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.HTTPRequestRedirectFilterBuilder;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.HTTPRouteBuilder;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.HTTPRouteFilterBuilder;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.HTTPRouteMatchBuilder;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.HTTPRouteRuleBuilder;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.HTTPRouteSpecBuilder;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.HTTPRouteStatusBuilder;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.HTTPRouteRetryBuilder;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.HTTPRouteTimeoutsBuilder;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.HTTPURLRewriteFilterBuilder;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.ParentReferenceBuilder;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.RouteParentStatusBuilder;
import io.fleetkit.adapter.kubernetes.yaml.internal.DocumentContext;
import io.fleetkit.adapter.kubernetes.yaml.internal.Fabric8Meta;
import io.fleetkit.adapter.kubernetes.yaml.internal.Fabric8Scheduling;
import io.fleetkit.adapter.kubernetes.yaml.internal.Values;
import io.fleetkit.api.gateway.BackendObjectReference;
import io.fleetkit.api.gateway.Fraction;
import io.fleetkit.api.gateway.HTTPBackendRef;
import io.fleetkit.api.gateway.HTTPCORSFilter;
import io.fleetkit.api.gateway.HTTPHeader;
import io.fleetkit.api.gateway.HTTPHeaderFilter;
import io.fleetkit.api.gateway.HTTPHeaderMatch;
import io.fleetkit.api.gateway.HTTPPathMatch;
import io.fleetkit.api.gateway.HTTPPathModifier;
import io.fleetkit.api.gateway.HTTPPathModifierType;
import io.fleetkit.api.gateway.HTTPQueryParamMatch;
import io.fleetkit.api.gateway.HTTPRequestMirrorFilter;
import io.fleetkit.api.gateway.HTTPRequestRedirectFilter;
import io.fleetkit.api.gateway.HTTPRoute;
import io.fleetkit.api.gateway.HTTPRouteFilter;
import io.fleetkit.api.gateway.HTTPRouteFilterType;
import io.fleetkit.api.gateway.HTTPRouteMatch;
import io.fleetkit.api.gateway.HTTPRouteRule;
import io.fleetkit.api.gateway.HTTPRouteSpec;
import io.fleetkit.api.gateway.HTTPRouteStatus;
import io.fleetkit.api.gateway.HTTPRouteRetry;
import io.fleetkit.api.gateway.HTTPRouteTimeouts;
import io.fleetkit.api.gateway.HTTPURLRewriteFilter;
import io.fleetkit.api.gateway.ParentReference;
import io.fleetkit.api.gateway.PathMatchType;
import io.fleetkit.api.gateway.RouteParentStatus;
import io.fleetkit.api.gateway.ValueMatchType;
import io.fleetkit.api.meta.ObjectMeta;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * gateway.networking.k8s.io/v1 HTTPRoute: parentRefs, hostnames, rules (with an optional name) with matches (path, headers, query
 * parameters, method) and backendRefs with weights (a kind other than Service is kept, for the route's
 * {@code InvalidKind} status) and rule and backend filters of the types RequestHeaderModifier,
 * ResponseHeaderModifier, RequestRedirect (status code defaulted to 302), URLRewrite, RequestMirror (fraction
 * denominator defaulted to 100) and CORS (maxAge defaulted to 5, allowCredentials to false), rule timeouts and
 * retry policies. The other filter types (ExternalAuth, ExtensionRef) and session persistence are not modelled: they
 * are refused rather than silently dropped.
 * Values equal to the API's defaults are written out as absent.
 *
 * <p>The status as {@code kubectl get -o yaml} prints it: {@code parents}, each with its {@code parentRef} (written
 * as a spec parentRef is), {@code controllerName} and {@code conditions} ({@link GatewayApiStatusYaml}); one
 * controller's entries for the same parentRef twice are refused.
 */
public final class HTTPRouteConverter
    extends AbstractKindConverter<io.fabric8.kubernetes.api.model.gatewayapi.v1.HTTPRoute, HTTPRoute> {
  /** The filter types of the API that FleetKit does not model. */
  private static final Set<String> NOT_MODELLED = Set.of("ExternalAuth", "ExtensionRef");

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
        (p, path, c) -> parentRef(p));
    List<String> hostnames = Values.stringList(s.getHostnames(), "spec.hostnames", ctx);
    List<HTTPRouteRule> rules = Fabric8Scheduling.list(s.getRules(), "spec.rules", ctx, HTTPRouteConverter::rule);
    HTTPRouteStatus status = status(in.getStatus(), ctx);
    if (ctx.hasErrors()) {
      return null;
    }
    return ctx.build("", () -> new HTTPRoute(meta, new HTTPRouteSpec(parents, hostnames, rules), status));
  }

  private static ParentReference parentRef(io.fabric8.kubernetes.api.model.gatewayapi.v1.ParentReference p) {
    return new ParentReference(Values.orEmpty(p.getGroup()), Values.orEmpty(p.getKind()),
        Values.orEmpty(p.getName()), Values.orEmpty(p.getNamespace()), Values.orEmpty(p.getSectionName()),
        p.getPort());
  }

  private static io.fabric8.kubernetes.api.model.gatewayapi.v1.ParentReference parentRefOut(ParentReference p) {
    return new ParentReferenceBuilder()
        .withGroup(Values.emptyToNull(p.group())).withKind(Values.emptyToNull(p.kind())).withPort(p.port())
        .withName(p.name()).withNamespace(Values.emptyToNull(p.namespace()))
        .withSectionName(Values.emptyToNull(p.sectionName())).build();
  }

  private static HTTPRouteStatus status(
      io.fabric8.kubernetes.api.model.gatewayapi.v1.@Nullable HTTPRouteStatus st, DocumentContext ctx) {
    if (st == null) {
      return HTTPRouteStatus.EMPTY;
    }
    var seen = new HashSet<List<Object>>();
    List<RouteParentStatus> parents = Fabric8Scheduling.list(st.getParents(), "status.parents", ctx, (p, path, c) -> {
      if (p.getParentRef() == null) {
        c.error(path + ".parentRef", "is required", null);
      }
      String controller = Values.required(p.getControllerName(), path + ".controllerName", c);
      ParentReference ref = p.getParentRef() == null ? null : parentRef(p.getParentRef());
      if (ref != null && ref.name().isEmpty()) {
        c.error(path + ".parentRef.name", "is required", null);
      }
      if (ref != null && !controller.isEmpty() && !seen.add(List.of(ref, controller))) {
        c.error(path, "Duplicate value: controller " + controller + " has another entry for this parentRef",
            ref.name());
      }
      var conditions = GatewayApiStatusYaml.conditions(p.getConditions(), path + ".conditions", c);
      if (ref == null || ref.name().isEmpty() || controller.isEmpty()) {
        return null;
      }
      return c.build(path, () -> new RouteParentStatus(ref, controller, conditions));
    });
    return new HTTPRouteStatus(parents);
  }

  private static @Nullable HTTPRouteRule rule(io.fabric8.kubernetes.api.model.gatewayapi.v1.HTTPRouteRule r,
      String path, DocumentContext ctx) {
    List<HTTPRouteFilter> filters = Fabric8Scheduling.list(r.getFilters(), path + ".filters", ctx,
        HTTPRouteConverter::filter);
    List<HTTPRouteMatch> matches = Fabric8Scheduling.list(r.getMatches(), path + ".matches", ctx,
        HTTPRouteConverter::match);
    List<HTTPBackendRef> backends = Fabric8Scheduling.list(r.getBackendRefs(), path + ".backendRefs", ctx,
        (b, p, c) -> {
          List<HTTPRouteFilter> bf = Fabric8Scheduling.list(b.getFilters(), p + ".filters", c,
              HTTPRouteConverter::filter);
          // Another kind is kept: the route then reports ResolvedRefs=False InvalidKind, as upstream does.
          return new HTTPBackendRef(Values.orEmpty(b.getGroup()), Values.orEmpty(b.getKind()),
              Values.orEmpty(b.getName()), Values.orEmpty(b.getNamespace()), b.getPort(),
              b.getWeight() == null ? HTTPBackendRef.DEFAULT_WEIGHT : b.getWeight(), bf);
        });
    // Session persistence is not modelled: refused rather than silently dropped.
    if (r.getSessionPersistence() != null) {
      ctx.error(path + ".sessionPersistence", "is not supported (FleetKit does not model session persistence)", null);
    }
    var t = r.getTimeouts();
    HTTPRouteTimeouts timeouts = t == null ? null : new HTTPRouteTimeouts(t.getRequest(), t.getBackendRequest());
    var rt = r.getRetry();
    HTTPRouteRetry retry = rt == null ? null : new HTTPRouteRetry(codes(rt.getCodes(), path + ".retry.codes", ctx),
        rt.getAttempts(), rt.getBackoff());
    return ctx.build(path, () -> new HTTPRouteRule(matches, backends, filters, Values.orEmpty(r.getName()),
        timeouts, retry));
  }

  /** A retry policy's status codes; a null item is reported and left out. */
  private static List<Integer> codes(@Nullable List<Integer> in, String path, DocumentContext ctx) {
    if (in == null) {
      return List.of();
    }
    List<Integer> out = new ArrayList<>(in.size());
    for (int i = 0; i < in.size(); i++) {
      if (in.get(i) == null) {
        ctx.error(path + "[" + i + "]", "must be a status code", null);
      } else {
        out.add(in.get(i));
      }
    }
    return out;
  }

  /**
   * A rule filter. The modelled types' fields are converted whatever the type, so that {@link HTTPRoute} reports a
   * type and field that do not go together with the API's message; the other types are refused here, as is a field
   * of theirs on a filter of another type.
   */
  private static @Nullable HTTPRouteFilter filter(io.fabric8.kubernetes.api.model.gatewayapi.v1.HTTPRouteFilter f,
      String path, DocumentContext ctx) {
    String type = f.getType();
    if (type == null || type.isEmpty()) {
      ctx.error(path + ".type", "Required value", null);
      return null;
    }
    if (NOT_MODELLED.contains(type)) {
      ctx.error(path + ".type", "is not supported (FleetKit models the RequestHeaderModifier, "
          + "ResponseHeaderModifier, RequestRedirect, URLRewrite, RequestMirror and CORS filters)", type);
      return null;
    }
    HTTPRouteFilterType t = Values.enumValue(HTTPRouteFilterType.class, type, null, path + ".type", ctx);
    notModelledField(path, "externalAuth", "ExternalAuth", f.getExternalAuth(), ctx);
    notModelledField(path, "extensionRef", "ExtensionRef", f.getExtensionRef(), ctx);
    HTTPHeaderFilter req = headers(f.getRequestHeaderModifier(), path + ".requestHeaderModifier", ctx);
    HTTPHeaderFilter resp = headers(f.getResponseHeaderModifier(), path + ".responseHeaderModifier", ctx);
    HTTPRequestRedirectFilter redirect = null;
    var rd = f.getRequestRedirect();
    if (rd != null) {
      HTTPPathModifier pm = pathModifier(rd.getPath(), path + ".requestRedirect.path", ctx);
      redirect = new HTTPRequestRedirectFilter(rd.getScheme(), rd.getHostname(), pm, rd.getPort(),
          rd.getStatusCode() == null ? HTTPRequestRedirectFilter.DEFAULT_STATUS_CODE : rd.getStatusCode());
    }
    HTTPURLRewriteFilter rewrite = null;
    var rw = f.getUrlRewrite();
    if (rw != null) {
      rewrite = new HTTPURLRewriteFilter(rw.getHostname(), pathModifier(rw.getPath(), path + ".urlRewrite.path",
          ctx));
    }
    HTTPRequestMirrorFilter mirror = mirror(f.getRequestMirror(), path + ".requestMirror", ctx);
    HTTPCORSFilter cors = null;
    var c = f.getCors();
    if (c != null) {
      String cp = path + ".cors";
      cors = new HTTPCORSFilter(Values.stringList(c.getAllowOrigins(), cp + ".allowOrigins", ctx),
          Boolean.TRUE.equals(c.getAllowCredentials()), Values.stringList(c.getAllowMethods(), cp + ".allowMethods",
              ctx), Values.stringList(c.getAllowHeaders(), cp + ".allowHeaders", ctx),
          Values.stringList(c.getExposeHeaders(), cp + ".exposeHeaders", ctx),
          c.getMaxAge() == null ? HTTPCORSFilter.DEFAULT_MAX_AGE : c.getMaxAge());
    }
    return t == null ? null : new HTTPRouteFilter(t, req, resp, redirect, rewrite, mirror, cors);
  }

  private static @Nullable HTTPRequestMirrorFilter mirror(
      io.fabric8.kubernetes.api.model.gatewayapi.v1.@Nullable HTTPRequestMirrorFilter m, String path,
      DocumentContext ctx) {
    if (m == null) {
      return null;
    }
    var b = m.getBackendRef();
    if (b == null) {
      ctx.error(path + ".backendRef", "Required value", null);
      return null;
    }
    Fraction fraction = null;
    var fr = m.getFraction();
    if (fr != null) {
      if (fr.getNumerator() == null) {
        ctx.error(path + ".fraction.numerator", "Required value", null);
        return null;
      }
      fraction = new Fraction(fr.getNumerator(), fr.getDenominator() == null ? Fraction.DEFAULT_DENOMINATOR
          : fr.getDenominator());
    }
    return new HTTPRequestMirrorFilter(new BackendObjectReference(Values.orEmpty(b.getGroup()),
        Values.orEmpty(b.getKind()), Values.orEmpty(b.getName()), Values.orEmpty(b.getNamespace()), b.getPort()),
        m.getPercent(), fraction);
  }

  private static void notModelledField(String path, String field, String type, @Nullable Object value,
      DocumentContext ctx) {
    if (value != null) {
      ctx.error(path + "." + field, "filter." + field + " must be nil if the filter.type is not " + type, null);
    }
  }

  private static @Nullable HTTPHeaderFilter headers(
      io.fabric8.kubernetes.api.model.gatewayapi.v1.@Nullable HTTPHeaderFilter h, String path, DocumentContext ctx) {
    if (h == null) {
      return null;
    }
    List<HTTPHeader> set = Fabric8Scheduling.list(h.getSet(), path + ".set", ctx, HTTPRouteConverter::header);
    List<HTTPHeader> add = Fabric8Scheduling.list(h.getAdd(), path + ".add", ctx, HTTPRouteConverter::header);
    List<String> remove = Values.stringList(h.getRemove(), path + ".remove", ctx);
    return new HTTPHeaderFilter(set, add, remove);
  }

  private static HTTPHeader header(io.fabric8.kubernetes.api.model.gatewayapi.v1.HTTPHeader h, String path,
      DocumentContext ctx) {
    return new HTTPHeader(Values.orEmpty(h.getName()), Values.orEmpty(h.getValue()));
  }

  private static @Nullable HTTPPathModifier pathModifier(
      io.fabric8.kubernetes.api.model.gatewayapi.v1.@Nullable HTTPPathModifier m, String path, DocumentContext ctx) {
    if (m == null) {
      return null;
    }
    if (m.getType() == null || m.getType().isEmpty()) {
      ctx.error(path + ".type", "Required value", null);
      return null;
    }
    HTTPPathModifierType t = Values.enumValue(HTTPPathModifierType.class, m.getType(), null, path + ".type", ctx);
    return t == null ? null : new HTTPPathModifier(t, m.getReplaceFullPath(), m.getReplacePrefixMatch());
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
            .withParentRefs(Fabric8Scheduling.out(s.parentRefs(), HTTPRouteConverter::parentRefOut))
            .withHostnames(Values.emptyToNull(s.hostnames()))
            .withRules(Fabric8Scheduling.out(s.rules(), r -> new HTTPRouteRuleBuilder()
                .withName(Values.emptyToNull(r.name()))
                .withTimeouts(r.timeouts() == null ? null : new HTTPRouteTimeoutsBuilder()
                    .withRequest(r.timeouts().request()).withBackendRequest(r.timeouts().backendRequest()).build())
                .withRetry(r.retry() == null ? null : new HTTPRouteRetryBuilder()
                    .withCodes(Values.emptyToNull(r.retry().codes())).withAttempts(r.retry().attempts())
                    .withBackoff(r.retry().backoff()).build())
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
                .withFilters(Fabric8Scheduling.out(r.filters(), HTTPRouteConverter::filterOut))
                .withBackendRefs(Fabric8Scheduling.out(r.backendRefs(), b -> new HTTPBackendRefBuilder()
                    .withGroup(Values.emptyToNull(b.group())).withKind(Values.emptyToNull(b.kind()))
                    .withName(b.name()).withNamespace(Values.emptyToNull(b.namespace())).withPort(b.port())
                    .withWeight(b.weight() == HTTPBackendRef.DEFAULT_WEIGHT ? null : b.weight())
                    .withFilters(Fabric8Scheduling.out(b.filters(), HTTPRouteConverter::filterOut)).build()))
                .build()))
            .build())
        .withStatus(in.status().equals(HTTPRouteStatus.EMPTY) ? null : new HTTPRouteStatusBuilder()
            .withParents(Fabric8Scheduling.out(in.status().parents(), p -> new RouteParentStatusBuilder()
                .withParentRef(parentRefOut(p.parentRef())).withControllerName(p.controllerName())
                .withConditions(GatewayApiStatusYaml.conditionsOut(p.conditions())).build()))
            .build())
        .build();
  }

  private static io.fabric8.kubernetes.api.model.gatewayapi.v1.HTTPRouteFilter filterOut(HTTPRouteFilter f) {
    HTTPRequestRedirectFilter rd = f.requestRedirect();
    HTTPURLRewriteFilter rw = f.urlRewrite();
    return new HTTPRouteFilterBuilder()
        .withType(f.type().name())
        .withRequestHeaderModifier(headersOut(f.requestHeaderModifier()))
        .withResponseHeaderModifier(headersOut(f.responseHeaderModifier()))
        .withRequestRedirect(rd == null ? null : new HTTPRequestRedirectFilterBuilder()
            .withScheme(rd.scheme()).withHostname(rd.hostname()).withPath(pathOut(rd.path())).withPort(rd.port())
            .withStatusCode(rd.statusCode() == HTTPRequestRedirectFilter.DEFAULT_STATUS_CODE ? null : rd.statusCode())
            .build())
        .withUrlRewrite(rw == null ? null : new HTTPURLRewriteFilterBuilder()
            .withHostname(rw.hostname()).withPath(pathOut(rw.path())).build())
        .withRequestMirror(mirrorOut(f.requestMirror()))
        .withCors(corsOut(f.cors()))
        .build();
  }

  private static io.fabric8.kubernetes.api.model.gatewayapi.v1.@Nullable HTTPRequestMirrorFilter mirrorOut(
      @Nullable HTTPRequestMirrorFilter m) {
    if (m == null) {
      return null;
    }
    BackendObjectReference b = m.backendRef();
    Fraction fr = m.fraction();
    return new HTTPRequestMirrorFilterBuilder()
        .withBackendRef(new BackendObjectReferenceBuilder().withGroup(Values.emptyToNull(b.group()))
            .withKind(Values.emptyToNull(b.kind())).withName(b.name()).withNamespace(Values.emptyToNull(b.namespace()))
            .withPort(b.port()).build())
        .withPercent(m.percent())
        .withFraction(fr == null ? null : new FractionBuilder().withNumerator(fr.numerator())
            .withDenominator(fr.denominator() == Fraction.DEFAULT_DENOMINATOR ? null : fr.denominator()).build())
        .build();
  }

  private static io.fabric8.kubernetes.api.model.gatewayapi.v1.@Nullable HTTPCORSFilter corsOut(
      @Nullable HTTPCORSFilter c) {
    return c == null ? null : new HTTPCORSFilterBuilder()
        .withAllowOrigins(Values.emptyToNull(c.allowOrigins()))
        .withAllowCredentials(c.allowCredentials() ? Boolean.TRUE : null)
        .withAllowMethods(Values.emptyToNull(c.allowMethods()))
        .withAllowHeaders(Values.emptyToNull(c.allowHeaders()))
        .withExposeHeaders(Values.emptyToNull(c.exposeHeaders()))
        .withMaxAge(c.maxAge() == HTTPCORSFilter.DEFAULT_MAX_AGE ? null : c.maxAge())
        .build();
  }

  private static io.fabric8.kubernetes.api.model.gatewayapi.v1.@Nullable HTTPHeaderFilter headersOut(
      @Nullable HTTPHeaderFilter h) {
    if (h == null) {
      return null;
    }
    return new HTTPHeaderFilterBuilder()
        .withSet(Fabric8Scheduling.out(h.set(), x -> new HTTPHeaderBuilder().withName(x.name()).withValue(x.value())
            .build()))
        .withAdd(Fabric8Scheduling.out(h.add(), x -> new HTTPHeaderBuilder().withName(x.name()).withValue(x.value())
            .build()))
        .withRemove(Values.emptyToNull(h.remove()))
        .build();
  }

  private static io.fabric8.kubernetes.api.model.gatewayapi.v1.@Nullable HTTPPathModifier pathOut(
      @Nullable HTTPPathModifier m) {
    return m == null ? null : new HTTPPathModifierBuilder().withType(m.type().name())
        .withReplaceFullPath(m.replaceFullPath()).withReplacePrefixMatch(m.replacePrefixMatch()).build();
  }
}
