package io.fleetkit.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** {@code fleetkit route} through Gateways: listener choice, attached routes, status problems, bad input. */
final class RouteGatewayCommandTest {
  private static final String MANIFESTS = """
      apiVersion: gateway.networking.k8s.io/v1
      kind: GatewayClass
      metadata: {name: fleetkit}
      spec: {controllerName: fleetkit.io/gateway}
      ---
      apiVersion: gateway.networking.k8s.io/v1
      kind: Gateway
      metadata: {name: edge, namespace: infra}
      spec:
        gatewayClassName: fleetkit
        listeners:
          - {name: shop, port: 80, protocol: HTTP, hostname: "*.shop.example", allowedRoutes: {namespaces: {from: All}}}
          - {name: admin, port: 80, protocol: HTTP, hostname: admin.shop.example}
      ---
      apiVersion: v1
      kind: Service
      metadata: {name: web, namespace: shop}
      spec: {ports: [{port: 8080}]}
      ---
      apiVersion: v1
      kind: Service
      metadata: {name: web-canary, namespace: shop}
      spec: {ports: [{port: 8080}]}
      ---
      apiVersion: gateway.networking.k8s.io/v1
      kind: HTTPRoute
      metadata: {name: web, namespace: shop}
      spec:
        parentRefs: [{name: edge, namespace: infra}]
        rules:
          - matches: [{path: {type: PathPrefix, value: /cart}, headers: [{name: x-canary, value: "1"}]}]
            backendRefs: [{name: web-canary, port: 8080}]
          - matches: [{path: {type: PathPrefix, value: /}}]
            backendRefs: [{name: web, port: 8080, weight: 90}, {name: web-canary, port: 8080, weight: 10}]
      ---
      apiVersion: gateway.networking.k8s.io/v1
      kind: HTTPRoute
      metadata: {name: admin, namespace: shop}
      spec:
        parentRefs: [{name: edge, namespace: infra, sectionName: admin}]
        rules: [{backendRefs: [{name: web, port: 8080}]}]
      """;

  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();
  @TempDir
  Path dir;

  @BeforeEach
  void write() throws Exception {
    Files.writeString(dir.resolve("gw.yaml"), MANIFESTS);
  }

  private int run(String... args) {
    return CliHarness.run(out, err, args);
  }

  private JsonNode json() {
    return JsonMapper.builder().build().readTree(out.toString());
  }

  @Test
  void route_viaGateway_headerRuleWins_andNamesListenerAndRule() {
    assertThat(run("route", dir.toString(), "--host", "www.shop.example", "--path", "/cart/1", "--header",
        "X-Canary=1", "--output", "json")).isZero();
    JsonNode j = json();
    assertThat(j.get("route").asString()).isEqualTo("HTTPRoute/shop/web");
    assertThat(j.get("service").asString()).isEqualTo("shop/web-canary");
    assertThat(j.get("gateway").asString()).isEqualTo("infra/edge");
    assertThat(j.get("status").asInt()).isEqualTo(200);
    assertThat(j.get("message").asString()).contains("listener shop").contains("rule 0 match 0");
  }

  @Test
  void route_viaGateway_weightedSplitAndProblems() {
    assertThat(run("route", dir.toString(), "--host", "www.shop.example", "--path", "/", "--output", "json"))
        .isZero();
    JsonNode j = json();
    assertThat(j.get("service").asString()).isEqualTo("shop/web");
    assertThat(j.get("backends")).hasSize(2);
    assertThat(j.get("message").asString()).contains("rule 1");
    // the admin listener only admits routes of the Gateway's namespace
    assertThat(j.get("problems").toString()).contains("HTTPRoute/shop/admin").contains("NotAllowedByListeners");
  }

  @Test
  void route_exactListenerHostname_takesTheRequest_evenIfNoRouteAttached() {
    assertThat(run("route", dir.toString(), "--host", "admin.shop.example", "--output", "text")).isZero();
    assertThat(out.toString()).contains("no backend").contains("listener admin")
        .contains("note: HTTPRoute/shop/admin on Gateway infra/edge: Accepted=False NotAllowedByListeners");
  }

  @Test
  void route_unknownGatewayOrPortWithoutListener_clearAnswers() {
    assertThat(run("route", dir.toString(), "--host", "a.shop.example", "--gateway", "infra/nope")).isEqualTo(2);
    assertThat(err.toString()).contains("--gateway infra/nope not found").contains("infra/edge");
    assertThat(run("route", dir.toString(), "--host", "a.shop.example", "--port", "8080", "--output", "json"))
        .isZero();
    assertThat(json().get("message").asString()).contains("has no listener on port 8080");
    assertThat(json().get("service").isNull()).isTrue();
  }

