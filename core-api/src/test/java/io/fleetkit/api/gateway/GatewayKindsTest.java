package io.fleetkit.api.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.ValidationException;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.meta.ObjectMeta;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The Gateway API kinds' constructor rules (the CRD schema and CEL rules), errors naming object and field. */
final class GatewayKindsTest {
  private static Gateway gateway(Listener... ls) {
    return new Gateway(ObjectMeta.of("infra", "g"), new GatewaySpec("c", List.of(ls)));
  }

  @Test
  void gateway_validListeners_accepted() {
    assertThatCode(() -> gateway(Listener.http("a", "", 80), Listener.http("b", "*.example.com", 80),
        new Listener("tls", "www.example.com", 443, "HTTPS", AllowedRoutes.SAME_NAMESPACE,
            List.of(SecretObjectReference.secret("cert"))),
        new Listener("custom", "", 9000, "example.com/proto", AllowedRoutes.SAME_NAMESPACE, List.of())))
        .doesNotThrowAnyException();
  }

  @Test
  void gateway_everyViolationReportedAtOnce() {
    assertThatThrownBy(() -> gateway(Listener.http("a", "", 80), Listener.http("a", "", 81),
        new Listener("t", "", 82, "HTTP", AllowedRoutes.SAME_NAMESPACE,
            List.of(SecretObjectReference.secret("cert"))),
        Listener.http("s", "", 83).withAllowedRoutes(new AllowedRoutes(FromNamespaces.Same, LabelSelector.EVERYTHING,
            List.of()))))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("Gateway infra/g")
        .hasMessageContaining("spec.listeners[1].name").hasMessageContaining("must be unique within the Gateway")
        .hasMessageContaining("spec.listeners[2].tls")
        .hasMessageContaining("spec.listeners[3].allowedRoutes.namespaces.selector");
  }

  @Test
  void gateway_certificateRefs_namespaceAndKindChecked_otherGroupsAndKindsAccepted() {
    Listener bad = new Listener("tls", "", 443, "HTTPS", AllowedRoutes.SAME_NAMESPACE, List.of(
        new SecretObjectReference("", "Wrong_Kind", "cert", "Not_A_Namespace")));
    assertThatThrownBy(() -> gateway(bad)).isInstanceOf(ValidationException.class)
        .hasMessageContaining("spec.listeners[0].tls.certificateRefs[0].namespace")
        .hasMessageContaining("spec.listeners[0].tls.certificateRefs[0].kind");
    // resolvable or not is the controller's to say (ResolvedRefs), as in the CRD's schema
    assertThatCode(() -> gateway(new Listener("tls", "", 443, "HTTPS", AllowedRoutes.SAME_NAMESPACE, List.of(
        new SecretObjectReference("wrong.group.company.io", "WrongKind", "cert", "certs")))))
        .doesNotThrowAnyException();
  }

  @Test
  void gatewayClass_descriptionAtMost64Characters_andPartOfTheSpec() {
    GatewayClass c = new GatewayClass(ObjectMeta.of("c"), "example.com/gateway");
    assertThatThrownBy(() -> c.withDescription("d".repeat(65)))
        .hasMessageContaining("GatewayClass c: spec.description");
    assertThat(c.withDescription("new").spec()).isNotEqualTo(c.spec());
    assertThat(c.withStatus(new GatewayClassStatus(List.of(io.fleetkit.api.meta.Condition.of("Accepted",
        io.fleetkit.api.meta.ConditionStatus.True, "Accepted", "")))).spec()).isEqualTo(c.spec());
  }

  @Test
  void statusOf_replacesOnlyTheStatus() {
    Gateway g = gateway(Listener.http("a", "", 80));
    GatewayStatus st = new GatewayStatus(List.of(io.fleetkit.api.meta.Condition.of("Accepted",
        io.fleetkit.api.meta.ConditionStatus.True, "Accepted", "")), List.of());
    Gateway other = gateway(Listener.http("b", "", 81)).withStatus(st);
    assertThat(g.withStatusOf(other)).isEqualTo(new Gateway(g.metadata(), g.spec(), st));
    assertThat(g.status()).isEqualTo(GatewayStatus.EMPTY);
  }

