package io.fleetkit.networking.routing;

import static io.fleetkit.networking.routing.GatewayFilterConformanceTest.HOST;
import static io.fleetkit.networking.routing.GatewayFilterConformanceTest.SAME;
import static io.fleetkit.networking.routing.GatewayFilterConformanceTest.assertAccepted;
import static io.fleetkit.networking.routing.GatewayFilterConformanceTest.assertForwarded;
import static io.fleetkit.networking.routing.GatewayFilterConformanceTest.assertRedirect;
import static io.fleetkit.networking.routing.GatewayFilterConformanceTest.get;
import static io.fleetkit.networking.routing.GatewayFilterConformanceTest.headers;
import static io.fleetkit.networking.routing.GatewayFilterConformanceTest.map;
import static io.fleetkit.networking.routing.GatewayFilterConformanceTest.redirect;
import static io.fleetkit.networking.routing.GatewayFilterConformanceTest.requestHeaders;
import static io.fleetkit.networking.routing.GatewayFilterConformanceTest.rewrite;
import static io.fleetkit.networking.routing.GatewayFilterConformanceTest.rule;
import static io.fleetkit.networking.routing.GatewayFilterConformanceTest.sameNamespaceRoute;
import static io.fleetkit.networking.routing.GatewayFilterConformanceTest.send;
import static io.fleetkit.networking.routing.GatewayFixtures.INFRA;
import static io.fleetkit.networking.routing.GatewayFixtures.attach;
import static io.fleetkit.networking.routing.GatewayFixtures.backend;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.gateway.BackendObjectReference;
import io.fleetkit.api.gateway.Fraction;
import io.fleetkit.api.gateway.HTTPBackendRef;
import io.fleetkit.api.gateway.HTTPCORSFilter;
import io.fleetkit.api.gateway.HTTPPathModifier;
import io.fleetkit.api.gateway.HTTPRequestMirrorFilter;
import io.fleetkit.api.gateway.HTTPRouteFilter;
import io.fleetkit.api.gateway.HTTPRouteTimeouts;
import io.fleetkit.networking.gateway.GatewayAttachment;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The backend-level filter, request mirror and CORS cases of kubernetes-sigs/gateway-api {@code conformance/tests}
 * (commit 4564255a), and the named-rule and timeout cases, each nested class naming its upstream {@code .go} and {@code .yaml}
 * file. The requests and expectations are upstream's; see {@link GatewayFilterConformanceTest} for how they are checked. Where upstream
 * reads a mirror backend's logs, the route result's {@link RouteResult#mirrors} say which backend receives which
 * copy; where upstream samples traffic (backend weights, percentage mirrors), a seeded random stands for the data
 * plane and upstream's tolerance is kept.
 */
final class GatewayExtendedFilterConformanceTest {
  private static final String NS_V1 = INFRA + "/infra-backend-v1";
  private static final String NS_V2 = INFRA + "/infra-backend-v2";
  private static final String NS_V3 = INFRA + "/infra-backend-v3";

  private static HTTPBackendRef withFilters(HTTPBackendRef b, HTTPRouteFilter... filters) {
    return b.withFilters(List.of(filters));
  }

  private static HTTPRouteFilter mirror(String backend, @Nullable Integer percent, @Nullable Fraction fraction) {
    return HTTPRouteFilter.requestMirror(new HTTPRequestMirrorFilter(BackendObjectReference.service(backend, INFRA,
        8080), percent, fraction));
  }

  /** The request-header modifier the mirror yamls use in their second rule. */
  private static HTTPRouteFilter modifyHeaders() {
    return requestHeaders(headers("X-Header-Set", "set-overwrites-values"), headers("X-Header-Add", "header-val-1",
        "X-Header-Add-Append", "header-val-2"), "X-Header-Remove");
  }

  /** Upstream's {@code MirroredTo}: the mirrors, in order, by backend and share, each with the forwarded request. */
  private static void assertMirrored(RouteResult r, String... backendsAndShares) {
    assertThat(r.mirrors()).extracting(m -> m.service() + ":" + m.port() + " " + m.numerator() + "/"
        + m.denominator()).containsExactly(backendsAndShares);
    for (Mirror m : r.mirrors()) {
      assertThat(m.request()).as("the mirror receives the request as forwarded").isEqualTo(r.forwarded());
    }
  }

  /** httproute-backend-request-redirect.go / .yaml. */
  @Nested
  final class BackendRequestRedirect {
    private static final GatewayAttachment A = attach(List.of(), sameNamespaceRoute("backend-request-redirect",
        rule("/full", List.of(), withFilters(backend("infra-backend-v1"), redirect(null, null,
            HTTPPathModifier.replaceFullPath("/redirected-full"), null, null))),
        rule("/prefix", List.of(), withFilters(backend("infra-backend-v1"), redirect(null, null,
            HTTPPathModifier.replacePrefixMatch("/redirected-prefix"), null, null)))));

    @Test
    void accepted() {
      assertAccepted(A, SAME, "backend-request-redirect");
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({"/full/original, http://gw.example/redirected-full",
        "/prefix/original, http://gw.example/redirected-prefix/original"})
    void redirected(String path, String location) {
      assertRedirect(get(A, path, map()), 302, location);
    }
  }

  /** httproute-backend-url-rewrite.go / .yaml. */
  @Nested
  final class BackendUrlRewrite {
    private static final GatewayAttachment A = attach(List.of(), sameNamespaceRoute("backend-url-rewrite",
        rule("/full", List.of(), withFilters(backend("infra-backend-v1"), rewrite(null,
            HTTPPathModifier.replaceFullPath("/rewritten-full")))),
        rule("/prefix", List.of(), withFilters(backend("infra-backend-v1"), rewrite(null,
            HTTPPathModifier.replacePrefixMatch("/rewritten-prefix"))))));

    @Test
    void accepted() {
      assertAccepted(A, SAME, "backend-url-rewrite");
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({"/full/original, /rewritten-full", "/prefix/original, /rewritten-prefix/original"})
    void rewritten(String path, String expected) {
      assertForwarded(get(A, path, map()), "infra-backend-v1", expected, map());
    }
  }

  /** httproute-request-header-modifier-backend-weights.go / .yaml. */
  @Nested
  final class RequestHeaderModifierBackendWeights {
    private static HTTPBackendRef weighted(String name) {
      return new HTTPBackendRef("", "", name, "", 8080, 10, List.of(requestHeaders(headers("Backend", name),
          List.of())));
    }

    private static final GatewayAttachment A = attach(List.of(), sameNamespaceRoute(
        "request-header-modifier-backend-weights", rule(null, List.of(), weighted("infra-backend-v1"),
            weighted("infra-backend-v2"))));

    @Test
    void accepted() {
      assertAccepted(A, SAME, "request-header-modifier-backend-weights");
    }

    @Test
    void everyRequest_reachesTheBackendItsHeaderNames() {
      RouteResult r = get(A, "/", map());
      assertThat(r.status()).as(r.message()).isEqualTo(200);
      SplittableRandom random = new SplittableRandom(42);
      Map<String, Integer> seen = new HashMap<>();
      for (int i = 0; i < 100; i++) {
        RouteResult.Backend b = HttpRouteRouter.pickBackend(r, random);
        assertThat(b).isNotNull();
        RouteResult got = b.result();
        assertThat(got).isNotNull();
        assertThat(got.service()).isEqualTo(b.service());
        assertThat(got.forwarded()).isNotNull();
        String header = got.forwarded().header("Backend");
        assertThat(INFRA + "/" + header).as("the Backend header names the pod's backend").isEqualTo(b.service());
        seen.merge(b.service(), 1, Integer::sum);
      }
      assertThat(seen).as("both backends take traffic").containsOnlyKeys(NS_V1, NS_V2);
    }
  }

  /** httproute-request-mirror.go / .yaml. */
  @Nested
  final class RequestMirror {
    private static final GatewayAttachment A = attach(List.of(), sameNamespaceRoute("request-mirror",
        rule("/mirror", List.of(mirror("infra-backend-v2", null, null)), backend("infra-backend-v1", INFRA)),
        rule("/mirror-and-modify-headers", List.of(modifyHeaders(), mirror("infra-backend-v2", null, null)),
            backend("infra-backend-v1", INFRA))));

    @Test
    void accepted() {
      assertAccepted(A, SAME, "request-mirror");
    }

    @Test
    void mirror_forwardedAndMirrored() {
      RouteResult r = get(A, "/mirror", map());
      assertForwarded(r, "infra-backend-v1", "/mirror", map());
      assertMirrored(r, NS_V2 + ":8080 100/100");
    }

    @Test
    void mirrorAndModifyHeaders() {
      RouteResult r = get(A, "/mirror-and-modify-headers", map("X-Header-Remove", "remove-val",
          "X-Header-Add-Append", "append-val-1"));
      assertForwarded(r, "infra-backend-v1", "/mirror-and-modify-headers", map("X-Header-Add", "header-val-1",
          "X-Header-Add-Append", "append-val-1,header-val-2", "X-Header-Set", "set-overwrites-values"),
          "X-Header-Remove");
      assertMirrored(r, NS_V2 + ":8080 100/100");
    }
  }

  /** httproute-request-multiple-mirrors.go / .yaml. */
  @Nested
  final class RequestMultipleMirrors {
    private static final GatewayAttachment A = attach(List.of(), sameNamespaceRoute("request-multiple-mirrors",
        rule("/multi-mirror", List.of(mirror("infra-backend-v2", null, null), mirror("infra-backend-v3", null,
            null)), backend("infra-backend-v1", INFRA)),
        rule("/multi-mirror-and-modify-request-headers", List.of(modifyHeaders(), mirror("infra-backend-v2", null,
            null), mirror("infra-backend-v3", null, null)), backend("infra-backend-v1", INFRA))));

    @Test
    void accepted() {
      assertAccepted(A, SAME, "request-multiple-mirrors");
    }

    @Test
    void multiMirror() {
      RouteResult r = get(A, "/multi-mirror", map());
      assertForwarded(r, "infra-backend-v1", "/multi-mirror", map());
      assertMirrored(r, NS_V2 + ":8080 100/100", NS_V3 + ":8080 100/100");
    }

    @Test
    void multiMirrorAndModifyRequestHeaders() {
      RouteResult r = get(A, "/multi-mirror-and-modify-request-headers", map("X-Header-Remove", "remove-val",
          "X-Header-Add-Append", "append-val-1"));
      assertForwarded(r, "infra-backend-v1", "/multi-mirror-and-modify-request-headers", map("X-Header-Add",
          "header-val-1", "X-Header-Add-Append", "append-val-1,header-val-2", "X-Header-Set",
          "set-overwrites-values"), "X-Header-Remove");
      assertMirrored(r, NS_V2 + ":8080 100/100", NS_V3 + ":8080 100/100");
    }
  }

  /** httproute-request-percentage-mirror.go / .yaml (upstream marks it provisional). */
  @Nested
  final class RequestPercentageMirror {
    /** Upstream's {@code totalRequests} and {@code toleranceStdDevs}. */
    private static final int TOTAL_REQUESTS = 500;
    private static final double TOLERANCE_STD_DEVS = 3.0;

    private static final GatewayAttachment A = attach(List.of(), sameNamespaceRoute("request-percentage-mirror",
        rule("/percent-mirror", List.of(mirror("infra-backend-v2", 20, null)), backend("infra-backend-v1", INFRA)),
        rule("/percent-mirror-fraction", List.of(mirror("infra-backend-v2", null, new Fraction(25, 50))),
            backend("infra-backend-v1", INFRA)),
        rule("/percent-mirror-and-modify-headers", List.of(modifyHeaders(), mirror("infra-backend-v2", 35, null)),
            backend("infra-backend-v1", INFRA))));

    @Test
    void accepted() {
      assertAccepted(A, SAME, "request-percentage-mirror");
    }

    /**
     * Upstream's {@code testMirroredRequestsDistribution}: of 500 requests the mirror receives
     * {@code 500 p} within 3 binomial standard deviations.
     */
    private static void assertDistribution(String path, Map<String, String> headers, int percent) {
      SplittableRandom random = new SplittableRandom(7);
      int mirrored = 0;
      for (int i = 0; i < TOTAL_REQUESTS; i++) {
        RouteResult r = get(A, path, headers);
        assertThat(r.mirrors()).hasSize(1);
        if (r.mirrors().get(0).sends(random)) {
          mirrored++;
        }
      }
      double p = percent / 100.0;
      double margin = TOLERANCE_STD_DEVS * Math.sqrt(TOTAL_REQUESTS * p * (1 - p));
      assertThat((double) mirrored).as("mirrored of " + TOTAL_REQUESTS).isBetween(TOTAL_REQUESTS * p - margin,
          TOTAL_REQUESTS * p + margin);
    }

    @Test
    void percentMirror() {
      RouteResult r = get(A, "/percent-mirror", map());
      assertForwarded(r, "infra-backend-v1", "/percent-mirror", map());
      assertMirrored(r, NS_V2 + ":8080 20/100");
      assertDistribution("/percent-mirror", map(), 20);
    }

    @Test
    void percentMirrorFraction() {
      RouteResult r = get(A, "/percent-mirror-fraction", map());
      assertForwarded(r, "infra-backend-v1", "/percent-mirror-fraction", map());
      assertMirrored(r, NS_V2 + ":8080 25/50");
      assertDistribution("/percent-mirror-fraction", map(), 50);
    }

    @Test
    void percentMirrorAndModifyHeaders() {
      Map<String, String> sent = map("X-Header-Remove", "remove-val", "X-Header-Add-Append", "append-val-1");
      RouteResult r = get(A, "/percent-mirror-and-modify-headers", sent);
      assertForwarded(r, "infra-backend-v1", "/percent-mirror-and-modify-headers", map("X-Header-Add",
          "header-val-1", "X-Header-Add-Append", "append-val-1,header-val-2", "X-Header-Set",
          "set-overwrites-values"), "X-Header-Remove");
      assertMirrored(r, NS_V2 + ":8080 35/100");
      assertDistribution("/percent-mirror-and-modify-headers", sent, 35);
    }
  }

  /** httproute-cors.go / .yaml: the 17 cases in upstream's order. */
  @Nested
  final class CorsFilter {
    private static final GatewayAttachment A = attach(List.of(),
        sameNamespaceRoute("cors-multiple-origins-methods-headers", rule("/cors-1", List.of(HTTPRouteFilter.cors(
            new HTTPCORSFilter(List.of("https://www.foo.com", "https://*.bar.com"), true, List.of("GET", "OPTIONS"),
                List.of("x-header-1", "x-header-2"), List.of("x-header-3", "x-header-4"), 3600))),
            backend("infra-backend-v1"))),
        sameNamespaceRoute("cors-wildcard-methods", rule("/cors-2", List.of(HTTPRouteFilter.cors(
            new HTTPCORSFilter(List.of("https://www.foo.com"), false, List.of("*"), List.of(), List.of(),
                HTTPCORSFilter.DEFAULT_MAX_AGE))), backend("infra-backend-v1"))),
        sameNamespaceRoute("cors-wildcard-origin", rule("/cors-wildcard-origin", List.of(HTTPRouteFilter.cors(
            new HTTPCORSFilter(List.of("*"), false, List.of("PUT"), List.of(), List.of(),
                HTTPCORSFilter.DEFAULT_MAX_AGE))), backend("infra-backend-v1"))),
        sameNamespaceRoute("cors-wildcard-methods-headers",
            rule("/cors-wildcard-methods-headers", List.of(HTTPRouteFilter.cors(new HTTPCORSFilter(List.of("*"),
                true, List.of("*"), List.of("*"), List.of(), HTTPCORSFilter.DEFAULT_MAX_AGE))),
                backend("infra-backend-v1")),
            rule("/cors-wildcard-methods-headers-unauth", List.of(HTTPRouteFilter.cors(new HTTPCORSFilter(
                List.of("*"), false, List.of("*"), List.of("*"), List.of(), HTTPCORSFilter.DEFAULT_MAX_AGE))),
                backend("infra-backend-v1"))));

    private static final String ALLOW_ORIGIN = "access-control-allow-origin";
    private static final String ALLOW_METHODS = "access-control-allow-methods";
    private static final String ALLOW_HEADERS = "access-control-allow-headers";
    private static final String EXPOSE_HEADERS = "access-control-expose-headers";
    private static final String MAX_AGE = "access-control-max-age";
    private static final String ALLOW_CREDENTIALS = "access-control-allow-credentials";

    private static RouteResult request(String method, String path, String... headers) {
      return send(A, SAME, 80, method, HOST, path, map(headers));
    }

    private static RouteResult preflight(String path, String... headers) {
      return request("OPTIONS", path, headers);
    }

    /** Upstream's {@code Namespace: ""} for a preflight: the Gateway answers, nothing reaches a backend. */
    private static Map<String, String> answeredByGateway(RouteResult r, int... statuses) {
      assertThat(r.status()).as(r.message()).isIn(Arrays.stream(statuses).boxed().toArray());
      assertThat(r.forwarded()).as("a preflight is not forwarded").isNull();
      assertThat(r.cors()).isNotNull();
      assertThat(r.cors().preflight()).isTrue();
      return r.response(Map.of());
    }

    /**
     * Upstream's {@code Namespace: ns} for a simple request: the backend answers (status 200) and receives the
     * request unchanged; the CORS headers are added to its response.
     */
    private static Map<String, String> answeredByBackend(String method, String path, String... headers) {
      RouteResult r = request(method, path, headers);
      assertForwarded(r, "infra-backend-v1", path, map(headers));
      assertThat(r.forwarded().method()).isEqualTo(method);
      return r.response(Map.of());
    }

    /** Upstream's {@code ValidHeaderValues}, with {@code IgnoreWhitespace} when {@code ignoreWhitespace}. */
    private static void assertOneOf(Map<String, String> got, String name, boolean ignoreWhitespace,
        String... valid) {
      String v = got.get(name.toLowerCase(Locale.ROOT));
      assertThat(v).as(name).isNotNull();
      List<String> ok = Arrays.stream(valid).map(s -> ignoreWhitespace ? s.replaceAll("\\s", "") : s).toList();
      assertThat(ignoreWhitespace ? v.replaceAll("\\s", "") : v).as(name).isIn(ok);
    }

    private static void assertAbsent(Map<String, String> got, String... names) {
      for (String n : names) {
        assertThat(got).as("response headers").doesNotContainKey(n.toLowerCase(Locale.ROOT));
      }
    }

    @Test
    void accepted() {
      for (String route : List.of("cors-multiple-origins-methods-headers", "cors-wildcard-methods",
          "cors-wildcard-origin", "cors-wildcard-methods-headers")) {
        assertAccepted(A, SAME, route);
      }
    }

    /** Cases 1 to 3: preflights from an exact origin, a wildcard origin, and one with more labels left of it. */
    @ParameterizedTest(name = "{0}")
    @CsvSource({"https://www.foo.com, 200|204", "https://www.bar.com, 200", "https://xpto.www.bar.com, 200"})
    void preflight_allowedOrigin_allHeaders(String origin, String statuses) {
      Map<String, String> h = answeredByGateway(preflight("/cors-1", "Origin", origin,
          "access-control-request-method", "GET", "access-control-request-headers", "x-header-1, x-header-2"),
          Arrays.stream(statuses.split("\\|")).mapToInt(Integer::parseInt).toArray());
      assertOneOf(h, ALLOW_ORIGIN, true, origin);
      assertOneOf(h, ALLOW_METHODS, true, "GET, OPTIONS", "OPTIONS, GET");
      assertOneOf(h, ALLOW_HEADERS, true, "x-header-1, x-header-2", "x-header-2, x-header-1");
      assertOneOf(h, EXPOSE_HEADERS, true, "x-header-3, x-header-4", "x-header-4, x-header-3");
      assertOneOf(h, MAX_AGE, true, "3600");
      assertOneOf(h, ALLOW_CREDENTIALS, true, "true");
    }

    /** Case 4. */
    @Test
    void preflight_nonMatchingOrigin_noAllowOrigin() {
      Map<String, String> h = answeredByGateway(preflight("/cors-1", "Origin", "https://foobar.com",
          "access-control-request-method", "GET"), 200, 204, 403);
      assertAbsent(h, ALLOW_ORIGIN);
    }

    /** Cases 5 and 6: simple requests from an exact and a wildcard-matched origin. */
    @ParameterizedTest(name = "{0}")
    @CsvSource({"https://www.foo.com", "https://www.bar.com"})
    void simple_allowedOrigin_allowOrigin(String origin) {
      Map<String, String> h = answeredByBackend("GET", "/cors-1", "Origin", origin,
          "access-control-request-method", "GET", "access-control-request-headers", "x-header-1, x-header-2");
      assertThat(h).containsEntry(ALLOW_ORIGIN, origin);
    }

    /** Case 7. */
    @Test
    void simple_nonMatchingOrigin_noAllowOrigin() {
      Map<String, String> h = answeredByBackend("GET", "/cors-1", "Origin", "https://foobar.com",
          "access-control-request-method", "GET");
      assertAbsent(h, ALLOW_ORIGIN);
    }

    /** Cases 8 and 9 (the same request, with upstream's two sets of expectations). */
    @Test
    void preflight_wildcardMethods_postAllowedWithoutCredentials() {
      RouteResult r = preflight("/cors-2", "Origin", "https://www.foo.com", "access-control-request-method", "POST");
      Map<String, String> h = answeredByGateway(r, 200, 204);
      assertOneOf(h, ALLOW_METHODS, false, "POST", "*");
      assertThat(h).containsEntry(ALLOW_ORIGIN, "https://www.foo.com");
      assertAbsent(h, ALLOW_CREDENTIALS);
      assertAbsent(answeredByGateway(r, 200, 204), "Access-Control-Allow-Credentials");
    }

    /** Cases 10 and 11: preflights from any origin, without and with a port. */
    @ParameterizedTest(name = "{0}")
    @CsvSource({"https://foobar.com", "https://foobar.com:12345"})
    void preflight_wildcardOrigin_originOrStar(String origin) {
      Map<String, String> h = answeredByGateway(preflight("/cors-wildcard-origin", "Origin", origin,
          "access-control-request-method", "PUT"), 200, 204);
      assertOneOf(h, ALLOW_ORIGIN, false, origin, "*");
      assertOneOf(h, ALLOW_METHODS, false, "PUT");
      assertAbsent(h, "Access-Control-Allow-Credentials");
    }

    /** Case 12: a PUT from an origin with a port. */
    @Test
    void simple_wildcardOriginWithPort_originOrStar() {
      Map<String, String> h = answeredByBackend("PUT", "/cors-wildcard-origin", "Origin",
          "https://foobar.com:12345");
      assertOneOf(h, ALLOW_ORIGIN, false, "https://foobar.com:12345", "*");
    }

    /** Case 13. */
    @Test
    void simple_wildcardOrigin_originOrStar() {
      Map<String, String> h = answeredByBackend("PUT", "/cors-wildcard-origin", "Origin",
          "https://foobar.com");
      assertOneOf(h, ALLOW_ORIGIN, false, "https://foobar.com", "*");
      assertAbsent(h, "Access-Control-Allow-Credentials");
    }

    /** Case 14: with credentials every wildcard is answered with what was asked for. */
    @Test
    void preflight_wildcardsWithCredentials_echoesRequest() {
      Map<String, String> h = answeredByGateway(preflight("/cors-wildcard-methods-headers", "Origin",
          "https://other.foo.com", "access-control-request-method", "PUT", "access-control-request-headers",
          "x-header-1, x-header-2"), 200);
      assertOneOf(h, ALLOW_ORIGIN, true, "https://other.foo.com");
      assertOneOf(h, ALLOW_METHODS, true, "PUT");
      assertOneOf(h, ALLOW_HEADERS, true, "x-header-1, x-header-2", "x-header-2, x-header-1");
      assertOneOf(h, ALLOW_CREDENTIALS, true, "true");
    }

    /** Case 15. */
    @Test
    void preflight_wildcardsWithoutCredentials_noCredentialsHeader() {
      Map<String, String> h = answeredByGateway(preflight("/cors-wildcard-methods-headers-unauth", "Origin",
          "https://other.foo.com", "access-control-request-method", "PUT", "access-control-request-headers",
          "x-header-1, x-header-2"), 200);
      assertOneOf(h, ALLOW_ORIGIN, true, "https://other.foo.com", "*");
      assertOneOf(h, ALLOW_METHODS, true, "PUT", "*");
      assertOneOf(h, ALLOW_HEADERS, true, "x-header-1, x-header-2", "x-header-2, x-header-1", "*");
      assertAbsent(h, ALLOW_CREDENTIALS);
    }

    /** Cases 16 and 17: a GET with an Authorization header on the credentials route and on the other. */
    @Test
    void simple_withCredentials_echoesOriginAndCredentials() {
      Map<String, String> h = answeredByBackend("GET", "/cors-wildcard-methods-headers", "Origin",
          "https://other.foo.com", "Authorization", "Bearer test");
      assertOneOf(h, ALLOW_ORIGIN, false, "https://other.foo.com");
      assertOneOf(h, ALLOW_CREDENTIALS, false, "true");
    }

    @Test
    void simple_unauthRoute_noCredentialsHeader() {
      Map<String, String> h = answeredByBackend("GET", "/cors-wildcard-methods-headers-unauth", "Origin",
          "https://other.foo.com", "Authorization", "Bearer test");
      assertOneOf(h, ALLOW_ORIGIN, false, "https://other.foo.com");
      assertAbsent(h, ALLOW_CREDENTIALS);
    }
  }

  /** httproute-named-rule.go / .yaml (upstream marks it provisional). */
  @Nested
  final class NamedRule {
    private static final GatewayAttachment A = attach(List.of(), sameNamespaceRoute("http-named-rules",
        GatewayFixtures.rule("/named", backend("infra-backend-v1")).withName("named-rule"),
        GatewayFixtures.rule("/unnamed", backend("infra-backend-v2"))));

    @Test
    void accepted() {
      assertAccepted(A, SAME, "http-named-rules");
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({"/named, infra-backend-v1", "/unnamed, infra-backend-v2"})
    void routed(String path, String backend) {
      RouteResult r = get(A, path, map());
      assertForwarded(r, backend, path, map());
      assertThat(r.message()).contains(path.equals("/named") ? "rule 0 (named-rule) match 0" : "rule 1 match 0");
    }
  }

  /**
   * The status of upstream's timeout cases: the echo backend takes the {@code delay} query parameter (a Go duration
   * such as {@code 1s}; none is immediate) to answer.
   */
  private static int statusAfterDelay(GatewayAttachment a, String target) {
    RouteResult r = get(a, target, map());
    String delay = r.forwarded() == null ? null : r.forwarded().queryParam("delay");
    Duration latency = delay == null ? Duration.ZERO : HTTPRouteTimeouts.parse(delay);
    assertThat(latency).isNotNull();
    return r.statusWhenBackendTakes(latency);
  }

  /** httproute-timeout-request.go / .yaml. */
  @Nested
  final class TimeoutRequest {
    private static final GatewayAttachment A = attach(List.of(), sameNamespaceRoute("request-timeout",
        GatewayFixtures.rule("/request-timeout", backend("infra-backend-v1"))
            .withTimeouts(new HTTPRouteTimeouts("500ms", null)),
        GatewayFixtures.rule("/disable-request-timeout", backend("infra-backend-v1"))
            .withTimeouts(new HTTPRouteTimeouts("0s", null))));

    @Test
    void accepted() {
      assertAccepted(A, SAME, "request-timeout");
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({"/request-timeout, 200", "/request-timeout?delay=1s, 504", "/disable-request-timeout?delay=1s, 200"})
    void status(String target, int expected) {
      assertThat(statusAfterDelay(A, target)).isEqualTo(expected);
    }
  }

  /** httproute-timeout-backend-request.go / .yaml. */
  @Nested
  final class TimeoutBackendRequest {
    private static final GatewayAttachment A = attach(List.of(), sameNamespaceRoute("backend-request-timeout",
        GatewayFixtures.rule("/backend-timeout", backend("infra-backend-v1"))
            .withTimeouts(new HTTPRouteTimeouts(null, "500ms")),
        GatewayFixtures.rule("/disable-backend-timeout", backend("infra-backend-v1"))
            .withTimeouts(new HTTPRouteTimeouts(null, "0s"))));

    @Test
    void accepted() {
      assertAccepted(A, SAME, "backend-request-timeout");
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({"/backend-timeout, 200", "/backend-timeout?delay=1s, 504", "/disable-backend-timeout?delay=1s, 200"})
    void status(String target, int expected) {
      assertThat(statusAfterDelay(A, target)).isEqualTo(expected);
    }
  }
}
