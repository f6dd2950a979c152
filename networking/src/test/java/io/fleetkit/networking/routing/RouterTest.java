package io.fleetkit.networking.routing;

import static io.fleetkit.networking.routing.GatewayFixtures.INFRA;
import static io.fleetkit.networking.routing.GatewayFixtures.attach;
import static io.fleetkit.networking.routing.GatewayFixtures.backend;
import static io.fleetkit.networking.routing.GatewayFixtures.gateway;
import static io.fleetkit.networking.routing.GatewayFixtures.parent;
import static io.fleetkit.networking.routing.GatewayFixtures.route;
import static io.fleetkit.networking.routing.GatewayFixtures.rule;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.gateway.AllowedRoutes;
import io.fleetkit.api.gateway.FromNamespaces;
import io.fleetkit.api.gateway.Listener;
import io.fleetkit.api.gateway.SecretObjectReference;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.networking.HTTPIngressPath;
import io.fleetkit.api.networking.Ingress;
import io.fleetkit.api.networking.IngressBackend;
import io.fleetkit.api.networking.IngressClass;
import io.fleetkit.api.networking.IngressRule;
import io.fleetkit.api.networking.IngressSpec;
import io.fleetkit.api.networking.PathType;
import io.fleetkit.networking.gateway.TestCertificates;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link Router} through a Gateway's HTTPS listeners, with and without the connection's server name (SNI). */
final class RouterTest {
  private static final String GW = INFRA + "/tls";
  private static final String CERT = "cert";
  private static final IngressClass INGRESS_CLASS = new IngressClass(ObjectMeta.builder().name("nginx")
      .annotation(IngressClass.DEFAULT_ANNOTATION, "true").build(), "fleetkit.io/router");
  /** An Ingress that would serve every path of b.example. */
  private static final Ingress INGRESS = Ingress.of(ObjectMeta.of(INFRA, "b"), new IngressSpec("nginx", null,
      List.of(), List.of(new IngressRule("b.example", List.of(new HTTPIngressPath("/", PathType.Prefix,
          IngressBackend.of("ingress-backend", 8080)))))));

  private static Listener https(String name, String hostname) {
    return new Listener(name, hostname, 443, "HTTPS", new AllowedRoutes(FromNamespaces.Same, null, List.of()),
        List.of(SecretObjectReference.secret(CERT)));
  }

  private static final GatewayRouter GATEWAY = new GatewayRouter(attach(
      List.of(gateway("tls", https("a", "a.example"), https("b", "b.example"))),
      List.of(route(INFRA, "a", List.of(parent("tls", "a", null)), List.of(), rule("/", backend("infra-backend-v1"))),
          route(INFRA, "b", List.of(parent("tls", "b", null)), List.of(), rule("/", backend("infra-backend-v2")))),
      List.of(), List.of(TestCertificates.tls(INFRA, CERT))));

  @Test
  void route_withoutServerName_hostPicksTheListener() {
    Router r = new Router(List.of(INGRESS_CLASS), List.of(INGRESS), GATEWAY, GW, 443);
    assertThat(r.route(HttpRequest.get("b.example", "/")).service()).isEqualTo(INFRA + "/infra-backend-v2");
  }

  @Test
  void route_serverNameOfTheHostsListener_routed() {
    Router r = new Router(List.of(INGRESS_CLASS), List.of(INGRESS), GATEWAY, GW, 443, "a.example");
    RouteResult res = r.route(HttpRequest.get("a.example", "/"));
    assertThat(res.status()).isEqualTo(200);
    assertThat(res.service()).isEqualTo(INFRA + "/infra-backend-v1");
  }

  @Test
  void route_serverNameOfAnotherListener_misdirected_ingressesNotAsked() {
    Router r = new Router(List.of(INGRESS_CLASS), List.of(INGRESS), GATEWAY, GW, 443, "a.example");
    RouteResult res = r.route(HttpRequest.get("b.example", "/"));
    assertThat(res.status()).isEqualTo(421);
    assertThat(res.service()).isNull();
    assertThat(res.message()).contains("listener b").contains("\"a.example\"").contains("Misdirected Request");
  }

  @Test
  void route_serverNameNoListenerMatches_404() {
    Router r = new Router(List.of(INGRESS_CLASS), List.of(INGRESS), GATEWAY, GW, 443, "c.example");
    RouteResult none = r.route(HttpRequest.get("c.example", "/"));
    assertThat(none.status()).isEqualTo(404);
    assertThat(none.message()).contains("server name \"c.example\"").contains("no Ingress rule matches either");
  }
}