  @Test
  void gateway_noClassNoListeners_refused() {
    assertThatThrownBy(() -> new Gateway(ObjectMeta.of("infra", "g"), new GatewaySpec("", List.of())))
        .hasMessageContaining("spec.gatewayClassName").hasMessageContaining("spec.listeners");
  }

  @Test
  void gatewayClass_controllerNameMustBeDomainPrefixed() {
    assertThatThrownBy(() -> new GatewayClass(ObjectMeta.of("c"), "controller"))
        .hasMessageContaining("GatewayClass c: spec.controllerName");
    assertThatCode(() -> new GatewayClass(ObjectMeta.of("c"), "example.com/gateway")).doesNotThrowAnyException();
  }

  @Test
  void httpRoute_otherBackendKindNeedsNoPort_serviceDoes() {
    HTTPRouteRule bucket = new HTTPRouteRule(List.of(), List.of(new HTTPBackendRef("example.com", "Bucket", "b", "",
        null, 1)));
    assertThatCode(() -> new HTTPRoute(ObjectMeta.of("ns", "r"), new HTTPRouteSpec(List.of(), List.of(),
        List.of(bucket)))).doesNotThrowAnyException();
    HTTPRouteRule svc = new HTTPRouteRule(List.of(), List.of(new HTTPBackendRef("web", "", null, 1)));
    assertThatThrownBy(() -> new HTTPRoute(ObjectMeta.of("ns", "r"), new HTTPRouteSpec(List.of(), List.of(),
        List.of(svc)))).hasMessageContaining("spec.rules[0].backendRefs[0].port");
  }

  private static HTTPRoute route(HTTPRouteRule rule) {
    return new HTTPRoute(ObjectMeta.of("web", "r"), new HTTPRouteSpec(List.of(), List.of(), List.of(rule)));
  }

  @Test
  void httpRoute_validFilters_accepted() {
    HTTPHeaderFilter headers = new HTTPHeaderFilter(List.of(HTTPHeader.of("X-A", "1")),
        List.of(HTTPHeader.of("X-B", "2")), List.of("X-C"));
    assertThatCode(() -> route(new HTTPRouteRule(List.of(HTTPRouteMatch.path(PathMatchType.PathPrefix, "/a")),
        List.of(HTTPBackendRef.of("web", 80, 1)), List.of(HTTPRouteFilter.requestHeaderModifier(headers),
            HTTPRouteFilter.responseHeaderModifier(headers), HTTPRouteFilter.urlRewrite(new HTTPURLRewriteFilter(
                "a.example", HTTPPathModifier.replacePrefixMatch("/b")))))))
        .doesNotThrowAnyException();
    // no matches is the API's default PathPrefix "/" match, which ReplacePrefixMatch accepts
    assertThatCode(() -> route(new HTTPRouteRule(List.of(), List.of(), List.of(HTTPRouteFilter.requestRedirect(
        new HTTPRequestRedirectFilter("https", null, HTTPPathModifier.replacePrefixMatch("/x"), 8443, 308))))))
        .doesNotThrowAnyException();
  }

