package io.fleetkit.networking.routing;

import static io.fleetkit.networking.routing.GatewayFixtures.INFRA;
import static io.fleetkit.networking.routing.GatewayFixtures.attach;
import static io.fleetkit.networking.routing.GatewayFixtures.backend;
import static io.fleetkit.networking.routing.GatewayFixtures.parent;
import static io.fleetkit.networking.routing.GatewayFixtures.route;
import static io.fleetkit.networking.routing.GatewayFixtures.rule;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.gateway.AllowedRoutes;
import io.fleetkit.api.gateway.FromNamespaces;
import io.fleetkit.api.gateway.Gateway;
import io.fleetkit.api.gateway.GatewaySpec;
import io.fleetkit.api.gateway.GatewayStatus;
import io.fleetkit.api.gateway.Listener;
import io.fleetkit.api.gateway.SecretObjectReference;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.networking.gateway.Conditions;
import io.fleetkit.networking.gateway.GatewayAttachment;
import io.fleetkit.networking.gateway.RouteParent;
import io.fleetkit.networking.gateway.TestCertificates;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * kubernetes-sigs/gateway-api {@code conformance/tests/httproute-https-listener.go} and
 * {@code httproute-https-listener-detect-misdirected-requests.go} with their {@code .yaml} files (commit 4564255a),
 * on the Gateway {@code same-namespace-with-https-listener} of {@code conformance/base/manifests.yaml} (four HTTPS
 * listeners on port 443). Upstream sends each request over TLS with a server name (SNI) and checks the status and the
 * backend; here {@link GatewayRouter#route(String, int, String, HttpRequest)} takes the server name, and the TLS
 * handshake itself (the certificate the client verifies) is not modelled: the listeners' certificate Secret is
 * checked to resolve, which makes them Programmed. Every request also checks, beyond upstream, that the result names
 * the route upstream's backend implies.
 */
final class GatewayHttpsListenerConformanceTest {
  private static final String GW = "same-namespace-with-https-listener";
  private static final String CERT = "tls-validity-checks-certificate";

  private static Listener https(String name, String hostname) {
    return new Listener(name, hostname, 443, "HTTPS", new AllowedRoutes(FromNamespaces.Same, null, List.of()),
        List.of(new SecretObjectReference("", "Secret", CERT, INFRA)));
  }

  private static Gateway httpsGateway() {
    return new Gateway(ObjectMeta.of(INFRA, GW), new GatewaySpec(GatewayFixtures.CLASS, List.of(
        https("https", ""), https("https-with-hostname", "second-example.org"),
        https("https-with-wildcard-hostname", "*.wildcard.org"),
        https("https-with-hostname-matching-wildcard", "fourth-example.wildcard.org"))));
  }

  private static GatewayAttachment attachWithCertificate(io.fleetkit.api.gateway.HTTPRoute... routes) {
    return attach(List.of(httpsGateway()), List.of(routes), List.of(), List.of(TestCertificates.tls(INFRA, CERT)));
  }

  /** {@code GatewayAndHTTPRoutesMustBeAccepted} + {@code HTTPRouteMustHaveResolvedRefsConditionsTrue}. */
  private static void assertGatewayAndRoutesAccepted(GatewayAttachment a, String... routes) {
    GatewayStatus g = a.gateway(INFRA + "/" + GW);
    assertThat(g.condition(Conditions.PROGRAMMED).isTrue()).as(g.toString()).isTrue();
    assertThat(g.listeners()).allSatisfy(l -> assertThat(l.condition(Conditions.PROGRAMMED).isTrue())
        .as(l.toString()).isTrue());
    for (String r : routes) {
      List<RouteParent> parents = a.route(INFRA + "/" + r);
      assertThat(parents).as(r).hasSize(1);
      assertThat(parents.get(0).accepted()).as(parents.toString()).isTrue();
      assertThat(parents.get(0).status().condition(Conditions.RESOLVED_REFS).isTrue()).as(parents.toString()).isTrue();
    }
  }

  private static void assertResponse(RouteResult r, int status, @Nullable String backend) {
    assertThat(r.status()).as(r.message()).isEqualTo(status);
    if (backend == null || backend.isEmpty()) {
      assertThat(r.service()).as(r.message()).isNull();
    } else {
      assertThat(r.service()).as(r.message()).isEqualTo(INFRA + "/" + backend);
      assertThat(r.forwarded()).isNotNull();
    }
  }

  /** httproute-https-listener.go / .yaml. */
  @Nested
  final class HttpsListener {
    private static final GatewayAttachment A = attachWithCertificate(
        route(INFRA, "httproute-https-test", List.of(parent(GW)), List.of("example.org"),
            rule(null, backend("infra-backend-v1"))),
        route(INFRA, "httproute-https-test-no-hostname", List.of(parent(GW, "https-with-hostname", null)),
            List.of(), rule(null, backend("infra-backend-v2"))));

    @Test
    void gatewayAndRoutesAccepted() {
      assertGatewayAndRoutesAccepted(A, "httproute-https-test", "httproute-https-test-no-hostname");
      // the route with hostname example.org attaches to the listener without hostname only
      assertThat(A.attached(INFRA + "/" + GW, "https")).hasSize(1);
      assertThat(A.attached(INFRA + "/" + GW, "https-with-wildcard-hostname")).isEmpty();
    }

    /** Upstream sends each request with the server name equal to the host. */
    @ParameterizedTest(name = "{0} -> {1} {2}")
    @CsvSource({"example.org, 200, infra-backend-v1",
        "unknown-example.org, 404, ''",
        "second-example.org, 200, infra-backend-v2"})
    void requests(String host, int status, String backend) {
      RouteResult r = new GatewayRouter(A).route(INFRA + "/" + GW, 443, host, HttpRequest.get(host, "/"));
      assertResponse(r, status, backend);
    }
  }

  /** httproute-https-listener-detect-misdirected-requests.go / .yaml. */
  @Nested
  final class DetectMisdirectedRequests {
    private static final String PATH = "/detect-misdirected-requests";
    private static final GatewayAttachment A = attachWithCertificate(
        route(INFRA, "https-listener-detect-misdirected-requests-test-1", List.of(parent(GW, "https", null)),
            List.of("example.org"), rule(PATH, backend("infra-backend-v1"))),
        route(INFRA, "https-listener-detect-misdirected-requests-test-2",
            List.of(parent(GW, "https-with-hostname", null)), List.of(), rule(PATH, backend("infra-backend-v2"))),
        route(INFRA, "https-listener-detect-misdirected-requests-test-3",
            List.of(parent(GW, "https-with-wildcard-hostname", null)), List.of(),
            rule(PATH, backend("infra-backend-v3"))),
        route(INFRA, "https-listener-detect-misdirected-requests-test-4",
            List.of(parent(GW, "https-with-hostname-matching-wildcard", null)), List.of(),
            rule(PATH, backend("infra-backend-v1"))));

    @Test
    void gatewayAndRoutesAccepted() {
      assertGatewayAndRoutesAccepted(A, "https-listener-detect-misdirected-requests-test-1",
          "https-listener-detect-misdirected-requests-test-2", "https-listener-detect-misdirected-requests-test-3",
          "https-listener-detect-misdirected-requests-test-4");
    }

    /** Upstream's 15 cases in order: server name, Host, status, backend. */
    @ParameterizedTest(name = "{index}: SNI {0} Host {1} -> {2} {3}")
    @CsvSource({"example.org, example.org, 200, infra-backend-v1",
        "example.org, second-example.org, 421, ''",
        "example.org, unknown-example.org, 404, ''",
        "second-example.org, second-example.org, 200, infra-backend-v2",
        "second-example.org, example.org, 421, ''",
        "second-example.org, unknown-example.org, 421, ''",
        "third-example.wildcard.org, third-example.wildcard.org, 200, infra-backend-v3",
        "third-example.wildcard.org, fith-example.wildcard.org, 200, infra-backend-v3",
        "third-example.wildcard.org, fourth-example.wildcard.org, 421, ''",
        "third-example.wildcard.org, second-example.org, 421, ''",
        "third-example.wildcard.org, unknown-example.org, 421, ''",
        "fourth-example.wildcard.org, fourth-example.wildcard.org, 200, infra-backend-v1",
        "fourth-example.wildcard.org, fith-example.wildcard.org, 421, ''",
        "unknown-example.org, example.org, 200, infra-backend-v1",
        "unknown-example.org, unknown-example.org, 404, ''"})
    void requests(String serverName, String host, int status, String backend) {
      RouteResult r = new GatewayRouter(A).route(INFRA + "/" + GW, 443, serverName, HttpRequest.get(host, PATH));
      assertResponse(r, status, backend);
      if (status == 421) {
        assertThat(r.message()).contains("Misdirected Request").contains("\"" + host + "\"")
            .contains("\"" + serverName + "\"");
      }
    }

    @Test
    void serverNameWithoutListener_noListener() {
      GatewayAttachment a = attach(List.of(new Gateway(ObjectMeta.of(INFRA, "only-named"),
              new GatewaySpec(GatewayFixtures.CLASS, List.of(https("https-with-hostname", "second-example.org"))))),
          List.of(), List.of(), List.of(TestCertificates.tls(INFRA, CERT)));
      RouteResult r = new GatewayRouter(a).route(INFRA + "/only-named", 443, "example.org",
          HttpRequest.get("second-example.org", PATH));
      assertThat(r.status()).isEqualTo(404);
      assertThat(r.message()).contains("no listener on port 443 for server name \"example.org\"");
    }
  }
}
