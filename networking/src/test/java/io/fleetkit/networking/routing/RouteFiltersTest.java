package io.fleetkit.networking.routing;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.gateway.BackendObjectReference;
import io.fleetkit.api.gateway.Fraction;
import io.fleetkit.api.gateway.HTTPBackendRef;
import io.fleetkit.api.gateway.HTTPCORSFilter;
import io.fleetkit.api.gateway.HTTPHeader;
import io.fleetkit.api.gateway.HTTPHeaderFilter;
import io.fleetkit.api.gateway.HTTPPathModifier;
import io.fleetkit.api.gateway.HTTPRequestMirrorFilter;
import io.fleetkit.api.gateway.HTTPRequestRedirectFilter;
import io.fleetkit.api.gateway.HTTPRoute;
import io.fleetkit.api.gateway.HTTPRouteFilter;
import io.fleetkit.api.gateway.HTTPRouteMatch;
import io.fleetkit.api.gateway.HTTPRouteRule;
import io.fleetkit.api.gateway.HTTPRouteSpec;
import io.fleetkit.api.gateway.HTTPURLRewriteFilter;
import io.fleetkit.api.gateway.PathMatchType;
import io.fleetkit.api.meta.ObjectMeta;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The filters' effects beyond the conformance cases: the API's documented tables and the router without Gateway. */
final class RouteFiltersTest {
  /** The ReplacePrefixMatch table of {@code HTTPPathModifier} in {@code apis/v1/httproute_types.go}. */
  @ParameterizedTest(name = "{0} prefix {1} replaced by \"{2}\" -> {3}")
  @CsvSource(value = {"/foo/bar, /foo, /xyz, /xyz/bar", "/foo/bar, /foo, /xyz/, /xyz/bar",
      "/foo/bar, /foo/, /xyz, /xyz/bar", "/foo/bar, /foo/, /xyz/, /xyz/bar", "/foo, /foo, /xyz, /xyz",
      "/foo/, /foo, /xyz, /xyz/", "/foo/bar, /foo, '', /bar", "/foo/, /foo, '', /", "/foo, /foo, '', /",
      "/foo/, /foo, /, /", "/foo, /foo, /, /"})
  void replacePrefix_apiTable(String path, String prefix, String replacement, String expected) {
    assertThat(Paths.replacePrefix(prefix, replacement, path)).isEqualTo(expected);
  }

  @Test
  void headerModifier_setAddRemove_caseInsensitiveNames() {
    HeaderModifier m = new HeaderModifier(new HTTPHeaderFilter(List.of(HTTPHeader.of("X-Set", "s")),
        List.of(HTTPHeader.of("X-Add", "b"), HTTPHeader.of("X-New", "n")), List.of("X-GONE")));
    assertThat(m.apply(Map.of("x-set", "old", "X-ADD", "a", "x-gone", "g")))
        .containsOnly(Map.entry("x-set", "s"), Map.entry("x-add", "a,b"), Map.entry("x-new", "n"));
    assertThat(HeaderModifier.NONE.isEmpty()).isTrue();
    assertThat(HeaderModifier.NONE.apply(Map.of("A", "1"))).containsOnly(Map.entry("a", "1"));
  }

  private static HttpRouteRouter router(HTTPRouteRule rule) {
    return new HttpRouteRouter(List.of(new HTTPRoute(ObjectMeta.of("web", "r"), new HTTPRouteSpec(List.of(),
        List.of(), List.of(rule)))));
  }

  /**
   * A Host port is ASCII digits (RFC 3986): Integer.parseInt read "\u0668\u0660\u0668\u0660" (Arabic-Indic 8080) as
   * 8080 and "-1" as port -1; such a port is none, so a redirect points at port 80.
   */
  @Test
  void withoutGateway_requestPortNotAsciiDigits_redirectToPort80() {
    HttpRouteRouter r = router(new HTTPRouteRule(List.of(HTTPRouteMatch.path(PathMatchType.PathPrefix, "/old")),
        List.of(), List.of(HTTPRouteFilter.requestRedirect(new HTTPRequestRedirectFilter(null, null,
            HTTPPathModifier.replacePrefixMatch("/new"), null, 301)))));
    for (String port : new String[] {"\u0668\u0660\u0668\u0660", "\uff18\uff10", "-1", "+8080", "99999"}) {
      assertThat(r.route(HttpRequest.get("shop.example:" + port, "/old")).redirect().location()).as(port)
          .isEqualTo("http://shop.example/new");
    }
    assertThat(r.route(HttpRequest.get("shop.example:8080", "/old")).redirect().location())
        .isEqualTo("http://shop.example:8080/new");
  }

