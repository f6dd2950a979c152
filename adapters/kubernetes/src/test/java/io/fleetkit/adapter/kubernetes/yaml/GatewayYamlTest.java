package io.fleetkit.adapter.kubernetes.yaml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.fleetkit.api.gateway.BackendObjectReference;
import io.fleetkit.api.gateway.Fraction;
import io.fleetkit.api.gateway.FromNamespaces;
import io.fleetkit.api.gateway.Gateway;
import io.fleetkit.api.gateway.GatewayClass;
import io.fleetkit.api.gateway.HTTPBackendRef;
import io.fleetkit.api.gateway.HTTPCORSFilter;
import io.fleetkit.api.gateway.HTTPHeader;
import io.fleetkit.api.gateway.HTTPHeaderFilter;
import io.fleetkit.api.gateway.HTTPPathModifier;
import io.fleetkit.api.gateway.HTTPRequestMirrorFilter;
import io.fleetkit.api.gateway.HTTPRequestRedirectFilter;
import io.fleetkit.api.gateway.HTTPRoute;
import io.fleetkit.api.gateway.HTTPRouteFilter;
import io.fleetkit.api.gateway.HTTPRouteFilterType;
import io.fleetkit.api.gateway.HTTPRouteRule;
import io.fleetkit.api.gateway.HTTPRouteRetry;
import io.fleetkit.api.gateway.HTTPRouteTimeouts;
import io.fleetkit.api.gateway.HTTPURLRewriteFilter;
import io.fleetkit.api.gateway.ReferenceGrant;
import io.fleetkit.api.gateway.SecretObjectReference;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Gateway API kinds through the YAML loader: every field read, both ways, and bad input with clear errors. */
final class GatewayYamlTest {
  @Test
  void parse_gatewayFixture_readsEveryField() {
    LoadedObjects loaded = KubernetesYaml.parse(RoundTripTest.resource("roundtrip/gateway.yaml"), "gateway.yaml");
    assertThat(loaded.countsByKind()).hasToString("{Gateway=1, GatewayClass=1, HTTPRoute=1, ReferenceGrant=1}");
    assertThat(loaded.ofType(GatewayClass.class).get(0).controllerName()).isEqualTo("fleetkit.io/gateway");
    assertThat(loaded.ofType(GatewayClass.class).get(0).description()).isEqualTo("the edge");
    Gateway g = loaded.ofType(Gateway.class).get(0);
    assertThat(g.spec().gatewayClassName()).isEqualTo("fleetkit");
    assertThat(g.spec().listeners()).extracting(l -> l.name() + ":" + l.port() + ":" + l.protocol() + ":"
        + l.hostname()).containsExactly("http:80:HTTP:*.example.com", "https:443:HTTPS:www.example.com",
        "internal:8080:HTTP:");
    var http = g.spec().listeners().get(0).allowedRoutes();
    assertThat(http.from()).isEqualTo(FromNamespaces.Selector);
    assertThat(http.selector().matchLabels()).containsEntry("team", "shop");
    assertThat(http.kinds()).containsExactly("HTTPRoute");
    assertThat(g.spec().listeners().get(1).certificateRefs()).containsExactly(
        SecretObjectReference.secret("www-cert"), SecretObjectReference.secret("certs", "shared-cert"));
    assertThat(g.spec().listeners().get(1).allowedRoutes().from()).isEqualTo(FromNamespaces.All);
    assertThat(g.spec().listeners().get(2).allowedRoutes().from()).isEqualTo(FromNamespaces.Same);
    // spec.tls.backend.clientCertificateRef: the kind defaults to Secret, as the CRD defaults it
    assertThat(g.spec().backendClientCertificateRef()).isEqualTo(SecretObjectReference.secret("certs", "edge-client"));
    HTTPRoute r = loaded.ofType(HTTPRoute.class).get(0);
    assertThat(r.spec().parentRefs().get(0).sectionName()).isEqualTo("http");
    assertThat(r.spec().parentRefs().get(1).port()).isEqualTo(443);
    assertThat(r.spec().rules().get(1).backendRefs().get(0).kind()).isEqualTo("Bucket");
    assertThat(r.spec().rules().get(1).backendRefs().get(0).isService()).isFalse();
    HTTPRequestRedirectFilter redirect = r.spec().rules().get(2).filters().get(0).requestRedirect();
    assertThat(redirect).isEqualTo(new HTTPRequestRedirectFilter("https", "shop.example.com",
        HTTPPathModifier.replacePrefixMatch("/new"), 8443, 301));
    List<HTTPRouteFilter> api = r.spec().rules().get(3).filters();
    assertThat(api).extracting(HTTPRouteFilter::type).containsExactly(HTTPRouteFilterType.URLRewrite,
        HTTPRouteFilterType.RequestHeaderModifier, HTTPRouteFilterType.ResponseHeaderModifier);
    assertThat(api.get(0).urlRewrite()).isEqualTo(new HTTPURLRewriteFilter("api.internal",
        HTTPPathModifier.replaceFullPath("/v2")));
    assertThat(api.get(1).requestHeaderModifier()).isEqualTo(new HTTPHeaderFilter(List.of(HTTPHeader.of("X-Shop",
        "1")), List.of(HTTPHeader.of("X-Trace", "a")), List.of("X-Debug")));
    assertThat(api.get(2).responseHeaderModifier().set()).containsExactly(HTTPHeader.of("Cache-Control",
        "no-store"));
    assertThat(r.spec().rules().get(4).filters().get(0).requestRedirect())
        .as("statusCode defaults to 302").isEqualTo(new HTTPRequestRedirectFilter(null, "example.org", null, null,
            302));
    HTTPRouteRule mirror = r.spec().rules().get(5);
    assertThat(mirror.name()).isEqualTo("mirror-and-cors");
    assertThat(r.spec().rules().get(4).name()).isEmpty();
    assertThat(mirror.timeouts()).isEqualTo(new HTTPRouteTimeouts("10s", "1s500ms"));
    assertThat(mirror.timeouts().backendRequestTimeout()).isEqualTo(Duration.ofMillis(1500));
    assertThat(r.spec().rules().get(4).timeouts()).isNull();
    assertThat(mirror.retry()).isEqualTo(new HTTPRouteRetry(List.of(502, 503), 2, "100ms"));
    assertThat(mirror.retry().effectiveBackoff()).isEqualTo(Duration.ofMillis(100));
    assertThat(r.spec().rules().get(4).retry()).isNull();
    assertThat(mirror.filters()).extracting(HTTPRouteFilter::requestMirror).containsExactly(
        HTTPRequestMirrorFilter.of(BackendObjectReference.service("cart-shadow", "", 8080)),
        new HTTPRequestMirrorFilter(BackendObjectReference.service("cart-audit", "audit", 8080), 20, null),
        new HTTPRequestMirrorFilter(BackendObjectReference.service("cart-audit", "audit", 8081), null,
            new Fraction(1, 3)), null);
    assertThat(mirror.filters().get(3).cors()).isEqualTo(new HTTPCORSFilter(List.of("https://www.example.com",
        "https://*.example.org"), true, List.of("GET", "PUT"), List.of("x-cart"), List.of("x-total"), 600));
    HTTPBackendRef cart = mirror.backendRefs().get(0);
    assertThat(cart.weight()).isEqualTo(3);
    assertThat(cart.filters()).extracting(HTTPRouteFilter::type).containsExactly(
        HTTPRouteFilterType.RequestHeaderModifier, HTTPRouteFilterType.URLRewrite);
    List<HTTPRouteFilter> next = mirror.backendRefs().get(1).filters();
    assertThat(next.get(0).requestMirror().fraction()).as("denominator defaults to 100")
        .isEqualTo(new Fraction(5, 100));
    assertThat(next.get(1).cors()).as("maxAge defaults to 5, allowCredentials to false")
        .isEqualTo(new HTTPCORSFilter(List.of("*"), false, List.of(), List.of(), List.of(), 5));
    ReferenceGrant rg = loaded.ofType(ReferenceGrant.class).get(0);
    assertThat(rg.permits(Gateway.GROUP, "HTTPRoute", "shop", "", "Service", "cart-canary")).isTrue();
    assertThat(rg.permits(Gateway.GROUP, "HTTPRoute", "shop", "", "Service", "other")).isFalse();
  }

