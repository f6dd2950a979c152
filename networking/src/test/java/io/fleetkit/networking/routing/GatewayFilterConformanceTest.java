package io.fleetkit.networking.routing;

import static io.fleetkit.networking.routing.GatewayFixtures.INFRA;
import static io.fleetkit.networking.routing.GatewayFixtures.attach;
import static io.fleetkit.networking.routing.GatewayFixtures.backend;
import static io.fleetkit.networking.routing.GatewayFixtures.gateway;
import static io.fleetkit.networking.routing.GatewayFixtures.http;
import static io.fleetkit.networking.routing.GatewayFixtures.parent;
import static io.fleetkit.networking.routing.GatewayFixtures.route;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.gateway.AllowedRoutes;
import io.fleetkit.api.gateway.FromNamespaces;
import io.fleetkit.api.gateway.HTTPBackendRef;
import io.fleetkit.api.gateway.HTTPHeader;
import io.fleetkit.api.gateway.HTTPHeaderFilter;
import io.fleetkit.api.gateway.HTTPPathModifier;
import io.fleetkit.api.gateway.HTTPRequestRedirectFilter;
import io.fleetkit.api.gateway.HTTPRoute;
import io.fleetkit.api.gateway.HTTPRouteFilter;
import io.fleetkit.api.gateway.HTTPRouteMatch;
import io.fleetkit.api.gateway.HTTPRouteRule;
import io.fleetkit.api.gateway.HTTPURLRewriteFilter;
import io.fleetkit.api.gateway.Listener;
import io.fleetkit.api.gateway.PathMatchType;
import io.fleetkit.api.gateway.SecretObjectReference;
import io.fleetkit.networking.gateway.Conditions;
import io.fleetkit.networking.gateway.GatewayAttachment;
import io.fleetkit.networking.gateway.RouteParent;
import io.fleetkit.networking.gateway.TestCertificates;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The HTTPRoute filter cases of kubernetes-sigs/gateway-api {@code conformance/tests/*.go} with the objects of their
 * {@code .yaml} files (and {@code conformance/base/manifests.yaml}, see {@link GatewayFixtures}); each nested class
 * names its upstream file. Each case sends upstream's request and asserts upstream's expectations: the backend and
 * the request it receives (path, Host, headers present with their values, headers absent), the response headers
 * after the filter (the backend's response headers as upstream's echo server is told to set them), or the redirect
 * (status code and {@code Location}; where upstream leaves a part unchecked, the Location still has to be the exact
 * one the API defines). Every test also checks upstream's preconditions: the routes Accepted with ResolvedRefs.
 * Requests reach the Gateway on the listener's port with host {@value #HOST} unless upstream sets one.
 */
final class GatewayFilterConformanceTest {
  static final String HOST = "gw.example";
  static final String SAME = "same-namespace";

  // --- building the upstream objects ------------------------------------------------------------------------------

  static HTTPRouteRule rule(@Nullable String pathPrefix, List<HTTPRouteFilter> filters,
      HTTPBackendRef... backends) {
    List<HTTPRouteMatch> m = pathPrefix == null ? List.of()
        : List.of(HTTPRouteMatch.path(PathMatchType.PathPrefix, pathPrefix));
    return new HTTPRouteRule(m, List.of(backends), filters);
  }

  static HTTPRoute sameNamespaceRoute(String name, HTTPRouteRule... rules) {
    return route(INFRA, name, List.of(parent(SAME)), List.of(), rules);
  }

  static List<HTTPHeader> headers(String... nameValues) {
    HTTPHeader[] out = new HTTPHeader[nameValues.length / 2];
    for (int i = 0; i < out.length; i++) {
      out[i] = HTTPHeader.of(nameValues[2 * i], nameValues[2 * i + 1]);
    }
    return List.of(out);
  }

  static HTTPHeaderFilter modifier(List<HTTPHeader> set, List<HTTPHeader> add, String... remove) {
    return new HTTPHeaderFilter(set, add, Arrays.asList(remove));
  }

  static HTTPRouteFilter requestHeaders(List<HTTPHeader> set, List<HTTPHeader> add, String... remove) {
    return HTTPRouteFilter.requestHeaderModifier(modifier(set, add, remove));
  }

  static HTTPRouteFilter responseHeaders(List<HTTPHeader> set, List<HTTPHeader> add, String... remove) {
    return HTTPRouteFilter.responseHeaderModifier(modifier(set, add, remove));
  }

  static HTTPRouteFilter redirect(@Nullable String scheme, @Nullable String hostname,
      @Nullable HTTPPathModifier path, @Nullable Integer port, @Nullable Integer statusCode) {
    return HTTPRouteFilter.requestRedirect(new HTTPRequestRedirectFilter(scheme, hostname, path, port,
        statusCode == null ? HTTPRequestRedirectFilter.DEFAULT_STATUS_CODE : statusCode));
  }

  static HTTPRouteFilter rewrite(@Nullable String hostname, @Nullable HTTPPathModifier path) {
    return HTTPRouteFilter.urlRewrite(new HTTPURLRewriteFilter(hostname, path));
  }

  /** {@code name: value} pairs in order. */
  static Map<String, String> map(String... nameValues) {
    Map<String, String> m = new LinkedHashMap<>();
    for (int i = 0; i < nameValues.length; i += 2) {
      m.put(nameValues[i], nameValues[i + 1]);
    }
    return m;
  }

  // --- sending requests and checking upstream's expectations ------------------------------------------------------

  static RouteResult send(GatewayAttachment a, String gateway, int port, String method, String host,
      String path, Map<String, String> headers) {
    return new GatewayRouter(a).route(INFRA + "/" + gateway, port, HttpRequest.of(method, host, path, headers));
  }

  static RouteResult get(GatewayAttachment a, String path, Map<String, String> headers) {
    return send(a, SAME, 80, "GET", HOST, path, headers);
  }

  /** Upstream's {@code Backend} and {@code ExpectedRequest}: path, headers with values, absent headers. */
  static void assertForwarded(RouteResult r, String backend, String path, Map<String, String> present,
      String... absent) {
    assertThat(r.status()).as(r.message()).isEqualTo(200);
    assertThat(r.service()).isEqualTo(INFRA + "/" + backend);
    assertThat(r.redirect()).isNull();
    HttpRequest got = r.forwarded();
    assertThat(got).isNotNull();
    assertThat(got.path()).isEqualTo(path);
    present.forEach((k, v) -> assertThat(got.header(k)).as("request header " + k).isEqualTo(v));
    for (String h : absent) {
      assertThat(got.header(h)).as("request header " + h).isNull();
    }
  }

  /** Upstream's {@code Response.Headers} and {@code Response.AbsentHeaders}, names case-insensitive. */
  static void assertResponseHeaders(RouteResult r, Map<String, String> backendSet,
      Map<String, String> present, String... absent) {
    Map<String, String> got = r.responseHeaders().apply(backendSet);
    present.forEach((k, v) -> assertThat(got.get(k.toLowerCase(Locale.ROOT))).as("response header " + k)
        .isEqualTo(v));
    for (String h : absent) {
      assertThat(got).as("response headers").doesNotContainKey(h.toLowerCase(Locale.ROOT));
    }
  }

  /** Upstream's {@code Response.StatusCode} and {@code RedirectRequest}, as the whole Location. */
  static void assertRedirect(RouteResult r, int status, String location) {
    assertThat(r.status()).as(r.message()).isEqualTo(status);
    assertThat(r.redirect()).isNotNull();
    assertThat(r.redirect().statusCode()).isEqualTo(status);
    assertThat(r.redirect().location()).isEqualTo(location);
    assertThat(r.service()).isNull();
    assertThat(r.forwarded()).isNull();
  }

  /** {@code GatewayAndHTTPRoutesMustBeAccepted} and {@code HTTPRouteMustHaveResolvedRefsConditionsTrue}. */
  static void assertAccepted(GatewayAttachment a, String gateway, String route) {
    List<RouteParent> parents = a.route(INFRA + "/" + route);
    assertThat(parents).as(route).isNotEmpty();
    for (RouteParent p : parents) {
      assertThat(p.gateway()).isEqualTo(INFRA + "/" + gateway);
      assertThat(p.accepted()).as(p.toString()).isTrue();
      assertThat(p.status().condition(Conditions.RESOLVED_REFS).isTrue()).as(p.toString()).isTrue();
    }
  }

  /** httproute-request-header-modifier.go / .yaml. */
  @Nested
  final class RequestHeaderModifier {
    private static final GatewayAttachment A = attach(List.of(), sameNamespaceRoute("request-header-modifier",
        rule("/set", List.of(requestHeaders(headers("X-Header-Set", "set-overwrites-values"), List.of())),
            backend("infra-backend-v1")),
        rule("/add", List.of(requestHeaders(List.of(), headers("X-Header-Add", "add-appends-values"))),
            backend("infra-backend-v1")),
        rule("/remove", List.of(requestHeaders(List.of(), List.of(), "X-Header-Remove")),
            backend("infra-backend-v1")),
        rule("/multiple", List.of(requestHeaders(headers("X-Header-Set-1", "header-set-1", "X-Header-Set-2",
            "header-set-2"), headers("X-Header-Add-1", "header-add-1", "X-Header-Add-2", "header-add-2",
            "X-Header-Add-3", "header-add-3"), "X-Header-Remove-1", "X-Header-Remove-2")),
            backend("infra-backend-v1")),
        rule("/case-insensitivity", List.of(requestHeaders(headers("X-Header-Set", "header-set"),
            headers("X-Header-Add", "header-add"), "X-Header-Remove")), backend("infra-backend-v1"))));

    @Test
    void accepted() {
      assertAccepted(A, SAME, "request-header-modifier");
    }

    @Test
    void set_addsHeader() {
      assertForwarded(get(A, "/set", map("Some-Other-Header", "val")), "infra-backend-v1", "/set",
          map("Some-Other-Header", "val", "X-Header-Set", "set-overwrites-values"));
    }

    @Test
    void set_overwritesValue() {
      assertForwarded(get(A, "/set", map("Some-Other-Header", "val", "X-Header-Set", "some-other-value")),
          "infra-backend-v1", "/set", map("Some-Other-Header", "val", "X-Header-Set", "set-overwrites-values"));
    }

    @Test
    void add_addsHeader() {
      assertForwarded(get(A, "/add", map("Some-Other-Header", "val")), "infra-backend-v1", "/add",
          map("Some-Other-Header", "val", "X-Header-Add", "add-appends-values"));
    }

    @Test
    void add_appendsValue() {
      assertForwarded(get(A, "/add", map("Some-Other-Header", "val", "X-Header-Add", "some-other-value")),
          "infra-backend-v1", "/add", map("Some-Other-Header", "val", "X-Header-Add",
              "some-other-value,add-appends-values"));
    }

    @Test
    void remove_removesHeader() {
      assertForwarded(get(A, "/remove", map("X-Header-Remove", "val")), "infra-backend-v1", "/remove", map(),
          "X-Header-Remove");
    }

    @Test
    void multiple_setAddRemoveTogether() {
      assertForwarded(get(A, "/multiple", map("X-Header-Set-2", "set-val-2", "X-Header-Add-2", "add-val-2",
              "X-Header-Remove-2", "remove-val-2", "Another-Header", "another-header-val")),
          "infra-backend-v1", "/multiple", map("X-Header-Set-1", "header-set-1", "X-Header-Set-2", "header-set-2",
              "X-Header-Add-1", "header-add-1", "X-Header-Add-2", "add-val-2,header-add-2", "X-Header-Add-3",
              "header-add-3", "Another-Header", "another-header-val"),
          "X-Header-Remove-1", "X-Header-Remove-2");
    }

    @Test
    void caseInsensitivity_canonicalFilterNames_lowercaseRequestNames() {
      assertForwarded(get(A, "/case-insensitivity", map("x-header-set", "original-val-set", "x-header-add",
              "original-val-add", "x-header-remove", "original-val-remove", "Another-Header", "another-header-val")),
          "infra-backend-v1", "/case-insensitivity", map("X-Header-Set", "header-set", "X-Header-Add",
              "original-val-add,header-add", "Another-Header", "another-header-val"),
          "x-header-remove", "X-Header-Remove");
    }
  }

  /** httproute-response-header-modifier.go / .yaml. */
  @Nested
  final class ResponseHeaderModifier {
    private static final GatewayAttachment A = attach(List.of(), sameNamespaceRoute("response-header-modifier",
        rule("/set", List.of(responseHeaders(headers("X-Header-Set", "set-overwrites-values"), List.of())),
            backend("infra-backend-v1")),
        rule("/add", List.of(responseHeaders(List.of(), headers("X-Header-Add", "add-appends-values"))),
            backend("infra-backend-v1")),
        rule("/remove", List.of(responseHeaders(List.of(), List.of(), "X-Header-Remove")),
            backend("infra-backend-v1")),
        rule("/multiple", List.of(responseHeaders(headers("X-Header-Set-1", "header-set-1", "X-Header-Set-2",
            "header-set-2"), headers("X-Header-Add-1", "header-add-1", "X-Header-Add-2", "header-add-2",
            "X-Header-Add-3", "header-add-3"), "X-Header-Remove-1", "X-Header-Remove-2")),
            backend("infra-backend-v1")),
        rule("/case-insensitivity", List.of(responseHeaders(headers("X-Header-Set", "header-set"),
            headers("X-Header-Add", "header-add", "x-lowercase-add", "lowercase-add", "x-Mixedcase-ADD-1",
                "mixedcase-add-1", "X-mixeDcase-add-2", "mixedcase-add-2", "X-UPPERCASE-ADD", "uppercase-add"),
            "X-Header-Remove")), backend("infra-backend-v1")),
        rule("/response-and-request-header-modifiers", List.of(
            responseHeaders(headers("X-Header-Set-1", "header-set-1", "X-Header-Set-2", "header-set-2"),
                headers("X-Header-Add-1", "header-add-1", "X-Header-Add-2", "header-add-2"), "X-Header-Remove-1",
                "X-Header-Remove-2"),
            requestHeaders(headers("X-Header-Set", "set-overwrites-values"), headers("X-Header-Add",
                "header-val-1", "X-Header-Add-Append", "header-val-2"), "X-Header-Remove")),
            backend("infra-backend-v1"))));

    private static RouteResult forwardedTo(String path) {
      RouteResult r = get(A, path, map());
      assertForwarded(r, "infra-backend-v1", path, map());
      return r;
    }

    @Test
    void accepted() {
      assertAccepted(A, SAME, "response-header-modifier");
    }

    @Test
    void set_addsHeader() {
      assertResponseHeaders(forwardedTo("/set"), map("Some-Other-Header", "val"),
          map("Some-Other-Header", "val", "X-Header-Set", "set-overwrites-values"));
    }

    @Test
    void set_overwritesValue() {
      assertResponseHeaders(forwardedTo("/set"), map("Some-Other-Header", "val", "X-Header-Set", "some-other-value"),
          map("Some-Other-Header", "val", "X-Header-Set", "set-overwrites-values"));
    }

    @Test
    void add_addsHeader() {
      assertResponseHeaders(forwardedTo("/add"), map("Some-Other-Header", "val"),
          map("Some-Other-Header", "val", "X-Header-Add", "add-appends-values"));
    }

    @Test
    void add_appendsValue() {
      assertResponseHeaders(forwardedTo("/add"), map("Some-Other-Header", "val", "X-Header-Add", "some-other-value"),
          map("Some-Other-Header", "val", "X-Header-Add", "some-other-value,add-appends-values"));
    }

    @Test
    void remove_removesHeader() {
      assertResponseHeaders(forwardedTo("/remove"), map("X-Header-Remove", "val"), map(), "X-Header-Remove");
    }

    @Test
    void multiple_setAddRemoveTogether() {
      assertResponseHeaders(forwardedTo("/multiple"), map("X-Header-Set-2", "set-val-2", "X-Header-Add-2",
              "add-val-2", "X-Header-Remove-2", "remove-val-2", "Another-Header", "another-header-val",
              "X-Header-Remove-1", "val"),
          map("X-Header-Set-1", "header-set-1", "X-Header-Set-2", "header-set-2", "X-Header-Add-1", "header-add-1",
              "X-Header-Add-2", "add-val-2,header-add-2", "X-Header-Add-3", "header-add-3", "Another-Header",
              "another-header-val"),
          "X-Header-Remove-1", "X-Header-Remove-2");
    }

    @Test
    void caseInsensitivity() {
      assertResponseHeaders(forwardedTo("/case-insensitivity"), map("x-header-set", "original-val-set",
              "x-header-add", "original-val-add", "x-header-remove", "original-val-remove", "Another-Header",
              "another-header-val"),
          map("X-Header-Set", "header-set", "X-Header-Add", "original-val-add,header-add", "X-Lowercase-Add",
              "lowercase-add", "X-Mixedcase-Add-1", "mixedcase-add-1", "X-Mixedcase-Add-2", "mixedcase-add-2",
              "X-Uppercase-Add", "uppercase-add", "Another-Header", "another-header-val"),
          "x-header-remove", "X-Header-Remove");
    }

    @Test
    void responseAndRequestHeaderModifiers_bothApplied() {
      String path = "/response-and-request-header-modifiers";
      RouteResult r = get(A, path, map("X-Header-Remove", "remove-val", "X-Header-Add-Append", "append-val-1",
          "X-Header-Echo", "echo"));
      assertForwarded(r, "infra-backend-v1", path, map("X-Header-Add", "header-val-1", "X-Header-Set",
          "set-overwrites-values", "X-Header-Add-Append", "append-val-1,header-val-2", "X-Header-Echo", "echo"),
          "X-Header-Remove");
      assertResponseHeaders(r, map("X-Header-Set-2", "set-val-2", "X-Header-Add-2", "add-val-2",
              "X-Header-Remove-2", "remove-val-2", "Another-Header", "another-header-val", "X-Header-Remove-1",
              "remove-val-1", "X-Header-Echo", "echo"),
          map("X-Header-Set-1", "header-set-1", "X-Header-Set-2", "header-set-2", "X-Header-Add-1", "header-add-1",
              "X-Header-Add-2", "add-val-2,header-add-2", "Another-Header", "another-header-val", "X-Header-Echo",
              "echo"),
          "X-Header-Remove-1", "X-Header-Remove-2");
    }
  }

  /** httproute-redirect-host-and-status.go / .yaml. */
  @Nested
  final class RedirectHostAndStatus {
    private static final GatewayAttachment A = attach(List.of(), sameNamespaceRoute("redirect-host-and-status",
        rule("/hostname-redirect", List.of(redirect(null, "example.org", null, null, null))),
        rule("/host-and-status", List.of(redirect(null, "example.org", null, null, 301)))));

    @Test
    void accepted() {
      assertAccepted(A, SAME, "redirect-host-and-status");
    }

    @ParameterizedTest(name = "{0} -> {1} {2}")
    @CsvSource({"/hostname-redirect, 302, http://example.org/hostname-redirect",
        "/host-and-status, 301, http://example.org/host-and-status"})
    void redirects(String path, int status, String location) {
      assertRedirect(get(A, path, map()), status, location);
    }
  }

  /** httproute-redirect-path.go / .yaml. */
  @Nested
  final class RedirectPath {
    private static final GatewayAttachment A = attach(List.of(), sameNamespaceRoute("redirect-path",
        rule("/original-prefix", List.of(redirect(null, null, HTTPPathModifier.replacePrefixMatch(
            "/replacement-prefix"), null, null))),
        rule("/full", List.of(redirect(null, null, HTTPPathModifier.replaceFullPath("/full-path-replacement"), null,
            null))),
        rule("/path-and-host", List.of(redirect(null, "example.org", HTTPPathModifier.replacePrefixMatch(
            "/replacement-prefix"), null, null))),
        rule("/path-and-status", List.of(redirect(null, null, HTTPPathModifier.replacePrefixMatch(
            "/replacement-prefix"), null, 301))),
        rule("/full-path-and-host", List.of(redirect(null, "example.org", HTTPPathModifier.replaceFullPath(
            "/replacement-full"), null, null))),
        rule("/full-path-and-status", List.of(redirect(null, null, HTTPPathModifier.replaceFullPath(
            "/replacement-full"), null, 301)))));

    @Test
    void accepted() {
      assertAccepted(A, SAME, "redirect-path");
    }

    @ParameterizedTest(name = "{0} -> {1} {2}")
    @CsvSource({"/original-prefix/lemon, 302, http://gw.example/replacement-prefix/lemon",
        "/full/path/original, 302, http://gw.example/full-path-replacement",
        "/path-and-host, 302, http://example.org/replacement-prefix",
        "/path-and-status, 301, http://gw.example/replacement-prefix",
        "/full-path-and-host, 302, http://example.org/replacement-full",
        "/full-path-and-status, 301, http://gw.example/replacement-full"})
    void redirects(String path, int status, String location) {
      assertRedirect(get(A, path, map()), status, location);
    }
  }

  /** httproute-redirect-port.go / .yaml. */
  @Nested
  final class RedirectPort {
    private static final GatewayAttachment A = attach(List.of(), sameNamespaceRoute("redirect-port",
        rule("/port", List.of(redirect(null, null, null, 8083, null))),
        rule("/port-and-host", List.of(redirect(null, "example.org", null, 8083, null))),
        rule("/port-and-status", List.of(redirect(null, null, null, 8083, 301))),
        rule("/port-and-host-and-status", List.of(redirect(null, "example.org", null, 8083, 302)))));

    @Test
    void accepted() {
      assertAccepted(A, SAME, "redirect-port");
    }

    @ParameterizedTest(name = "{0} -> {1} {2}")
    @CsvSource({"/port, 302, http://gw.example:8083/port",
        "/port-and-host, 302, http://example.org:8083/port-and-host",
        "/port-and-status, 301, http://gw.example:8083/port-and-status",
        "/port-and-host-and-status, 302, http://example.org:8083/port-and-host-and-status"})
    void redirects(String path, int status, String location) {
      assertRedirect(get(A, path, map()), status, location);
    }
  }

  /** httproute-redirect-scheme.go / .yaml. */
  @Nested
  final class RedirectScheme {
    private static final GatewayAttachment A = attach(List.of(), sameNamespaceRoute("redirect-scheme",
        rule("/scheme", List.of(redirect("https", null, null, null, null))),
        rule("/scheme-and-host", List.of(redirect("https", "example.org", null, null, null))),
        rule("/scheme-and-status", List.of(redirect("https", null, null, null, 301))),
        rule("/scheme-and-host-and-status", List.of(redirect("https", "example.org", null, null, 302)))));

    @Test
    void accepted() {
      assertAccepted(A, SAME, "redirect-scheme");
    }

    @ParameterizedTest(name = "{0} -> {1} {2}")
    @CsvSource({"/scheme, 302, https://gw.example/scheme",
        "/scheme-and-host, 302, https://example.org/scheme-and-host",
        "/scheme-and-status, 301, https://gw.example/scheme-and-status",
        "/scheme-and-host-and-status, 302, https://example.org/scheme-and-host-and-status"})
    void redirects(String path, int status, String location) {
      assertRedirect(get(A, path, map()), status, location);
    }
  }

  /**
   * httproute-redirect-port-and-scheme.go / .yaml: the redirect port defaults to the listener's port without a
   * scheme, to the scheme's well-known port with one, and is left out of the Location when well-known for the scheme.
   * The HTTPS Gateway is {@code same-namespace-with-https-listener} of {@code conformance/base/manifests.yaml}.
   */
  @Nested
  final class RedirectPortAndScheme {
    private static final String GW_8080 = "same-namespace-with-http-listener-on-8080";
    private static final String GW_443 = "same-namespace-with-https-listener";
    private static final String CERT = "tls-validity-checks-certificate";

    private static Listener https(String name, String hostname) {
      return new Listener(name, hostname, 443, "HTTPS", new AllowedRoutes(FromNamespaces.Same, null, List.of()),
          List.of(SecretObjectReference.secret(CERT)));
    }

    private static HTTPRoute route(String name, String gateway, HTTPRouteRule... rules) {
      return GatewayFixtures.route(INFRA, name, List.of(parent(gateway)), List.of(), rules);
    }

    private static final GatewayAttachment A = attach(
        List.of(gateway(GW_8080, http("http", 8080, "", FromNamespaces.Same)),
            gateway(GW_443, https("https", ""), https("https-with-hostname", "second-example.org"),
                https("https-with-wildcard-hostname", "*.wildcard.org"))),
        List.of(route("http-route-for-listener-on-port-80", SAME,
                rule("/scheme-nil-and-port-nil", List.of(redirect(null, "example.org", null, null, null))),
                rule("/scheme-nil-and-port-80", List.of(redirect(null, "example.org", null, 80, null))),
                rule("/scheme-nil-and-port-8080", List.of(redirect(null, "example.org", null, 8080, null))),
                rule("/scheme-https-and-port-nil", List.of(redirect("https", "example.org", null, null, null))),
                rule("/scheme-https-and-port-443", List.of(redirect("https", "example.org", null, 443, null))),
                rule("/scheme-https-and-port-8443", List.of(redirect("https", "example.org", null, 8443, null)))),
            route("http-route-for-listener-on-port-8080", GW_8080,
                rule("/scheme-nil-and-port-nil", List.of(redirect(null, "example.org", null, null, null))),
                rule("/scheme-nil-and-port-80", List.of(redirect(null, "example.org", null, 80, null))),
                rule("/scheme-https-and-port-nil", List.of(redirect("https", "example.org", null, null, null)))),
            route("http-route-for-listener-on-port-443", GW_443,
                rule("/scheme-nil-and-port-nil", List.of(redirect(null, "example.org", null, null, null))),
                rule("/scheme-nil-and-port-443", List.of(redirect(null, "example.org", null, 443, null))),
                rule("/scheme-nil-and-port-8443", List.of(redirect(null, "example.org", null, 8443, null))),
                rule("/scheme-http-and-port-nil", List.of(redirect("http", "example.org", null, null, null))),
                rule("/scheme-http-and-port-80", List.of(redirect("http", "example.org", null, 80, null))),
                rule("/scheme-http-and-port-8080", List.of(redirect("http", "example.org", null, 8080, null))))),
        List.of(), List.of(TestCertificates.tls(INFRA, CERT)));

    @Test
    void accepted() {
      assertAccepted(A, SAME, "http-route-for-listener-on-port-80");
      assertAccepted(A, GW_8080, "http-route-for-listener-on-port-8080");
      assertAccepted(A, GW_443, "http-route-for-listener-on-port-443");
    }

    @ParameterizedTest(name = "port 80 {0} -> {1}")
    @CsvSource({"/scheme-nil-and-port-nil, http://example.org/scheme-nil-and-port-nil",
        "/scheme-nil-and-port-80, http://example.org/scheme-nil-and-port-80",
        "/scheme-nil-and-port-8080, http://example.org:8080/scheme-nil-and-port-8080",
        "/scheme-https-and-port-nil, https://example.org/scheme-https-and-port-nil",
        "/scheme-https-and-port-443, https://example.org/scheme-https-and-port-443",
        "/scheme-https-and-port-8443, https://example.org:8443/scheme-https-and-port-8443"})
    void listenerOnPort80(String path, String location) {
      assertRedirect(send(A, SAME, 80, "GET", HOST, path, map()), 302, location);
    }

    @ParameterizedTest(name = "port 8080 {0} -> {1}")
    @CsvSource({"/scheme-nil-and-port-nil, http://example.org:8080/scheme-nil-and-port-nil",
        "/scheme-nil-and-port-80, http://example.org/scheme-nil-and-port-80",
        "/scheme-https-and-port-nil, https://example.org/scheme-https-and-port-nil"})
    void listenerOnPort8080(String path, String location) {
      assertRedirect(send(A, GW_8080, 8080, "GET", HOST, path, map()), 302, location);
    }

    @ParameterizedTest(name = "port 443 {0} -> {1}")
    @CsvSource({"/scheme-nil-and-port-nil, https://example.org/scheme-nil-and-port-nil",
        "/scheme-nil-and-port-443, https://example.org/scheme-nil-and-port-443",
        "/scheme-nil-and-port-8443, https://example.org:8443/scheme-nil-and-port-8443",
        "/scheme-http-and-port-nil, http://example.org/scheme-http-and-port-nil",
        "/scheme-http-and-port-80, http://example.org/scheme-http-and-port-80",
        "/scheme-http-and-port-8080, http://example.org:8080/scheme-http-and-port-8080"})
    void httpsListenerOnPort443(String path, String location) {
      assertRedirect(send(A, GW_443, 443, "GET", "example.org", path, map()), 302, location);
    }
  }

  /** httproute-303-redirect.go / .yaml. */
  @Test
  void redirect303_seeOther() {
    GatewayAttachment a = attach(List.of(), sameNamespaceRoute("303-redirect",
        rule("/see-other", List.of(redirect(null, null, null, null, 303)))));
    assertAccepted(a, SAME, "303-redirect");
    assertRedirect(send(a, SAME, 80, "POST", HOST, "/see-other", map()), 303, "http://gw.example/see-other");
  }

  /** httproute-307-redirect.go / .yaml. */
  @Test
  void redirect307_temporary() {
    GatewayAttachment a = attach(List.of(), sameNamespaceRoute("307-redirect",
        rule("/temporary", List.of(redirect(null, null, null, null, 307)))));
    assertAccepted(a, SAME, "307-redirect");
    assertRedirect(get(a, "/temporary", map()), 307, "http://gw.example/temporary");
  }

  /** httproute-308-redirect.go / .yaml. */
  @Test
  void redirect308_permanent() {
    GatewayAttachment a = attach(List.of(), sameNamespaceRoute("308-redirect",
        rule("/permanent", List.of(redirect(null, null, null, null, 308)))));
    assertAccepted(a, SAME, "308-redirect");
    assertRedirect(get(a, "/permanent", map()), 308, "http://gw.example/permanent");
  }

  /** httproute-rewrite-host.go / .yaml. */
  @Nested
  final class RewriteHost {
    private static final GatewayAttachment A = attach(List.of(), route(INFRA, "rewrite-host",
        List.of(parent(SAME)), List.of("rewrite.example"),
        rule("/one", List.of(rewrite("one.example.org", null)), backend("infra-backend-v1")),
        rule(null, List.of(rewrite("example.org", null)), backend("infra-backend-v2")),
        rule("/rewrite-host-and-modify-headers", List.of(rewrite("test.example.org", null),
            requestHeaders(headers("X-Header-Set", "set-overwrites-values"), headers("X-Header-Add", "header-val-1",
                "X-Header-Add-Append", "header-val-2"), "X-Header-Remove")), backend("infra-backend-v2"))));

    private static RouteResult send(String path, Map<String, String> headers) {
      return GatewayFilterConformanceTest.send(A, SAME, 80, "GET", "rewrite.example", path, headers);
    }

    @Test
    void accepted() {
      assertAccepted(A, SAME, "rewrite-host");
    }

    @Test
    void one_hostRewritten() {
      RouteResult r = send("/one", map());
      assertForwarded(r, "infra-backend-v1", "/one", map());
      assertThat(r.forwarded().host()).isEqualTo("one.example.org");
    }

    @Test
    void two_hostRewritten() {
      RouteResult r = send("/two", map());
      assertForwarded(r, "infra-backend-v2", "/two", map());
      assertThat(r.forwarded().host()).isEqualTo("example.org");
    }

    @Test
    void rewriteHostAndModifyHeaders() {
      RouteResult r = send("/rewrite-host-and-modify-headers", map("X-Header-Remove", "remove-val",
          "X-Header-Add-Append", "append-val-1"));
      assertForwarded(r, "infra-backend-v2", "/rewrite-host-and-modify-headers", map("X-Header-Add",
          "header-val-1", "X-Header-Add-Append", "append-val-1,header-val-2", "X-Header-Set",
          "set-overwrites-values"), "X-Header-Remove");
      assertThat(r.forwarded().host()).isEqualTo("test.example.org");
    }
  }

  /** httproute-rewrite-path.go / .yaml. */
  @Nested
  final class RewritePath {
    private static final HTTPRouteFilter MODIFY_HEADERS = requestHeaders(headers("X-Header-Set",
        "set-overwrites-values"), headers("X-Header-Add", "header-val-1", "X-Header-Add-Append", "header-val-2"),
        "X-Header-Remove");
    private static final GatewayAttachment A = attach(List.of(), sameNamespaceRoute("rewrite-path",
        rule("/prefix/one", List.of(rewrite(null, HTTPPathModifier.replacePrefixMatch("/one"))),
            backend("infra-backend-v1")),
        rule("/strip-prefix", List.of(rewrite(null, HTTPPathModifier.replacePrefixMatch("/"))),
            backend("infra-backend-v1")),
        rule("/full/one", List.of(rewrite(null, HTTPPathModifier.replaceFullPath("/one"))),
            backend("infra-backend-v1")),
        rule("/full/rewrite-path-and-modify-headers", List.of(rewrite(null, HTTPPathModifier.replaceFullPath(
            "/test")), MODIFY_HEADERS), backend("infra-backend-v1")),
        rule("/prefix/rewrite-path-and-modify-headers", List.of(rewrite(null, HTTPPathModifier.replacePrefixMatch(
            "/prefix")), MODIFY_HEADERS), backend("infra-backend-v1"))));

    @Test
    void accepted() {
      assertAccepted(A, SAME, "rewrite-path");
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({"/prefix/one/two, /one/two", "/strip-prefix/three, /three", "/strip-prefix, /",
        "/full/one/two, /one"})
    void pathRewritten(String path, String expected) {
      RouteResult r = get(A, path, map());
      assertForwarded(r, "infra-backend-v1", expected, map());
      assertThat(r.forwarded().host()).as("the host is kept").isEqualTo(HOST);
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({"/full/rewrite-path-and-modify-headers/test, /test",
        "/prefix/rewrite-path-and-modify-headers/one, /prefix/one"})
    void pathRewrittenAndHeadersModified(String path, String expected) {
      assertForwarded(get(A, path, map("X-Header-Remove", "remove-val", "X-Header-Add-Append", "append-val-1",
              "X-Header-Set", "set-val")), "infra-backend-v1", expected,
          map("X-Header-Add", "header-val-1", "X-Header-Add-Append", "append-val-1,header-val-2", "X-Header-Set",
              "set-overwrites-values"), "X-Header-Remove");
    }
  }
}