  @Test
  void withoutGateway_redirectUsesHttpAndTheRequestPort_keepsQuery() {
    HttpRouteRouter r = router(new HTTPRouteRule(List.of(HTTPRouteMatch.path(PathMatchType.PathPrefix, "/old")),
        List.of(), List.of(HTTPRouteFilter.requestRedirect(new HTTPRequestRedirectFilter(null, null,
            HTTPPathModifier.replacePrefixMatch("/new"), null, 301)))));
    RouteResult res = r.route(HttpRequest.get("shop.example:8080", "/old/a?q=1&x=a b"));
    assertThat(res.status()).isEqualTo(301);
    assertThat(res.redirect().location()).isEqualTo("http://shop.example:8080/new/a?q=1&x=a+b");
    assertThat(res.route()).isEqualTo("HTTPRoute/web/r");
    assertThat(res.service()).isNull();
    assertThat(r.route(HttpRequest.get("shop.example", "/old")).redirect().location())
        .isEqualTo("http://shop.example/new");
  }

  @Test
  void withoutGateway_rewriteAndHeaders_forwardedRequest() {
    HttpRouteRouter r = router(new HTTPRouteRule(List.of(HTTPRouteMatch.path(PathMatchType.PathPrefix, "/api")),
        List.of(HTTPBackendRef.of("api", 8080, 1)), List.of(
            HTTPRouteFilter.urlRewrite(new HTTPURLRewriteFilter("api.internal",
                HTTPPathModifier.replacePrefixMatch("/v2"))),
            HTTPRouteFilter.requestHeaderModifier(new HTTPHeaderFilter(List.of(HTTPHeader.of("X-Via", "gw")),
                List.of(), List.of())))));
    RouteResult res = r.route(HttpRequest.of("POST", "www.example", "/api/items?id=3", Map.of("Accept", "json")));
    assertThat(res.status()).isEqualTo(200);
    assertThat(res.service()).isEqualTo("web/api");
    HttpRequest fwd = res.forwarded();
    assertThat(fwd.host()).isEqualTo("api.internal");
    assertThat(fwd.path()).isEqualTo("/v2/items");
    assertThat(fwd.queryParam("id")).isEqualTo("3");
    assertThat(fwd.method()).isEqualTo("POST");
    assertThat(fwd.headers()).containsOnly(Map.entry("accept", "json"), Map.entry("x-via", "gw"));
    assertThat(res.responseHeaders().isEmpty()).isTrue();
  }

  @Test
  void withoutFilters_forwardedIsTheRequest() {
    HttpRouteRouter r = router(new HTTPRouteRule(List.of(), List.of(HTTPBackendRef.of("web", 80, 1))));
    HttpRequest req = HttpRequest.get("a.example", "/x");
    RouteResult res = r.route(req);
    assertThat(res.forwarded()).isEqualTo(req);
    assertThat(res.redirect()).isNull();
    assertThat(res.responseHeaders()).isEqualTo(HeaderModifier.NONE);
  }

  /** The origin rules of {@code HTTPCORSFilter.allowOrigins} in {@code apis/v1/httproute_types.go}. */
  @ParameterizedTest(name = "{0} allows {1}: {2}")
  @CsvSource({"https://a.com, https://a.com, true", "https://a.com, https://a.com:443, true",
      "https://a.com, http://a.com, false", "https://a.com, https://a.com:8443, false",
      "http://a.com:8080, http://a.com:8080, true", "https://*.a.com, https://x.y.a.com, true",
      "https://*.a.com, https://a.com, false", "https://*.a.com, https://xa.com, false",
      "https://*, https://anything.org:443, true", "*, not-even-an-origin, true", "https://A.com, https://a.COM, true"})
  void corsOrigin_apiRules(String allowed, String origin, boolean expected) {
    assertThat(Cors.allowed(List.of(allowed), origin)).isEqualTo(expected);
  }

