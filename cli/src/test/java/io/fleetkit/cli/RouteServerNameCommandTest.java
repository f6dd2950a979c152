package io.fleetkit.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code fleetkit route --server-name}: a request sent over TLS, whose server name (SNI) picks the Gateway's HTTPS
 * listener, as in kubernetes-sigs/gateway-api {@code conformance/tests/httproute-https-listener-detect-misdirected-
 * requests.go}: a Host another listener serves is answered 421.
 */
final class RouteServerNameCommandTest {
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
          - {name: shop, port: 443, protocol: HTTPS, hostname: "*.shop.example", allowedRoutes: {namespaces: {from: All}},
             tls: {certificateRefs: [{name: cert}]}}
          - {name: admin, port: 443, protocol: HTTPS, hostname: admin.shop.example,
             allowedRoutes: {namespaces: {from: All}}, tls: {certificateRefs: [{name: cert}]}}
          - {name: http, port: 80, protocol: HTTP, allowedRoutes: {namespaces: {from: All}}}
      ---
      apiVersion: v1
      kind: Secret
      metadata: {name: cert, namespace: infra}
      type: kubernetes.io/tls
      data: {tls.crt: CRT, tls.key: KEY}
      ---
      apiVersion: v1
      kind: Service
      metadata: {name: web, namespace: shop}
      spec: {ports: [{port: 8080}]}
      ---
      apiVersion: v1
      kind: Service
      metadata: {name: admin, namespace: shop}
      spec: {ports: [{port: 8080}]}
      ---
      apiVersion: gateway.networking.k8s.io/v1
      kind: HTTPRoute
      metadata: {name: web, namespace: shop}
      spec:
        parentRefs: [{name: edge, namespace: infra, sectionName: shop}]
        rules: [{backendRefs: [{name: web, port: 8080}]}]
      ---
      apiVersion: gateway.networking.k8s.io/v1
      kind: HTTPRoute
      metadata: {name: admin, namespace: shop}
      spec:
        parentRefs: [{name: edge, namespace: infra, sectionName: admin}]
        rules: [{backendRefs: [{name: admin, port: 8080}]}]
      """;

  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();
  @TempDir
  Path dir;

  private static String base64(String resource) throws IOException {
    try (InputStream in = RouteServerNameCommandTest.class.getResourceAsStream("/tls/" + resource)) {
      return Base64.getEncoder().encodeToString(in.readAllBytes());
    }
  }

  @BeforeEach
  void write() throws Exception {
    Files.writeString(dir.resolve("gw.yaml"), MANIFESTS.replace("CRT", base64("rsa-cert.pem"))
        .replace("KEY", base64("rsa-key-pkcs1.pem")));
  }

  private int run(String... args) {
    return CliHarness.run(out, err, args);
  }

  private JsonNode json() {
    return JsonMapper.builder().build().readTree(out.toString());
  }

  @Test
  void serverNameOfTheHostsListener_routed() {
    assertThat(run("route", dir.toString(), "--host", "admin.shop.example", "--port", "443", "--server-name",
        "admin.shop.example", "--output", "json")).as(err.toString()).isZero();
    JsonNode j = json();
    assertThat(j.get("status").asInt()).isEqualTo(200);
    assertThat(j.get("service").asString()).isEqualTo("shop/admin");
    assertThat(j.get("message").asString()).contains("listener admin");
  }

  @Test
  void hostOfAnotherListener_misdirected421() {
    // without a server name the Host picks the admin listener
    assertThat(run("route", dir.toString(), "--host", "admin.shop.example", "--port", "443", "--output", "json"))
        .isZero();
    assertThat(json().get("service").asString()).isEqualTo("shop/admin");
    out.getBuffer().setLength(0);
    // a connection to www.shop.example (the wildcard listener) asking for admin.shop.example, which the exact
    // listener serves
    assertThat(run("route", dir.toString(), "--host", "admin.shop.example", "--port", "443", "--server-name",
        "WWW.shop.example", "--output", "json")).isZero();
    JsonNode j = json();
    assertThat(j.get("status").asInt()).isEqualTo(421);
    assertThat(j.get("service").isNull()).isTrue();
    assertThat(j.get("message").asString()).contains("served by listener admin")
        .contains("server name \"www.shop.example\"").contains("421 Misdirected Request");
    out.getBuffer().setLength(0);
    assertThat(run("route", dir.toString(), "--host", "admin.shop.example", "--port", "443", "--server-name",
        "www.shop.example")).isZero();
    assertThat(out.toString()).startsWith("no backend: Gateway infra/edge: host \"admin.shop.example\"")
        .contains("(421 Misdirected Request)");
  }

  @Test
  void serverNameNoListenerMatches_404() {
    assertThat(run("route", dir.toString(), "--host", "shop.example", "--port", "443", "--server-name",
        "shop.example", "--output", "json")).isZero();
    assertThat(json().get("status").asInt()).isEqualTo(404);
    assertThat(json().get("message").asString()).contains("no listener on port 443 for server name \"shop.example\"");
  }

  @Test
  void badServerNames_refusedWithTheRule() {
    assertThat(run("route", dir.toString(), "--host", "www.shop.example", "--port", "443", "--server-name",
        "10.0.0.1")).isEqualTo(2);
    assertThat(err.toString()).contains("--server-name \"10.0.0.1\" must be a DNS name, not an IP address");
    err.getBuffer().setLength(0);
    assertThat(run("route", dir.toString(), "--host", "www.shop.example", "--port", "443", "--server-name",
        "-bad.shop.example")).isEqualTo(2);
    assertThat(err.toString()).contains("--server-name \"-bad.shop.example\" must be a DNS name: labels");
    err.getBuffer().setLength(0);
    assertThat(run("route", dir.toString(), "--host", "www.shop.example", "--port", "443", "--server-name",
        "www..shop.example")).isEqualTo(2);
    assertThat(err.toString()).contains("must be a DNS name: labels");
  }

  @Test
  void serverNameWithoutHttpsListenerOnThePort_refused() {
    assertThat(run("route", dir.toString(), "--host", "www.shop.example", "--port", "80", "--server-name",
        "www.shop.example")).isEqualTo(2);
    assertThat(err.toString()).contains("--server-name www.shop.example: Gateway infra/edge has no HTTPS listener on"
        + " port 80");
  }

  @Test
  void serverNameWithoutGateways_refused() throws Exception {
    Files.writeString(dir.resolve("gw.yaml"), """
        apiVersion: v1
        kind: Service
        metadata: {name: web, namespace: shop}
        spec: {ports: [{port: 8080}]}
        """);
    assertThat(run("route", dir.toString(), "--host", "www.shop.example", "--server-name", "www.shop.example"))
        .isEqualTo(2);
    assertThat(err.toString()).contains("route: --server-name www.shop.example: the manifests hold no Gateway");
  }

  @Test
  void help_describesServerName() {
    assertThat(run("route", "--help")).isZero();
    assertThat(out.toString()).contains("--server-name=SNI");
    // the paragraph as picocli wraps it to the terminal's width
    assertThat(out.toString().replaceAll("\\s+", " ")).contains("--server-name sends the request over TLS: its server"
        + " name (SNI) picks the HTTPS listener, and a Host that another listener on the port serves gets 421.");
  }
}
