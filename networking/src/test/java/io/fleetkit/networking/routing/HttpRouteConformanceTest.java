package io.fleetkit.networking.routing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.gateway.HTTPBackendRef;
import io.fleetkit.api.gateway.HTTPHeaderMatch;
import io.fleetkit.api.gateway.HTTPPathMatch;
import io.fleetkit.api.gateway.HTTPQueryParamMatch;
import io.fleetkit.api.gateway.HTTPRoute;
import io.fleetkit.api.gateway.HTTPRouteMatch;
import io.fleetkit.api.gateway.HTTPRouteRule;
import io.fleetkit.api.gateway.HTTPRouteSpec;
import io.fleetkit.api.gateway.PathMatchType;
import io.fleetkit.api.meta.ObjectMeta;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * kubernetes-sigs/gateway-api {@code conformance/tests}: HTTPRouteMatching (9), HTTPRoutePathMatchOrder (6),
 * HTTPRouteExactPathMatching (6), HTTPRouteHeaderMatching (11), HTTPRouteMethodMatching (12),
 * HTTPRouteQueryParamMatching (19) and HTTPRouteWeight, with the routes of their {@code .yaml} files. Each row is
 * a request and the backend (v1/v2/v3) or 404 upstream expects.
 */
final class HttpRouteConformanceTest {
  private static HTTPRouteMatch m(String pathType, String path, String method, Map<String, String> headers,
      Map<String, String> query) {
    List<HTTPHeaderMatch> h = new ArrayList<>();
    headers.forEach((k, v) -> h.add(HTTPHeaderMatch.exact(k, v)));
    List<HTTPQueryParamMatch> q = new ArrayList<>();
    query.forEach((k, v) -> q.add(HTTPQueryParamMatch.exact(k, v)));
    HTTPPathMatch p = path == null ? HTTPPathMatch.EVERYTHING
        : new HTTPPathMatch(PathMatchType.valueOf(pathType), path);
    return new HTTPRouteMatch(p, h, q, method);
  }

  private static HTTPRouteMatch path(String type, String value) {
    return m(type, value, "", Map.of(), Map.of());
  }

  private static HTTPRouteMatch headers(Map<String, String> headers) {
    return m(null, null, "", headers, Map.of());
  }

  private static HTTPRouteRule rule(String backend, HTTPRouteMatch... matches) {
    return new HTTPRouteRule(List.of(matches), List.of(HTTPBackendRef.of("infra-backend-" + backend, 8080, 1)));
  }

  private static HttpRouteRouter router(String name, HTTPRouteRule... rules) {
    return new HttpRouteRouter(List.of(new HTTPRoute(ObjectMeta.of("gateway-conformance-infra", name),
        new HTTPRouteSpec(List.of(), List.of(), List.of(rules)))));
  }

  private static String backendFor(HttpRouteRouter r, String method, String target, String headers) {
    Map<String, String> h = new HashMap<>();
    if (headers != null && !headers.isEmpty()) {
      for (String kv : headers.split(";")) {
        String[] p = kv.split("=", 2);
        h.put(p[0], p[1]);
      }
    }
    RouteResult res = r.route(HttpRequest.of(method == null ? "GET" : method, "example.com", target, h));
    if (res.status() == 404) {
      return "404";
    }
    return res.service().substring(res.service().lastIndexOf('-') + 1);
  }

  private static final HttpRouteRouter MATCHING = router("matching",
      rule("v1", path("PathPrefix", "/"), headers(Map.of("version", "one"))),
      rule("v2", path("PathPrefix", "/v2"), headers(Map.of("version", "two"))));

  @ParameterizedTest
  @CsvSource({"/, , v1", "/example, , v1", "/, Version=one, v1", "/v2, , v2", "/v2/example, , v2",
      "/, Version=two, v2", "/v2/, , v2", "/v2example, , v1", "/foo/v2/example, , v1"})
  void httpRouteMatching(String path, String headers, String want) {
    assertThat(backendFor(MATCHING, "GET", path, headers)).isEqualTo(want);
  }

  private static final HttpRouteRouter ORDER = router("path-matching-order",
      rule("v1", path("Exact", "/match")), rule("v2", path("Exact", "/match/exact")),
      rule("v3", path("Exact", "/match/exact/one")), rule("v3", path("PathPrefix", "/match/")),
      rule("v1", path("PathPrefix", "/match/prefix/")), rule("v2", path("PathPrefix", "/match/prefix/one")));

  @ParameterizedTest
  @CsvSource({"/match/exact/one, v3", "/match/exact, v2", "/match, v1", "/match/prefix/one/any, v2",
      "/match/prefix/any, v1", "/match/any, v3"})
  void httpRoutePathMatchOrder(String path, String want) {
    assertThat(backendFor(ORDER, "GET", path, null)).isEqualTo(want);
  }

  private static final HttpRouteRouter EXACT = router("exact-matching", rule("v1", path("Exact", "/one")),
      rule("v2", path("Exact", "/two")));

