package io.fleetkit.networking.routing;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.gateway.HTTPBackendRef;
import io.fleetkit.api.gateway.HTTPHeader;
import io.fleetkit.api.gateway.HTTPHeaderFilter;
import io.fleetkit.api.gateway.HTTPPathModifier;
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
}