  @Test
  void dumpThenParse_gatewayKinds_givesEqualObjects() {
    LoadedObjects first = KubernetesYaml.parse(RoundTripTest.resource("roundtrip/gateway.yaml"), "gateway.yaml");
    String yaml = KubernetesYaml.dump(first.objects());
    assertThat(KubernetesYaml.parse(yaml, "dumped").objects()).as(yaml).isEqualTo(first.objects());
  }

  private static final String GW = """
      apiVersion: gateway.networking.k8s.io/v1
      kind: Gateway
      metadata: {name: g, namespace: infra}
      spec:
      """;

  @ParameterizedTest(name = "{1}")
  @CsvSource(delimiter = '|', value = {
      "'  listeners: [{name: a, port: 80, protocol: HTTP}]'"
          + "| Gateway infra/g: spec.gatewayClassName",
      "'  gatewayClassName: c\n  listeners: []'"
          + "| Gateway infra/g: spec.listeners",
      "'  gatewayClassName: c\n  listeners: [{name: a, port: 80, protocol: HTTP}, {name: a, port: 81, protocol: HTTP}]'"
          + "| spec.listeners[1].name",
      "'  gatewayClassName: c\n  listeners: [{name: a, port: 70000, protocol: HTTP}]'"
          + "| spec.listeners[0].port",
      "'  gatewayClassName: c\n  listeners: [{name: a, port: 80, protocol: HTTP}, {name: b, port: 80, protocol: HTTP}]'"
          + "| combination of port, protocol and hostname must be unique",
      "'  gatewayClassName: c\n  listeners: [{name: a, port: 443, protocol: HTTPS}]'"
          + "| spec.listeners[0].tls.certificateRefs",
      "'  gatewayClassName: c\n  listeners: [{name: a, port: 80, protocol: TCP, hostname: x.com}]'"
          + "| spec.listeners[0].hostname",
      "'  gatewayClassName: c\n  listeners: [{name: a, port: 80, protocol: HTTP, hostname: 10.0.0.1}]'"
          + "| must be a hostname, not an IP address",
      "'  gatewayClassName: c\n  listeners: [{name: a, port: 80, protocol: HTTP, allowedRoutes: {namespaces: {from: Selector}}}]'"
          + "| spec.listeners[0].allowedRoutes.namespaces.selector",
      "'  gatewayClassName: c\n  listeners: [{name: a, port: 80, protocol: HTTP, allowedRoutes: {namespaces: {from: Some}}}]'"
          + "| spec.listeners[0].allowedRoutes.namespaces.from",
      "'  gatewayClassName: c\n  listeners: [{name: a, port: 80, protocol: HTTP}]\n  addresses: [{value: 1.2.3.4}]'"
          + "| spec.addresses",
      "'  gatewayClassName: c\n  listeners: [{name: a, port: 80, protocol: HTTP}]\n  tls: {frontend: {default: {}}}'"
          + "| spec.tls.frontend",
      "'  gatewayClassName: c\n  listeners: [{name: a, port: 80, protocol: HTTP}]\n  allowedListeners: {}'"
          + "| spec.allowedListeners",
      "'  gatewayClassName: c\n  listeners: [{name: a, port: 80, protocol: HTTP}]\n  tls: {backend: {clientCertificateRef: {name: A_B}}}'"
          + "| spec.tls.backend.clientCertificateRef.name",
  })
  void parse_badGateway_errorNamesObjectAndField(String spec, String expected) {
    Throwable t = catchThrowable(() -> KubernetesYaml.parse(GW + spec.replace("\\n", "\n") + "\n", "g.yaml"));
    assertThat(t).isInstanceOf(ManifestException.class).hasMessageContaining(expected);
  }