  @ParameterizedTest
  @CsvSource({"/one, v1", "/two, v2", "/, 404", "/one/example, 404", "/two/, 404", "/Two, 404"})
  void httpRouteExactPathMatching(String path, String want) {
    assertThat(backendFor(EXACT, "GET", path, null)).isEqualTo(want);
  }

  private static final HttpRouteRouter HEADERS = router("header-matching",
      rule("v1", headers(Map.of("version", "one"))), rule("v2", headers(Map.of("version", "two"))),
      rule("v1", headers(Map.of("version", "two", "color", "orange"))),
      rule("v1", headers(Map.of("color", "blue")), headers(Map.of("color", "green"))),
      rule("v2", headers(Map.of("color", "red")), headers(Map.of("color", "yellow"))));

  @ParameterizedTest
  @CsvSource({"Version=one, v1", "Version=two, v2", "Version=two;Color=orange, v1", "Version=two;Color=blue, v2",
      "Color=orange, 404", "Some-Other-Header=one, 404", "Color=blue, v1", "Color=green, v1", "Color=red, v2",
      "Color=yellow, v2", "Color=purple, 404"})
  void httpRouteHeaderMatching(String headers, String want) {
    assertThat(backendFor(HEADERS, "GET", "/", headers)).isEqualTo(want);
  }

  private static final HttpRouteRouter METHODS = router("method-matching",
      rule("v1", m(null, null, "POST", Map.of(), Map.of())), rule("v2", m(null, null, "GET", Map.of(), Map.of())),
      rule("v1", m("PathPrefix", "/path1", "GET", Map.of(), Map.of())),
      rule("v2", m(null, null, "PUT", Map.of("version", "one"), Map.of())),
      rule("v3", m("PathPrefix", "/path2", "POST", Map.of("version", "two"), Map.of())),
      rule("v1", m("PathPrefix", "/path3", "PATCH", Map.of(), Map.of()),
          m("PathPrefix", "/path4", "DELETE", Map.of("version", "three"), Map.of())),
      rule("v1", path("PathPrefix", "/path5")), rule("v2", m(null, null, "PATCH", Map.of(), Map.of())),
      rule("v3", headers(Map.of("version", "four"))));

  @ParameterizedTest
  @CsvSource({"POST, /, , v1", "GET, /, , v2", "HEAD, /, , 404", "GET, /path1, , v1", "PUT, /, version=one, v2",
      "POST, /path2, version=two, v3", "PATCH, /path3, , v1", "DELETE, /path4, version=three, v1", "PUT, /, , 404",
      "DELETE, /path4, , 404", "PATCH, /path5, , v1", "PATCH, /, version=four, v2"})
  void httpRouteMethodMatching(String method, String path, String headers, String want) {
    assertThat(backendFor(METHODS, method, path, headers)).isEqualTo(want);
  }

  private static final HttpRouteRouter QUERY = router("query-param-matching",
      rule("v1", m(null, null, "", Map.of(), Map.of("animal", "whale"))),
      rule("v2", m(null, null, "", Map.of(), Map.of("animal", "dolphin"))),
      rule("v3", m(null, null, "", Map.of(), Map.of("animal", "dolphin", "color", "blue")),
          m(null, null, "", Map.of(), Map.of("ANIMAL", "Whale"))),
      rule("v1", m("PathPrefix", "/path1", "", Map.of(), Map.of("animal", "whale"))),
      rule("v2", m(null, null, "", Map.of("version", "one"), Map.of("animal", "whale"))),
      rule("v3", m("PathPrefix", "/path2", "", Map.of("version", "two"), Map.of("animal", "whale"))),
      rule("v1", m("PathPrefix", "/path3", "", Map.of(), Map.of("animal", "shark")),
          m("PathPrefix", "/path4", "", Map.of("version", "three"), Map.of("animal", "kraken"))),
      rule("v1", path("PathPrefix", "/path5")), rule("v2", m(null, null, "", Map.of(), Map.of("animal", "hydra"))),
      rule("v3", headers(Map.of("version", "four"))));

  @ParameterizedTest
  @CsvSource({"/?animal=whale, , v1", "/?animal=dolphin, , v2", "/?animal=dolphin&color=blue, , v3",
      "/?ANIMAL=Whale, , v3", "/?animal=whale&otherparam=irrelevant, , v1", "/?animal=dolphin&color=yellow, , v2",
      "/?color=blue, , 404", "/?animal=dog, , 404", "/?animal=whaledolphin, , 404", "/, , 404",
      "/path1?animal=whale, , v1", "/?animal=whale, version=one, v2", "/path2?animal=whale, version=two, v3",
      "/path3?animal=shark, , v1", "/path4?animal=kraken, version=three, v1", "/?animal=shark, , 404",
      "/path4?animal=kraken, , 404", "/path5?animal=hydra, , v1", "/?animal=hydra, version=four, v3"})
  void httpRouteQueryParamMatching(String target, String headers, String want) {
    assertThat(backendFor(QUERY, "GET", target, headers)).isEqualTo(want);
  }