  private static final String FILTERS = """
      apiVersion: gateway.networking.k8s.io/v1
      kind: GatewayClass
      metadata: {name: fleetkit}
      spec: {controllerName: fleetkit.io/gateway}
      ---
      apiVersion: gateway.networking.k8s.io/v1
      kind: Gateway
      metadata: {name: edge, namespace: shop}
      spec:
        gatewayClassName: fleetkit
        listeners: [{name: http, port: 80, protocol: HTTP}]
      ---
      apiVersion: v1
      kind: Service
      metadata: {name: api, namespace: shop}
      spec: {ports: [{port: 8080}]}
      ---
      apiVersion: gateway.networking.k8s.io/v1
      kind: HTTPRoute
      metadata: {name: web, namespace: shop}
      spec:
        parentRefs: [{name: edge}]
        rules:
          - matches: [{path: {type: PathPrefix, value: /old}}]
            filters:
              - {type: RequestRedirect, requestRedirect: {scheme: https, hostname: shop.example, statusCode: 301,
                 path: {type: ReplacePrefixMatch, replacePrefixMatch: /new}}}
          - matches: [{path: {type: PathPrefix, value: /api}}]
            filters:
              - {type: URLRewrite, urlRewrite: {path: {type: ReplacePrefixMatch, replacePrefixMatch: /v2}}}
              - {type: RequestHeaderModifier, requestHeaderModifier: {set: [{name: X-Via, value: edge}]}}
            backendRefs: [{name: api, port: 8080}]
          - matches: [{path: {type: PathPrefix, value: /cors}}]
            filters:
              - {type: RequestMirror, requestMirror: {backendRef: {name: api, port: 8080}, percent: 10}}
              - {type: CORS, cors: {allowOrigins: ["https://*.shop.example"], allowMethods: [GET]}}
            backendRefs: [{name: api, port: 8080}]
      """;

  @Test
  void route_redirectFilter_statusAndLocation() throws Exception {
    Files.writeString(dir.resolve("gw.yaml"), FILTERS);
    assertThat(run("route", dir.toString(), "--host", "www.shop.example", "--path", "/old/cart", "--output",
        "json")).isZero();
    JsonNode j = json();
    assertThat(j.get("status").asInt()).isEqualTo(301);
    assertThat(j.get("location").asString()).isEqualTo("https://shop.example/new/cart");
    assertThat(j.get("service").isNull()).isTrue();
    out.getBuffer().setLength(0);
    assertThat(run("route", dir.toString(), "--host", "www.shop.example", "--path", "/old/cart", "--output", "text"))
        .isZero();
    assertThat(out.toString()).contains("HTTPRoute/shop/web redirects 301 to https://shop.example/new/cart");
  }

  @Test
  void route_rewriteAndHeaderFilters_showTheForwardedRequest() throws Exception {
    Files.writeString(dir.resolve("gw.yaml"), FILTERS);
    assertThat(run("route", dir.toString(), "--host", "www.shop.example", "--path", "/api/items", "--output",
        "json")).isZero();
    JsonNode j = json();
    assertThat(j.get("service").asString()).isEqualTo("shop/api");
    assertThat(j.get("forwarded").get("path").asString()).isEqualTo("/v2/items");
    assertThat(j.get("forwarded").get("headers").get("x-via").asString()).isEqualTo("edge");
  }

  @Test
  void route_corsPreflight_answeredWithItsHeaders() throws Exception {
    Files.writeString(dir.resolve("gw.yaml"), FILTERS);
    String[] preflight = {"route", dir.toString(), "--host", "www.shop.example", "--path", "/cors/a", "--method",
        "OPTIONS", "--header", "Origin=https://www.shop.example", "--header", "Access-Control-Request-Method=GET"};
    assertThat(run(concat(preflight, "--output", "json"))).isZero();
    JsonNode j = json();
    assertThat(j.get("status").asInt()).isEqualTo(200);
    assertThat(j.get("service").isNull()).isTrue();
    assertThat(j.get("corsPreflight").asBoolean()).isTrue();
    assertThat(j.get("corsHeaders").get("access-control-allow-origin").asString())
        .isEqualTo("https://www.shop.example");
    assertThat(j.get("corsHeaders").get("access-control-allow-methods").asString()).isEqualTo("GET");
    out.getBuffer().setLength(0);
    assertThat(run(concat(preflight, "--output", "text"))).isZero();
    assertThat(out.toString()).contains("HTTPRoute/shop/web answers the CORS preflight 200")
        .contains("CORS preflight answered: {access-control-allow-origin=https://www.shop.example");
  }

  @Test
  void route_mirrorFilter_listsTheMirrorAndItsShare() throws Exception {
    Files.writeString(dir.resolve("gw.yaml"), FILTERS);
    String[] get = {"route", dir.toString(), "--host", "www.shop.example", "--path", "/cors/a"};
    assertThat(run(concat(get, "--output", "json"))).isZero();
    JsonNode j = json();
    assertThat(j.get("service").asString()).isEqualTo("shop/api");
    assertThat(j.get("mirrors").get(0).get("service").asString()).isEqualTo("shop/api");
    assertThat(j.get("mirrors").get(0).get("share").asString()).isEqualTo("10/100");
    out.getBuffer().setLength(0);
    assertThat(run(concat(get, "--output", "text"))).isZero();
    assertThat(out.toString()).contains("mirrored to shop/api:8080 (10/100 of requests)");
  }

  private static String[] concat(String[] a, String... b) {
    String[] out = java.util.Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }
}