  @Test
  void parse_gatewayClassWithoutDomain_clearError() {
    String yaml = """
        apiVersion: gateway.networking.k8s.io/v1
        kind: GatewayClass
        metadata: {name: c}
        spec: {controllerName: gateway}
        """;
    assertThat(catchThrowable(() -> KubernetesYaml.parse(yaml, "c.yaml")))
        .hasMessageContaining("GatewayClass c: spec.controllerName").hasMessageContaining("domain-prefixed");
  }

  @Test
  void parse_referenceGrantWithoutTo_clearError() {
    String yaml = """
        apiVersion: gateway.networking.k8s.io/v1
        kind: ReferenceGrant
        metadata: {name: rg, namespace: b}
        spec:
          from: [{group: gateway.networking.k8s.io, kind: HTTPRoute, namespace: a}]
        """;
    assertThat(catchThrowable(() -> KubernetesYaml.parse(yaml, "rg.yaml")))
        .hasMessageContaining("ReferenceGrant b/rg: spec.to");
  }

  @Test
  void parse_httpRouteBadParentPort_clearError() {
    String yaml = """
        apiVersion: gateway.networking.k8s.io/v1
        kind: HTTPRoute
        metadata: {name: r}
        spec:
          parentRefs: [{name: g, port: 0}]
          rules: [{backendRefs: [{name: a, port: 80}]}]
        """;
    assertThat(catchThrowable(() -> KubernetesYaml.parse(yaml, "r.yaml")))
        .hasMessageContaining("HTTPRoute default/r: spec.parentRefs[0].port");
  }