  @Test
  void backendFilters_applyAfterTheRules_responseModifiersCompose_mirrorsGetTheFinalRequest() {
    HTTPHeaderFilter ruleResponse = new HTTPHeaderFilter(List.of(HTTPHeader.of("X-Rule", "r")), List.of(),
        List.of());
    HTTPHeaderFilter backendResponse = new HTTPHeaderFilter(List.of(HTTPHeader.of("X-Rule", "b")),
        List.of(HTTPHeader.of("X-Backend", "b")), List.of());
    HTTPBackendRef b = HTTPBackendRef.of("api", 80, 1).withFilters(List.of(
        HTTPRouteFilter.responseHeaderModifier(backendResponse),
        HTTPRouteFilter.urlRewrite(new HTTPURLRewriteFilter(null, HTTPPathModifier.replaceFullPath("/v2"))),
        HTTPRouteFilter.requestMirror(new HTTPRequestMirrorFilter(BackendObjectReference.service("shadow", "", 81),
            null, new Fraction(1, 4)))));
    RouteResult res = router(new HTTPRouteRule(List.of(), List.of(b), List.of(
        HTTPRouteFilter.responseHeaderModifier(ruleResponse)))).route(HttpRequest.get("x", "/a"));
    assertThat(res.service()).isEqualTo("web/api");
    assertThat(res.forwarded().path()).isEqualTo("/v2");
    assertThat(res.response(Map.of())).containsOnly(Map.entry("x-rule", "b"), Map.entry("x-backend", "b"));
    assertThat(res.mirrors()).containsExactly(new Mirror("web/shadow", 81, res.forwarded(), 1, 4));
    assertThat(res.backends().get(0).result()).isEqualTo(res.withBackends(List.of()));
  }

  @Test
  void mirrorSends_seededRandom_isReproducible() {
    Mirror m = new Mirror("web/shadow", 80, HttpRequest.get("x", "/"), 1, 3);
    SplittableRandom a = new SplittableRandom(3);
    SplittableRandom b = new SplittableRandom(3);
    int sent = 0;
    for (int i = 0; i < 3000; i++) {
      boolean s = m.sends(a);
      assertThat(m.sends(b)).isEqualTo(s);
      sent += s ? 1 : 0;
    }
    assertThat(sent).isBetween(900, 1100);
    assertThat(new Mirror("web/shadow", 80, HttpRequest.get("x", "/"), 0, 100).sends(a)).isFalse();
  }

  @Test
  void cors_preflightWithoutGateway_answeredNotForwardedNotMirrored() {
    HTTPRouteRule rule = new HTTPRouteRule(List.of(), List.of(HTTPBackendRef.of("api", 80, 1)), List.of(
        HTTPRouteFilter.requestMirror(HTTPRequestMirrorFilter.of(BackendObjectReference.service("shadow", "", 80))),
        HTTPRouteFilter.cors(new HTTPCORSFilter(List.of("https://a.com"), false, List.of("GET"), List.of(),
            List.of(), HTTPCORSFilter.DEFAULT_MAX_AGE))));
    RouteResult pre = router(rule).route(HttpRequest.of("OPTIONS", "x", "/", Map.of("Origin", "https://a.com",
        "Access-Control-Request-Method", "GET")));
    assertThat(pre.status()).isEqualTo(200);
    assertThat(pre.forwarded()).isNull();
    assertThat(pre.mirrors()).isEmpty();
    assertThat(pre.response(Map.of("x-from-backend", "1"))).containsExactly(
        Map.entry("access-control-allow-origin", "https://a.com"), Map.entry("access-control-allow-methods", "GET"),
        Map.entry("access-control-max-age", "5"));
    RouteResult noOrigin = router(rule).route(HttpRequest.of("OPTIONS", "x", "/", Map.of()));
    assertThat(noOrigin.cors()).as("no Origin: not a CORS request").isNull();
    assertThat(noOrigin.forwarded()).isNotNull();
    assertThat(noOrigin.mirrors()).hasSize(1);
  }
}