  // HTTPRouteWeight: weights 70/30/0, 500 requests, each share within 5 % of its expected value, weight 0 never
  @Test
  void httpRouteWeight_distributionWithinTolerance() {
    HttpRouteRouter r = new HttpRouteRouter(List.of(new HTTPRoute(ObjectMeta.of("gateway-conformance-infra",
        "weighted-backends"), new HTTPRouteSpec(List.of(), List.of(), List.of(new HTTPRouteRule(List.of(),
            List.of(HTTPBackendRef.of("infra-backend-v1", 8080, 70), HTTPBackendRef.of("infra-backend-v2", 8080, 30),
                HTTPBackendRef.of("infra-backend-v3", 8080, 0))))))));
    RouteResult res = r.route(HttpRequest.get("example.com", "/"));
    assertThat(res.service()).isEqualTo("gateway-conformance-infra/infra-backend-v1");
    SplittableRandom random = new SplittableRandom(42);
    Map<String, Integer> counts = new HashMap<>();
    for (int i = 0; i < 500; i++) {
      counts.merge(HttpRouteRouter.pickBackend(res, random).service(), 1, Integer::sum);
    }
    assertThat(counts.getOrDefault("gateway-conformance-infra/infra-backend-v1", 0) / 500.0).isBetween(0.65, 0.75);
    assertThat(counts.getOrDefault("gateway-conformance-infra/infra-backend-v2", 0) / 500.0).isBetween(0.25, 0.35);
    assertThat(counts).doesNotContainKey("gateway-conformance-infra/infra-backend-v3");
  }

  @Test
  void allWeightsZero_is500() {
    HttpRouteRouter r = new HttpRouteRouter(List.of(new HTTPRoute(ObjectMeta.of("ns", "zero"), new HTTPRouteSpec(
        List.of(), List.of(), List.of(new HTTPRouteRule(List.of(), List.of(HTTPBackendRef.of("a", 80, 0))))))));
    RouteResult res = r.route(HttpRequest.get("h", "/"));
    assertThat(res.status()).isEqualTo(500);
    assertThat(res.service()).isNull();
    assertThat(HttpRouteRouter.pickBackend(res, new SplittableRandom(1))).isNull();
  }

  // HTTPRouteHostnameIntersection / ListenerHostnameMatching, route side: suffix wildcards and specificity
  @Test
  void hostnames_wildcardIsSuffix_exactMoreSpecificWins() {
    HTTPRoute wildcard = new HTTPRoute(ObjectMeta.of("ns", "wild"), new HTTPRouteSpec(List.of(),
        List.of("*.example.com"), List.of(rule("v1"))));
    HTTPRoute exact = new HTTPRoute(ObjectMeta.of("ns", "exact"), new HTTPRouteSpec(List.of(),
        List.of("foo.example.com"), List.of(rule("v2"))));
    HttpRouteRouter r = new HttpRouteRouter(List.of(wildcard, exact));
    assertThat(r.route(HttpRequest.get("foo.example.com:8080", "/")).service()).endsWith("v2");
    assertThat(r.route(HttpRequest.get("bar.example.com", "/")).service()).endsWith("v1");
    assertThat(r.route(HttpRequest.get("a.b.example.com", "/")).service()).endsWith("v1");
    assertThat(r.route(HttpRequest.get("example.com", "/")).status()).isEqualTo(404);
  }

  @Test
  void validation_badRoute_everyViolationNamed() {
    assertThatThrownBy(() -> new HTTPRoute(ObjectMeta.of("ns", "bad"), new HTTPRouteSpec(List.of(),
        List.of("10.0.0.1"), List.of(new HTTPRouteRule(List.of(m("PathPrefix", "/a//b", "FETCH", Map.of(),
            Map.of())), List.of(new HTTPBackendRef("svc", "", 80, 2_000_000)))))))
        .hasMessageContaining("spec.hostnames[0] \"10.0.0.1\" must be a hostname, not an IP address")
        .hasMessageContaining("spec.rules[0].matches[0].path.value \"/a//b\" must not contain '//'")
        .hasMessageContaining("spec.rules[0].matches[0].method \"FETCH\" must be one of")
        .hasMessageContaining("spec.rules[0].backendRefs[0].weight \"2000000\" must be between 0 and 1000000");
  }

  @Test
  void route_backendOfAnotherKind_takesNoTraffic() {
    HttpRouteRouter r = new HttpRouteRouter(List.of(new HTTPRoute(ObjectMeta.of("ns", "r"), new HTTPRouteSpec(
        List.of(), List.of(), List.of(new HTTPRouteRule(List.of(), List.of(
            new HTTPBackendRef("example.com", "Bucket", "static", "", null, 5), HTTPBackendRef.of("web", 80, 1))))))));
    RouteResult res = r.route(HttpRequest.get("example.com", "/"));
    assertThat(res.service()).isEqualTo("ns/web");
    HttpRouteRouter only = new HttpRouteRouter(List.of(new HTTPRoute(ObjectMeta.of("ns", "r"), new HTTPRouteSpec(
        List.of(), List.of(), List.of(new HTTPRouteRule(List.of(), List.of(
            new HTTPBackendRef("example.com", "Bucket", "static", "", null, 5))))))));
    assertThat(only.route(HttpRequest.get("example.com", "/")).status()).isEqualTo(500);
  }
}