  private static final String ROUTE = """
      apiVersion: gateway.networking.k8s.io/v1
      kind: HTTPRoute
      metadata: {name: r, namespace: shop}
      spec:
        rules:
      """;

  @ParameterizedTest(name = "{1}")
  @CsvSource(delimiter = '|', value = {
      // filter types not modelled are refused, not dropped
      "'  - filters: [{type: ExternalAuth}]'"
          + "| spec.rules[0].filters[0].type \"ExternalAuth\" is not supported",
      "'  - retry: {codes: [500, 399, 600, 500]}\n    backendRefs: [{name: a, port: 80}]'"
          + "| spec.rules[0].retry.codes[1] \"399\" must be greater than or equal to 400",
      "'  - retry: {codes: [600]}\n    backendRefs: [{name: a, port: 80}]'"
          + "| spec.rules[0].retry.codes[0] \"600\" must be less than or equal to 599",
      "'  - retry: {codes: [503, 503]}\n    backendRefs: [{name: a, port: 80}]'"
          + "| spec.rules[0].retry.codes[1] \"503\" Duplicate value",
      "'  - retry: {attempts: 0}\n    backendRefs: [{name: a, port: 80}]'"
          + "| spec.rules[0].retry.attempts \"0\" must be greater than or equal to 1",
      "'  - retry: {backoff: 1.5s}\n    backendRefs: [{name: a, port: 80}]'"
          + "| spec.rules[0].retry.backoff \"1.5s\" must match",
      "'  - sessionPersistence: {sessionName: s}\n    backendRefs: [{name: a, port: 80}]'"
          + "| spec.rules[0].sessionPersistence is not supported",
      "'  - filters: [{type: Bogus}]'"
          + "| spec.rules[0].filters[0].type \"Bogus\" must be one of",
      "'  - filters: [{type: CORS}]'"
          + "| filter.cors must be specified for CORS filter.type",
      "'  - filters: [{type: RequestMirror, requestMirror: {backendRef: {name: m, port: 80}, percent: 10, fraction: {numerator: 1}}}]\n    backendRefs: [{name: a, port: 80}]'"
          + "| Only one of percent or fraction may be specified in HTTPRequestMirrorFilter",
      "'  - filters: [{type: RequestMirror, requestMirror: {backendRef: {name: m}}}]\n    backendRefs: [{name: a, port: 80}]'"
          + "| spec.rules[0].filters[0].requestMirror.backendRef Must have port for Service reference",
      "'  - filters: [{type: RequestMirror, requestMirror: {backendRef: {name: m, port: 80}, fraction: {numerator: 3, denominator: 2}}}]'"
          + "| spec.rules[0].filters[0].requestMirror.fraction \"3/2\" numerator must be less than or equal to denominator",
      "'  - filters: [{type: RequestMirror, requestMirror: {backendRef: {name: m, port: 80}, percent: 101}}]'"
          + "| spec.rules[0].filters[0].requestMirror.percent \"101\" must be between 0 and 100, inclusive",
      "'  - filters: [{type: CORS, cors: {allowOrigins: [\"*\", \"https://a.com\"]}}]'"
          + "| AllowOrigins cannot contain '*' alongside other origins",
      "'  - filters: [{type: CORS, cors: {allowMethods: [\"*\", GET]}}]'"
          + "| AllowMethods cannot contain '*' alongside other methods",
      "'  - filters: [{type: CORS, cors: {allowHeaders: [\"*\", x-a]}}]'"
          + "| AllowHeaders cannot contain '*' alongside other methods",
      "'  - filters: [{type: CORS, cors: {allowOrigins: [\"ftp://a.com\"]}}]'"
          + "| spec.rules[0].filters[0].cors.allowOrigins[0] \"ftp://a.com\" must be an origin",
      "'  - filters: [{type: CORS, cors: {allowMethods: [GET, GET]}}]'"
          + "| spec.rules[0].filters[0].cors.allowMethods[1] \"GET\" Duplicate value",
      "'  - filters: [{type: CORS, cors: {maxAge: 0}}]'"
          + "| spec.rules[0].filters[0].cors.maxAge \"0\" must be greater than or equal to 1",
      "'  - filters: [{type: CORS, cors: {}}, {type: CORS, cors: {}}]'"
          + "| CORS filter cannot be repeated",
      "'  - {name: a, backendRefs: [{name: a, port: 80}]}\n  - {name: a, backendRefs: [{name: b, port: 80}]}'"
          + "| spec.rules[1].name \"a\" Rule name must be unique within the route",
      "'  - {name: Bad_Name, backendRefs: [{name: a, port: 80}]}'"
          + "| spec.rules[0].name \"Bad_Name\"",
      "'  - {timeouts: {request: 1s, backendRequest: 2s}, backendRefs: [{name: a, port: 80}]}'"
          + "| spec.rules[0].timeouts \"2s\" backendRequest timeout cannot be longer than request timeout",
      "'  - {timeouts: {request: 1.5s}, backendRefs: [{name: a, port: 80}]}'"
          + "| spec.rules[0].timeouts.request \"1.5s\" must match",
      // backend-level filters follow the same list rules
      "'  - backendRefs: [{name: a, port: 80, filters: [{type: RequestHeaderModifier, requestHeaderModifier: {set: [{name: a, value: b}]}}, {type: RequestHeaderModifier, requestHeaderModifier: {set: [{name: a, value: c}]}}]}]'"
          + "| spec.rules[0].backendRefs[0].filters \"2\" RequestHeaderModifier filter cannot be repeated",
      "'  - backendRefs: [{name: a, port: 80, filters: [{type: RequestRedirect, requestRedirect: {hostname: a.com}}, {type: URLRewrite, urlRewrite: {hostname: b.com}}]}]'"
          + "| spec.rules[0].backendRefs[0].filters May specify either httpRouteFilterRequestRedirect or httpRouteFilterRequestRewrite, but not both",
      "'  - matches: [{path: {type: Exact, value: /a}}]\n    backendRefs: [{name: a, port: 80, filters: [{type: URLRewrite, urlRewrite: {path: {type: ReplacePrefixMatch, replacePrefixMatch: /b}}}]}]'"
          + "| Within backendRefs, When using URLRewrite filter with path.replacePrefixMatch, exactly one PathPrefix match must be specified",
      "'  - matches: [{path: {type: Exact, value: /a}}]\n    backendRefs: [{name: a, port: 80, filters: [{type: RequestRedirect, requestRedirect: {path: {type: ReplacePrefixMatch, replacePrefixMatch: /b}}}]}]'"
          + "| Within backendRefs, when using RequestRedirect filter with path.replacePrefixMatch, exactly one PathPrefix match must be specified",
      // the API's CEL rules, with its messages
      "'  - filters: [{type: URLRewrite, requestRedirect: {hostname: a.com}}]'"
          + "| filter.requestRedirect must be nil if the filter.type is not RequestRedirect",
      "'  - filters: [{type: RequestRedirect, requestRedirect: {hostname: a.com}}, {type: URLRewrite, urlRewrite: {hostname: b.com}}]'"
          + "| May specify either httpRouteFilterRequestRedirect or httpRouteFilterRequestRewrite, but not both",
      "'  - filters: [{type: RequestRedirect, requestRedirect: {hostname: a.com}}, {type: RequestRedirect, requestRedirect: {hostname: b.com}}]'"
          + "| RequestRedirect filter cannot be repeated",
      "'  - filters: [{type: RequestRedirect, requestRedirect: {hostname: a.com}}]\n    backendRefs: [{name: a, port: 80}]'"
          + "| spec.rules[0] \"1\" RequestRedirect filter must not be used together with backendRefs",
      "'  - matches: [{path: {type: Exact, value: /a}}]\n    filters: [{type: URLRewrite, urlRewrite: {path: {type: ReplacePrefixMatch, replacePrefixMatch: /b}}}]\n    backendRefs: [{name: a, port: 80}]'"
          + "| When using URLRewrite filter with path.replacePrefixMatch, exactly one PathPrefix match must be specified",
      "'  - matches: [{path: {value: /a}}, {path: {value: /b}}]\n    filters: [{type: RequestRedirect, requestRedirect: {path: {type: ReplacePrefixMatch, replacePrefixMatch: /c}}}]'"
          + "| When using RequestRedirect filter with path.replacePrefixMatch, exactly one PathPrefix match must be specified",
      "'  - filters: [{type: RequestRedirect, requestRedirect: {path: {type: ReplaceFullPath, replacePrefixMatch: /c}}}]'"
          + "| replaceFullPath must be specified when type is set to 'ReplaceFullPath'",
      "'  - filters: [{type: RequestRedirect, requestRedirect: {statusCode: 304}}]'"
          + "| spec.rules[0].filters[0].requestRedirect.statusCode \"304\" must be one of 301, 302, 303, 307, 308",
      "'  - filters: [{type: RequestRedirect, requestRedirect: {scheme: ftp}}]'"
          + "| spec.rules[0].filters[0].requestRedirect.scheme \"ftp\" must be one of http, https",
      "'  - filters: [{type: RequestRedirect, requestRedirect: {port: 0}}]'"
          + "| spec.rules[0].filters[0].requestRedirect.port",
      "'  - filters: [{type: URLRewrite, urlRewrite: {hostname: \"*.a.com\"}}]\n    backendRefs: [{name: a, port: 80}]'"
          + "| spec.rules[0].filters[0].urlRewrite.hostname",
      "'  - filters: [{type: RequestHeaderModifier, requestHeaderModifier: {set: [{name: \"bad header\", value: v}]}}]\n    backendRefs: [{name: a, port: 80}]'"
          + "| spec.rules[0].filters[0].requestHeaderModifier.set[0].name \"bad header\" must be an HTTP header name",
      "'  - filters: [{type: ResponseHeaderModifier, responseHeaderModifier: {add: [{name: a, value: x}, {name: a, value: y}]}}]\n    backendRefs: [{name: a, port: 80}]'"
          + "| spec.rules[0].filters[0].responseHeaderModifier.add[1].name \"a\" Duplicate value",
  })
  void parse_badHttpRouteFilter_errorNamesObjectFieldAndRule(String rules, String expected) {
    Throwable t = catchThrowable(() -> KubernetesYaml.parse(ROUTE + rules.replace("\\n", "\n") + "\n", "r.yaml"));
    assertThat(t).isInstanceOf(ManifestException.class).hasMessageContaining("HTTPRoute shop/r")
        .hasMessageContaining(expected);
  }
}