  @Test
  void httpRoute_filterRules_everyViolationNamed() {
    HTTPRouteFilter typeWithoutField = new HTTPRouteFilter(HTTPRouteFilterType.URLRewrite, null, null,
        new HTTPRequestRedirectFilter(null, null, null, null, 302), null);
    HTTPRouteFilter redirect = HTTPRouteFilter.requestRedirect(new HTTPRequestRedirectFilter("ftp", "A_B", null, 0,
        200));
    HTTPRouteFilter rewrite = HTTPRouteFilter.urlRewrite(new HTTPURLRewriteFilter(null,
        new HTTPPathModifier(HTTPPathModifierType.ReplacePrefixMatch, "/full", null)));
    assertThatThrownBy(() -> route(new HTTPRouteRule(List.of(HTTPRouteMatch.path(PathMatchType.Exact, "/a")),
        List.of(HTTPBackendRef.of("web", 80, 1)), List.of(typeWithoutField, redirect, rewrite, rewrite))))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("HTTPRoute web/r")
        .hasMessageContaining("spec.rules[0].filters[0].requestRedirect")
        .hasMessageContaining("filter.requestRedirect must be nil if the filter.type is not RequestRedirect")
        .hasMessageContaining("spec.rules[0].filters[0].urlRewrite")
        .hasMessageContaining("filter.urlRewrite must be specified for URLRewrite filter.type")
        .hasMessageContaining("spec.rules[0].filters[1].requestRedirect.scheme \"ftp\" must be one of http, https")
        .hasMessageContaining("spec.rules[0].filters[1].requestRedirect.hostname")
        .hasMessageContaining("spec.rules[0].filters[1].requestRedirect.port")
        .hasMessageContaining("spec.rules[0].filters[1].requestRedirect.statusCode \"200\"")
        .hasMessageContaining("replacePrefixMatch must be specified when type is set to 'ReplacePrefixMatch'")
        .hasMessageContaining("type must be 'ReplaceFullPath' when replaceFullPath is set")
        .hasMessageContaining("May specify either httpRouteFilterRequestRedirect or httpRouteFilterRequestRewrite, "
            + "but not both")
        .hasMessageContaining("URLRewrite filter cannot be repeated")
        .hasMessageContaining("RequestRedirect filter must not be used together with backendRefs");
  }

  @Test
  void httpRoute_replacePrefixMatchWithoutOnePathPrefix_refused() {
    HTTPRouteFilter rewrite = HTTPRouteFilter.urlRewrite(new HTTPURLRewriteFilter(null,
        HTTPPathModifier.replacePrefixMatch("/b")));
    assertThatThrownBy(() -> route(new HTTPRouteRule(List.of(HTTPRouteMatch.path(PathMatchType.PathPrefix, "/a"),
        HTTPRouteMatch.path(PathMatchType.PathPrefix, "/c")), List.of(HTTPBackendRef.of("web", 80, 1)),
        List.of(rewrite))))
        .hasMessageContaining("spec.rules[0] \"2\" When using URLRewrite filter with path.replacePrefixMatch, exactly "
            + "one PathPrefix match must be specified");
  }

  @Test
  void httpRoute_headerFilterRules() {
    HTTPHeaderFilter bad = new HTTPHeaderFilter(List.of(HTTPHeader.of("X:A", "1"), HTTPHeader.of("X-B", "")),
        List.of(HTTPHeader.of("X-D", "1"), HTTPHeader.of("X-D", "2")), List.of("X-E", "X-E"));
    assertThatThrownBy(() -> route(new HTTPRouteRule(List.of(), List.of(HTTPBackendRef.of("web", 80, 1)),
        List.of(HTTPRouteFilter.requestHeaderModifier(bad), HTTPRouteFilter.requestHeaderModifier(
            new HTTPHeaderFilter(List.of(), List.of(), List.of()))))))
        .hasMessageContaining("spec.rules[0].filters[0].requestHeaderModifier.set[0].name \"X:A\" must be an HTTP "
            + "header name")
        .hasMessageContaining("spec.rules[0].filters[0].requestHeaderModifier.set[1].value Required value")
        .hasMessageContaining("spec.rules[0].filters[0].requestHeaderModifier.add[1].name \"X-D\" Duplicate value")
        .hasMessageContaining("spec.rules[0].filters[0].requestHeaderModifier.remove[1] \"X-E\" Duplicate value")
        .hasMessageContaining("RequestHeaderModifier filter cannot be repeated");
  }
}
