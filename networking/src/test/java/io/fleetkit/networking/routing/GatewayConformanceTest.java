package io.fleetkit.networking.routing;

import static io.fleetkit.networking.routing.GatewayFixtures.APP;
import static io.fleetkit.networking.routing.GatewayFixtures.INFRA;
import static io.fleetkit.networking.routing.GatewayFixtures.WEB;
import static io.fleetkit.networking.routing.GatewayFixtures.ask;
import static io.fleetkit.networking.routing.GatewayFixtures.attach;
import static io.fleetkit.networking.routing.GatewayFixtures.backend;
import static io.fleetkit.networking.routing.GatewayFixtures.gateway;
import static io.fleetkit.networking.routing.GatewayFixtures.grant;
import static io.fleetkit.networking.routing.GatewayFixtures.http;
import static io.fleetkit.networking.routing.GatewayFixtures.parent;
import static io.fleetkit.networking.routing.GatewayFixtures.route;
import static io.fleetkit.networking.routing.GatewayFixtures.rule;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Secret;
import io.fleetkit.api.gateway.AllowedRoutes;
import io.fleetkit.api.gateway.FromNamespaces;
import io.fleetkit.api.gateway.Gateway;
import io.fleetkit.api.gateway.GatewayStatus;
import io.fleetkit.api.gateway.HTTPBackendRef;
import io.fleetkit.api.gateway.HTTPHeaderMatch;
import io.fleetkit.api.gateway.HTTPPathMatch;
import io.fleetkit.api.gateway.HTTPRoute;
import io.fleetkit.api.gateway.HTTPRouteMatch;
import io.fleetkit.api.gateway.HTTPRouteRule;
import io.fleetkit.api.gateway.Listener;
import io.fleetkit.api.gateway.ListenerStatus;
import io.fleetkit.api.gateway.PathMatchType;
import io.fleetkit.api.gateway.ReferenceGrant;
import io.fleetkit.api.gateway.RouteGroupKind;
import io.fleetkit.api.gateway.SecretObjectReference;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.meta.Condition;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.networking.gateway.Conditions;
import io.fleetkit.networking.gateway.GatewayAttachment;
import io.fleetkit.networking.gateway.RouteParent;
import io.fleetkit.networking.gateway.TestCertificates;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Cases of kubernetes-sigs/gateway-api {@code conformance/tests/*.go} with the objects of their {@code .yaml} files
 * (and {@code conformance/base/manifests.yaml}, see {@link GatewayFixtures}): each nested class names its upstream
 * file. Requests are asserted as upstream expects them (backend, 404 or 500); status as the condition type, status
 * and reason upstream checks, plus listener attached-route counts and supported kinds.
 */
final class GatewayConformanceTest {
  private static Condition parentCondition(GatewayAttachment a, String routeKey, String gatewayKey, String type) {
    for (RouteParent p : a.route(routeKey)) {
      if (p.gateway().equals(gatewayKey)) {
        return p.status().condition(type);
      }
    }
    throw new AssertionError("no parent status for " + gatewayKey + " in " + a.route(routeKey));
  }

  private static void assertCondition(Condition c, boolean status, String reason) {
    assertThat(c).isNotNull();
    assertThat(c.status()).as(c.toString()).isEqualTo(status ? ConditionStatus.True : ConditionStatus.False);
    if (!reason.isEmpty()) {
      assertThat(c.reason()).as(c.toString()).isEqualTo(reason);
    }
  }

  private static void assertListener(ListenerStatus l, int attached, boolean accepted, boolean resolved) {
    assertThat(l.attachedRoutes()).as(l.name()).isEqualTo(attached);
    assertThat(l.supportedKinds()).containsExactly(RouteGroupKind.of(HTTPRoute.KIND));
    assertCondition(l.condition(Conditions.ACCEPTED), accepted, "");
    assertCondition(l.condition(Conditions.RESOLVED_REFS), resolved, "");
  }

  private static boolean noAcceptedParents(GatewayAttachment a, String routeKey) {
    return a.route(routeKey).stream().noneMatch(RouteParent::accepted);
  }

  private static int totalAttached(GatewayAttachment a, String gatewayKey) {
    return a.gateway(gatewayKey).listeners().stream().mapToInt(ListenerStatus::attachedRoutes).sum();
  }

  /** httproute-hostname-intersection.go / .yaml. */
  @Nested
  final class HostnameIntersection {
    private static final String GW = "httproute-hostname-intersection";
    private static final GatewayAttachment A = attach(List.of(
        gateway(GW, http("listener-1", 80, "very.specific.com", FromNamespaces.Same),
            http("listener-2", 80, "*.wildcard.io", FromNamespaces.Same),
            http("listener-3", 80, "*.anotherwildcard.io", FromNamespaces.Same)),
        gateway("httproute-hostname-intersection-all", http("listener-1", 80, "", FromNamespaces.Same))),
        route(INFRA, "specific-host-matches-listener-specific-host", List.of(parent(GW)),
            List.of("non.matching.com", "*.nonmatchingwildcard.io", "very.specific.com"),
            rule("/s1", backend("infra-backend-v1"))),
        route(INFRA, "specific-host-matches-listener-wildcard-host", List.of(parent(GW)),
            List.of("non.matching.com", "wildcard.io", "foo.wildcard.io", "bar.wildcard.io", "foo.bar.wildcard.io"),
            rule("/s2", backend("infra-backend-v2"))),
        route(INFRA, "wildcard-host-matches-listener-specific-host", List.of(parent(GW)),
            List.of("non.matching.com", "*.specific.com"), rule("/s3", backend("infra-backend-v3"))),
        route(INFRA, "wildcard-host-matches-listener-wildcard-host", List.of(parent(GW)),
            List.of("*.anotherwildcard.io"), rule("/s4", backend("infra-backend-v1"))),
        route(INFRA, "no-intersecting-hosts", List.of(parent(GW)), List.of("specific.but.wrong.com", "wildcard.io"),
            rule("/s5", backend("infra-backend-v2"))),
        route(INFRA, "httproute-hostname-intersection-all", List.of(parent("httproute-hostname-intersection-all")),
            List.of("first.com", "sub.first.com", "second.com", "sub.second.com"),
            rule(null, backend("infra-backend-v2"))));

    @ParameterizedTest(name = "{0}{1} -> {2}")
    @CsvSource({
        // HTTPRoutes that do intersect with listener hostnames
        "very.specific.com, /s1, v1", "very.specific.com:1234, /s1, v1", "non.matching.com, /s1, 404",
        "foo.nonmatchingwildcard.io, /s1, 404", "foo.wildcard.io, /s1, 404",
        "very.specific.com, /non-matching-prefix, 404",
        "foo.wildcard.io, /s2, v2", "bar.wildcard.io, /s2, v2", "foo.bar.wildcard.io, /s2, v2",
        "non.matching.com, /s2, 404", "wildcard.io, /s2, 404", "very.specific.com, /s2, 404",
        "foo.wildcard.io, /non-matching-prefix, 404",
        "very.specific.com, /s3, v3", "non.matching.com, /s3, 404", "foo.specific.com, /s3, 404",
        "foo.wildcard.io, /s3, 404", "very.specific.com, /non-matching-prefix, 404",
        "foo.anotherwildcard.io, /s4, v1", "bar.anotherwildcard.io, /s4, v1", "foo.bar.anotherwildcard.io, /s4, v1",
        "anotherwildcard.io, /s4, 404", "foo.wildcard.io, /s4, 404", "very.specific.com, /s4, 404",
        "foo.anotherwildcard.io, /non-matching-prefix, 404",
        // HTTPRoutes that do not intersect with listener hostnames
        "specific.but.wrong.com, /s5, 404", "wildcard.io, /s5, 404"})
    void requests(String host, String path, String expected) {
      assertThat(ask(A, GW, 80, host, path)).isEqualTo(expected);
    }

    @ParameterizedTest(name = "{0}{1} -> {2}")
    @CsvSource({"first.com, /, v2", "sub.first.com, /, v2", "second.com, /, v2", "sub.second.com, /, v2",
        "third.com, /, 404", "sub.third.com, /, 404"})
    void unspecifiedHostnameListener(String host, String path, String expected) {
      assertThat(ask(A, "httproute-hostname-intersection-all", 80, host, path)).isEqualTo(expected);
    }

    @Test
    void intersectingRoutesAcceptedWithResolvedRefs() {
      for (String r : List.of("specific-host-matches-listener-specific-host",
          "specific-host-matches-listener-wildcard-host", "wildcard-host-matches-listener-specific-host",
          "wildcard-host-matches-listener-wildcard-host")) {
        assertCondition(parentCondition(A, INFRA + "/" + r, INFRA + "/" + GW, Conditions.ACCEPTED), true, "Accepted");
        assertCondition(parentCondition(A, INFRA + "/" + r, INFRA + "/" + GW, Conditions.RESOLVED_REFS), true,
            "ResolvedRefs");
      }
    }

    @Test
    void nonIntersectingRoute_notAccepted_noMatchingListenerHostname() {
      assertCondition(parentCondition(A, INFRA + "/no-intersecting-hosts", INFRA + "/" + GW, Conditions.ACCEPTED),
          false, Conditions.NO_MATCHING_LISTENER_HOSTNAME);
    }

    @Test
    void attachedRoutes_countOnlyAccepted() {
      GatewayStatus g = A.gateway(INFRA + "/" + GW);
      assertListener(g.listener("listener-1"), 2, true, true);
      assertListener(g.listener("listener-2"), 1, true, true);
      assertListener(g.listener("listener-3"), 1, true, true);
    }
  }

  /** httproute-listener-hostname-matching.go / .yaml. */
  @Nested
  final class ListenerHostnameMatching {
    private static final String GW = "httproute-listener-hostname-matching";
    private static final GatewayAttachment A = attach(List.of(
        gateway(GW, http("listener-1", 80, "bar.com", FromNamespaces.Same),
            http("listener-2", 80, "foo.bar.com", FromNamespaces.Same),
            http("listener-3", 80, "*.bar.com", FromNamespaces.Same),
            http("listener-4", 80, "*.foo.com", FromNamespaces.Same))),
        route(INFRA, "backend-v1", List.of(parent(GW, "listener-1", null)), List.of(),
            rule(null, backend("infra-backend-v1"))),
        route(INFRA, "backend-v2", List.of(parent(GW, "listener-2", null)), List.of(),
            rule(null, backend("infra-backend-v2"))),
        route(INFRA, "backend-v3", List.of(parent(GW, "listener-3", null), parent(GW, "listener-4", null)),
            List.of(), rule(null, backend("infra-backend-v3"))));

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({"bar.com, v1", "foo.bar.com, v2", "baz.bar.com, v3", "boo.bar.com, v3",
        "multiple.prefixes.bar.com, v3", "multiple.prefixes.foo.com, v3", "foo.com, 404", "no.matching.host, 404"})
    void requests(String host, String expected) {
      assertThat(ask(A, GW, 80, host, "/")).isEqualTo(expected);
    }

    @Test
    void routesAcceptedPerSection() {
      for (String r : List.of("backend-v1", "backend-v2", "backend-v3")) {
        assertThat(A.route(INFRA + "/" + r)).allMatch(RouteParent::accepted);
        assertCondition(parentCondition(A, INFRA + "/" + r, INFRA + "/" + GW, Conditions.RESOLVED_REFS), true, "");
      }
      GatewayStatus g = A.gateway(INFRA + "/" + GW);
      assertThat(g.listeners()).extracting(ListenerStatus::attachedRoutes).containsExactly(1, 1, 1, 1);
    }
  }

  /** httproute-listener-port-matching.go / .yaml (the Gateway is reached on the listener ports). */
  @Nested
  final class ListenerPortMatching {
    private static final String GW = "httproute-listener-port-matching";
    private static final GatewayAttachment A = attach(List.of(
        gateway(GW, http("listener-1", 80, "foo.com", FromNamespaces.Same),
            http("listener-2", 8080, "foo.com", FromNamespaces.Same),
            http("listener-3", 8080, "bar.com", FromNamespaces.Same),
            http("listener-4", 8090, "foo.com", FromNamespaces.Same),
            http("listener-5", 8090, "bar.com", FromNamespaces.Same))),
        route(INFRA, "backend-v1", List.of(parent(GW, "", 80)), List.of(), rule(null, backend("infra-backend-v1"))),
        route(INFRA, "backend-v2", List.of(parent(GW, "", 8080)), List.of(), rule(null, backend("infra-backend-v2"))),
        route(INFRA, "backend-v3", List.of(parent(GW, "listener-4", 8090)), List.of(),
            rule(null, backend("infra-backend-v3"))));

    @ParameterizedTest(name = "{0}:{1} -> {2}")
    @CsvSource({"foo.com, 80, v1", "foo.com:8080, 8080, v2", "bar.com:8080, 8080, v2", "foo.com:8090, 8090, v3",
        "bar.com:8090, 8090, 404"})
    void requests(String host, int port, String expected) {
      assertThat(ask(A, GW, port, host, "/")).isEqualTo(expected);
    }

    @Test
    void attachedRoutesPerListener() {
      assertThat(A.gateway(INFRA + "/" + GW).listeners()).extracting(ListenerStatus::attachedRoutes)
          .containsExactly(1, 1, 1, 1, 0);
    }
  }

  /** gateway-with-attached-routes.go / .yaml. */
  @Nested
  final class GatewayWithAttachedRoutes {
    private static Listener selectorListener(String name, int port, String protocol, String hostname,
        List<SecretObjectReference> certs) {
      return new Listener(name, hostname, port, protocol, new AllowedRoutes(FromNamespaces.Selector,
          new LabelSelector(Map.of("kubernetes.io/metadata.name", INFRA), List.of()), List.of("HTTPRoute")), certs);
    }

    private static final GatewayAttachment A = attach(List.of(
            gateway("gateway-with-one-attached-route", selectorListener("http", 80, "HTTP", "", List.of())),
            gateway("gateway-with-two-attached-routes",
                selectorListener("http", 80, "HTTP", "foo.example.com", List.of())),
            gateway("unresolved-gateway-with-one-attached-unresolved-route",
                selectorListener("tls", 443, "HTTPS", "",
                    List.of(SecretObjectReference.secret("does-not-exist"))))),
        List.of(route(INFRA, "http-route-1", List.of(parent("gateway-with-one-attached-route")), List.of(),
                rule(null, backend("infra-backend-v1"))),
            route(INFRA, "http-route-2", List.of(parent("gateway-with-two-attached-routes")), List.of(),
                rule(null, backend("infra-backend-v1"))),
            route(INFRA, "http-route-3", List.of(parent("gateway-with-two-attached-routes")), List.of(),
                rule(null, backend("infra-backend-v1"))),
            route(INFRA, "http-route-not-accepted", List.of(parent("gateway-with-two-attached-routes")),
                List.of("not-accepted.test.com"), rule(null, backend("infra-backend-v1"))),
            route(INFRA, "http-route-4", List.of(parent("unresolved-gateway-with-one-attached-unresolved-route",
                "tls", null)), List.of(), rule(null, backend("does-not-exist")))),
        List.of(), List.of());

    @Test
    void oneValidRouteAttached() {
      assertListener(A.gateway(INFRA + "/gateway-with-one-attached-route").listener("http"), 1, true, true);
    }

    @Test
    void twoValidRoutesAttached_andHostnameMismatchNotAccepted() {
      assertListener(A.gateway(INFRA + "/gateway-with-two-attached-routes").listener("http"), 2, true, true);
      assertCondition(parentCondition(A, INFRA + "/http-route-not-accepted",
          INFRA + "/gateway-with-two-attached-routes", Conditions.ACCEPTED), false,
          Conditions.NO_MATCHING_LISTENER_HOSTNAME);
    }

    @Test
    void attachedRoutesSetEvenWhenGatewayHasUnresolvedRefs() {
      ListenerStatus l = A.gateway(INFRA + "/unresolved-gateway-with-one-attached-unresolved-route").listener("tls");
      assertThat(l.attachedRoutes()).isEqualTo(1);
      assertThat(l.supportedKinds()).containsExactly(RouteGroupKind.of(HTTPRoute.KIND));
      assertCondition(l.condition(Conditions.PROGRAMMED), false, "");
      assertCondition(l.condition(Conditions.RESOLVED_REFS), false, Conditions.INVALID_CERTIFICATE_REF);
      assertCondition(parentCondition(A, INFRA + "/http-route-4",
          INFRA + "/unresolved-gateway-with-one-attached-unresolved-route", Conditions.RESOLVED_REFS), false, "");
    }

    @Test
    void certificateSecretPresent_listenerProgrammed() {
      Secret cert = TestCertificates.tls(INFRA, "does-not-exist");
      GatewayAttachment b = attach(List.of(gateway("tls-gw", selectorListener("tls", 443, "HTTPS", "",
          List.of(SecretObjectReference.secret("does-not-exist"))))), List.of(), List.of(), List.of(cert));
      assertCondition(b.gateway(INFRA + "/tls-gw").listener("tls").condition(Conditions.PROGRAMMED), true, "");
    }
  }

  /** gateway-with-attached-routes-with-port-8080.yaml (GatewayWithAttachedRoutesWithPort8080). */
  @Test
  void attachedRoutesWithPort8080_bySectionName() {
    String gw = "gateway-with-two-listeners-and-one-attached-route";
    GatewayAttachment a = attach(List.of(gateway(gw, http("http-unattached", 8080, "", FromNamespaces.Same),
        http("http", 80, "", FromNamespaces.Same))),
        route(INFRA, "http-route-4", List.of(parent(gw, "http", null)), List.of(),
            rule(null, backend("infra-backend-v1"))));
    assertListener(a.gateway(INFRA + "/" + gw).listener("http-unattached"), 0, true, true);
    assertListener(a.gateway(INFRA + "/" + gw).listener("http"), 1, true, true);
  }

  /** httproute-invalid-cross-namespace-parent-ref.go / .yaml. */
  @Test
  void invalidCrossNamespaceParentRef_notAllowedByListeners() {
    GatewayAttachment a = attach(List.of(), route(WEB, "invalid-cross-namespace-parent-ref",
        List.of(parent("same-namespace")), List.of(), rule(null, backend("web-backend"))));
    String r = WEB + "/invalid-cross-namespace-parent-ref";
    assertCondition(parentCondition(a, r, INFRA + "/same-namespace", Conditions.RESOLVED_REFS), true, "");
    assertCondition(parentCondition(a, r, INFRA + "/same-namespace", Conditions.ACCEPTED), false,
        Conditions.NOT_ALLOWED_BY_LISTENERS);
    assertThat(noAcceptedParents(a, r)).isTrue();
    assertThat(totalAttached(a, INFRA + "/same-namespace")).isZero();
  }

  /** httproute-invalid-nonexistent-backendref.go / .yaml. */
  @Test
  void invalidNonexistentBackendRef_backendNotFound_500() {
    GatewayAttachment a = attach(List.of(), route(INFRA, "invalid-nonexistent-backend-ref",
        List.of(parent("same-namespace")), List.of(), rule(null, backend("nonexistent", INFRA))));
    String r = INFRA + "/invalid-nonexistent-backend-ref";
    assertCondition(parentCondition(a, r, INFRA + "/same-namespace", Conditions.ACCEPTED), true, "");
    assertCondition(parentCondition(a, r, INFRA + "/same-namespace", Conditions.RESOLVED_REFS), false,
        Conditions.BACKEND_NOT_FOUND);
    assertThat(ask(a, "same-namespace", 80, "example.com", "/")).isEqualTo("500");
  }

  /** httproute-invalid-cross-namespace-backend-ref.go / .yaml. */
  @Test
  void invalidCrossNamespaceBackendRef_refNotPermitted_500() {
    GatewayAttachment a = attach(List.of(), route(INFRA, "invalid-cross-namespace-backend-ref",
        List.of(parent("same-namespace")), List.of(), rule(null, backend("web-backend", WEB))));
    String r = INFRA + "/invalid-cross-namespace-backend-ref";
    assertCondition(parentCondition(a, r, INFRA + "/same-namespace", Conditions.ACCEPTED), true, "");
    assertCondition(parentCondition(a, r, INFRA + "/same-namespace", Conditions.RESOLVED_REFS), false,
        Conditions.REF_NOT_PERMITTED);
    assertThat(ask(a, "same-namespace", 80, "example.com", "/")).isEqualTo("500");
  }

  /** httproute-invalid-backendref-unknown-kind.go / .yaml. */
  @Test
  void invalidBackendRefUnknownKind_invalidKind_500() {
    GatewayAttachment a = attach(List.of(), route(INFRA, "invalid-backend-ref-unknown-kind",
        List.of(parent("same-namespace")), List.of(), new HTTPRouteRule(List.of(), List.of(
            new HTTPBackendRef("unknownkind.example.com", "NonExistent", "infra-backend-v1", "", 8080, 1)))));
    String r = INFRA + "/invalid-backend-ref-unknown-kind";
    assertCondition(parentCondition(a, r, INFRA + "/same-namespace", Conditions.ACCEPTED), true, "");
    assertCondition(parentCondition(a, r, INFRA + "/same-namespace", Conditions.RESOLVED_REFS), false,
        Conditions.INVALID_KIND);
    assertThat(ask(a, "same-namespace", 80, "example.com", "/v2")).isEqualTo("500");
  }

  /**
   * httproute-invalid-parentref-not-matching-listener-port.go, httproute-invalid-parentref-not-matching-section-name.go
   * and httproute-invalid-parentref-section-name-not-matching-port.go (with their .yaml files).
   */
  @ParameterizedTest(name = "{0}")
  @CsvSource({"httproute-listener-not-matching-route-port, same-namespace, '', 81",
      "httproute-listener-not-matching-section-name, same-namespace, http1, 80",
      "httproute-listener-section-name-not-matching-port, gateway-with-one-not-matching-port-and-section-name-route,"
          + " http, 81"})
  void invalidParentRef_noMatchingParent(String name, String gw, String section, int port) {
    Gateway extra = gateway("gateway-with-one-not-matching-port-and-section-name-route",
        new Listener("http", "", 80, "HTTP", new AllowedRoutes(FromNamespaces.All, null, List.of("HTTPRoute")),
            List.of()));
    GatewayAttachment a = attach(List.of(extra), route(INFRA, name, List.of(parent(gw, section, port)), List.of(),
        rule(null, new HTTPBackendRef("", "Service", "infra-backend-v1", "", 8080, 1))));
    String r = INFRA + "/" + name;
    assertCondition(parentCondition(a, r, INFRA + "/" + gw, Conditions.ACCEPTED), false,
        Conditions.NO_MATCHING_PARENT);
    assertCondition(parentCondition(a, r, INFRA + "/" + gw, Conditions.RESOLVED_REFS), true, "");
    assertThat(noAcceptedParents(a, r)).isTrue();
    assertThat(totalAttached(a, INFRA + "/" + gw)).isZero();
  }

  private static final ReferenceGrant.To WEB_SERVICE = new ReferenceGrant.To("", "Service", "web-backend");
  private static final ReferenceGrant.From FROM_INFRA_ROUTES = new ReferenceGrant.From(Gateway.GROUP, "HTTPRoute",
      INFRA);

  private static HTTPRoute referenceGrantRoute() {
    return route(INFRA, "reference-grant", List.of(parent("same-namespace")), List.of(),
        rule(null, backend("web-backend", WEB)));
  }

  /** httproute-reference-grant.go / .yaml (and the 500 after deleting the grant). */
  @Test
  void referenceGrant_permitsCrossNamespaceBackend() {
    GatewayAttachment a = attach(List.of(), List.of(referenceGrantRoute()),
        List.of(grant(WEB, "reference-grant", FROM_INFRA_ROUTES, WEB_SERVICE)), List.of());
    assertCondition(parentCondition(a, INFRA + "/reference-grant", INFRA + "/same-namespace",
        Conditions.RESOLVED_REFS), true, "");
    assertThat(ask(a, "same-namespace", 80, "example.com", "/")).isEqualTo("web-backend");
    GatewayAttachment deleted = attach(List.of(), referenceGrantRoute());
    assertThat(ask(deleted, "same-namespace", 80, "example.com", "/")).isEqualTo("500");
  }

  /** httproute-invalid-reference-grant.go / .yaml: seven grants, each wrong in one field. */
  @Test
  void invalidReferenceGrants_refNotPermitted_500() {
    List<ReferenceGrant> grants = List.of(
        grant(INFRA, "reference-grant-wrong-namespace", FROM_INFRA_ROUTES, WEB_SERVICE),
        grant(WEB, "reference-grant-wrong-from-group",
            new ReferenceGrant.From("not-the-group-youre-looking-for", "HTTPRoute", INFRA), WEB_SERVICE),
        grant(WEB, "reference-grant-wrong-from-kind", new ReferenceGrant.From(Gateway.GROUP, "Gateway", INFRA),
            WEB_SERVICE),
        grant(WEB, "reference-grant-wrong-from-namespace",
            new ReferenceGrant.From(Gateway.GROUP, "HTTPRoute", "not-the-namespace-youre-looking-for"), WEB_SERVICE),
        grant(WEB, "reference-grant-wrong-to-group", FROM_INFRA_ROUTES,
            new ReferenceGrant.To("not-the-group-youre-looking-for", "Service", "web-backend")),
        grant(WEB, "reference-grant-wrong-to-kind", FROM_INFRA_ROUTES,
            new ReferenceGrant.To("", "Secret", "web-backend")),
        grant(WEB, "reference-grant-wrong-to-name", FROM_INFRA_ROUTES,
            new ReferenceGrant.To("", "Secret", "not-the-service-youre-looking-for")));
    GatewayAttachment a = attach(List.of(), List.of(referenceGrantRoute()), grants, List.of());
    assertCondition(parentCondition(a, INFRA + "/reference-grant", INFRA + "/same-namespace", Conditions.ACCEPTED),
        true, "");
    assertCondition(parentCondition(a, INFRA + "/reference-grant", INFRA + "/same-namespace",
        Conditions.RESOLVED_REFS), false, Conditions.REF_NOT_PERMITTED);
    assertThat(ask(a, "same-namespace", 80, "example.com", "/")).isEqualTo("500");
  }

  /** httproute-partially-invalid-via-invalid-reference-grant.go / .yaml. */
  @Test
  void partiallyInvalidViaReferenceGrant_siblingRuleStillServes() {
    GatewayAttachment a = attach(List.of(), List.of(route(INFRA, "invalid-reference-grant",
            List.of(parent("same-namespace")), List.of(), rule("/v2", backend("app-backend-v2", APP)),
            rule(null, backend("app-backend-v1", APP)))),
        List.of(grant(APP, "invalid-reference-grant", FROM_INFRA_ROUTES,
            new ReferenceGrant.To("", "Service", "app-backend-v1"))), List.of());
    assertCondition(parentCondition(a, INFRA + "/invalid-reference-grant", INFRA + "/same-namespace",
        Conditions.ACCEPTED), true, "");
    assertCondition(parentCondition(a, INFRA + "/invalid-reference-grant", INFRA + "/same-namespace",
        Conditions.RESOLVED_REFS), false, Conditions.REF_NOT_PERMITTED);
    assertThat(ask(a, "same-namespace", 80, "example.com", "/v2")).isEqualTo("500");
    assertThat(ask(a, "same-namespace", 80, "example.com", "/")).isEqualTo("app-backend-v1");
  }

  /** httproute-cross-namespace.go / .yaml: a Selector listener admits the labelled backend namespace. */
  @Test
  void crossNamespace_selectorListener_reachesWebBackend() {
    GatewayAttachment a = attach(List.of(), route(WEB, "cross-namespace", List.of(parent("backend-namespaces")),
        List.of(), rule(null, backend("web-backend"))));
    assertCondition(parentCondition(a, WEB + "/cross-namespace", INFRA + "/backend-namespaces", Conditions.ACCEPTED),
        true, "");
    assertCondition(parentCondition(a, WEB + "/cross-namespace", INFRA + "/backend-namespaces",
        Conditions.RESOLVED_REFS), true, "");
    assertThat(ask(a, "backend-namespaces", 80, "example.com", "/")).isEqualTo("web-backend");
  }

  /** httproute-disallowed-kind.go / .yaml. */
  @Test
  void disallowedKind_notAllowedByListeners() {
    GatewayAttachment a = attach(List.of(gateway("tlsroutes-only", new Listener("tls", "", 443, "TLS",
            new AllowedRoutes(FromNamespaces.Same, null, List.of("TLSRoute")), List.of()))),
        route(INFRA, "disallowed-kind", List.of(parent("tlsroutes-only")), List.of(),
            rule(null, backend("infra-backend-v1"))));
    String r = INFRA + "/disallowed-kind";
    assertCondition(parentCondition(a, r, INFRA + "/tlsroutes-only", Conditions.RESOLVED_REFS), true, "");
    assertCondition(parentCondition(a, r, INFRA + "/tlsroutes-only", Conditions.ACCEPTED), false,
        Conditions.NOT_ALLOWED_BY_LISTENERS);
    assertThat(noAcceptedParents(a, r)).isTrue();
    assertThat(totalAttached(a, INFRA + "/tlsroutes-only")).isZero();
  }

  /** gateway-invalid-route-kind.go / .yaml. */
  @Test
  void invalidRouteKind_resolvedRefsFalse_supportedKindsFiltered() {
    Listener only = new Listener("http", "", 80, "HTTP",
        new AllowedRoutes(FromNamespaces.All, null, List.of("InvalidRoute")), List.of());
    Listener both = only.withAllowedRoutes(new AllowedRoutes(FromNamespaces.All, null,
        List.of("InvalidRoute", "HTTPRoute")));
    GatewayAttachment a = attach(List.of(gateway("gateway-only-invalid-route-kind", only),
        gateway("gateway-supported-and-invalid-route-kind", both)));
    ListenerStatus l1 = a.gateway(INFRA + "/gateway-only-invalid-route-kind").listener("http");
    assertCondition(l1.condition(Conditions.RESOLVED_REFS), false, Conditions.INVALID_ROUTE_KINDS);
    assertThat(l1.supportedKinds()).isEmpty();
    assertThat(l1.attachedRoutes()).isZero();
    ListenerStatus l2 = a.gateway(INFRA + "/gateway-supported-and-invalid-route-kind").listener("http");
    assertCondition(l2.condition(Conditions.RESOLVED_REFS), false, Conditions.INVALID_ROUTE_KINDS);
    assertThat(l2.supportedKinds()).containsExactly(RouteGroupKind.of(HTTPRoute.KIND));
    assertThat(l2.attachedRoutes()).isZero();
  }

  /** httproute-matching-across-routes.go / .yaml. */
  @ParameterizedTest(name = "{0}{1} {2} -> {3}")
  @CsvSource({"example.com, /, '', v1", "example.com, /example, '', v1", "example.net, /example, '', v1",
      "example.com, /example, one, v1", "example.com, /v2, '', v2", "example.net, /v2, '', v1",
      "example.com, /v2/example, '', v2", "example.com, /, two, v2"})
  void matchingAcrossRoutes(String host, String path, String version, String expected) {
    HTTPRouteMatch headerOne = new HTTPRouteMatch(HTTPPathMatch.EVERYTHING, List.of(HTTPHeaderMatch.exact("version",
        "one")), List.of(), "");
    HTTPRouteMatch headerTwo = new HTTPRouteMatch(HTTPPathMatch.EVERYTHING, List.of(HTTPHeaderMatch.exact("version",
        "two")), List.of(), "");
    GatewayAttachment a = attach(List.of(),
        route(INFRA, "matching-part1", List.of(parent("same-namespace")), List.of("example.com", "example.net"),
            new HTTPRouteRule(List.of(HTTPRouteMatch.path(PathMatchType.PathPrefix, "/"), headerOne),
                List.of(backend("infra-backend-v1")))),
        route(INFRA, "matching-part2", List.of(parent("same-namespace")), List.of("example.com"),
            new HTTPRouteRule(List.of(HTTPRouteMatch.path(PathMatchType.PathPrefix, "/v2"), headerTwo),
                List.of(backend("infra-backend-v2")))));
    Map<String, String> headers = version == null || version.isEmpty() ? Map.of() : Map.of("Version", version);
    RouteResult res = new GatewayRouter(a).route(INFRA + "/same-namespace", 80,
        HttpRequest.of("GET", host, path, headers));
    assertThat(res.status()).isEqualTo(200);
    assertThat(res.service()).isEqualTo(INFRA + "/infra-backend-" + expected);
  }

  /** httproute-omitted-backendrefs.go / .yaml. */
  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource({"/forward, v1", "/omitted-no-forward, 500", "/empty-no-forward, 500"})
  void omittedBackendRefs_500(String path, String expected) {
    GatewayAttachment a = attach(List.of(), route(INFRA, "omitted-backendrefs", List.of(parent("same-namespace")),
        List.of(),
        new HTTPRouteRule(List.of(HTTPRouteMatch.path(PathMatchType.Exact, "/omitted-no-forward")), List.of()),
        new HTTPRouteRule(List.of(HTTPRouteMatch.path(PathMatchType.Exact, "/empty-no-forward")), List.of()),
        rule("/", backend("infra-backend-v1"))));
    assertCondition(parentCondition(a, INFRA + "/omitted-backendrefs", INFRA + "/same-namespace",
        Conditions.RESOLVED_REFS), true, "");
    assertThat(ask(a, "same-namespace", 80, "example.com", path)).isEqualTo(expected);
  }

  /** httproute-multiple-gateways.go / .yaml. */
  @ParameterizedTest(name = "{0}{1} -> {2}")
  @CsvSource({"same-namespace, /shared, v1", "same-namespace, /, v2", "all-namespaces, /shared, v1",
      "all-namespaces, /, v3"})
  void multipleGateways(String gateway, String path, String expected) {
    GatewayAttachment a = attach(List.of(),
        route(INFRA, "multiple-gateways-shared-route", List.of(parent("same-namespace"), parent("all-namespaces")),
            List.of(), rule("/shared", backend("infra-backend-v1"))),
        route(INFRA, "same-namespace-dedicated-route", List.of(parent("same-namespace")), List.of(),
            rule("/", backend("infra-backend-v2"))),
        route(INFRA, "all-namespaces-dedicated-route", List.of(parent("all-namespaces")), List.of(),
            rule("/", backend("infra-backend-v3"))));
    assertThat(a.route(INFRA + "/multiple-gateways-shared-route")).hasSize(2).allMatch(RouteParent::accepted);
    assertThat(ask(a, gateway, 80, "example.com", path)).isEqualTo(expected);
  }

  /** gateway-invalid-listeners-unsupported-protocol.go / .yaml. */
  @Test
  void unsupportedProtocol_listenerNotAccepted_gatewayAcceptedOnlyWithAValidListener() {
    Listener invalid = new Listener("invalid", "", 1111, "INVALID", AllowedRoutes.SAME_NAMESPACE, List.of());
    GatewayAttachment a = attach(List.of(gateway("gateway-only-unsupported-protocols", invalid),
        gateway("gateway-supported-and-unsupported-protocols", http("http", 80, "", FromNamespaces.Same), invalid)));
    GatewayStatus only = a.gateway(INFRA + "/gateway-only-unsupported-protocols");
    assertCondition(only.condition(Conditions.ACCEPTED), false, Conditions.LISTENERS_NOT_VALID);
    ListenerStatus l = only.listener("invalid");
    assertThat(l.supportedKinds()).isEmpty();
    assertThat(l.attachedRoutes()).isZero();
    assertCondition(l.condition(Conditions.ACCEPTED), false, Conditions.UNSUPPORTED_PROTOCOL);
    GatewayStatus both = a.gateway(INFRA + "/gateway-supported-and-unsupported-protocols");
    assertCondition(both.condition(Conditions.ACCEPTED), true, Conditions.LISTENERS_NOT_VALID);
    assertThat(both.listener("http").supportedKinds()).containsExactly(RouteGroupKind.of(HTTPRoute.KIND));
    assertCondition(both.listener("http").condition(Conditions.ACCEPTED), true, "Accepted");
    assertThat(both.listener("http").attachedRoutes()).isZero();
    assertCondition(both.listener("invalid").condition(Conditions.ACCEPTED), false, Conditions.UNSUPPORTED_PROTOCOL);
    assertThat(both.listener("invalid").supportedKinds()).isEmpty();
  }

  /**
   * gateway-http-listener-isolation.go with gateway-http-listener-isolation.yaml (routes without hostnames) and
   * gateway-http-listener-isolation-with-hostname-intersection.yaml (routes whose hostnames intersect the listeners').
   */
  @ParameterizedTest(name = "{0} {1}{2} -> {3}")
  @CsvSource({
      "false, bar.com, /empty-hostname, v1", "false, bar.com, /wildcard-example-com, 404",
      "false, bar.com, /wildcard-foo-example-com, 404", "false, bar.com, /abc-foo-example-com, 404",
      "false, bar.example.com, /empty-hostname, 404", "false, bar.example.com, /wildcard-example-com, v1",
      "false, bar.example.com, /wildcard-foo-example-com, 404", "false, bar.example.com, /abc-foo-example-com, 404",
      "false, bar.foo.example.com, /empty-hostname, 404", "false, bar.foo.example.com, /wildcard-example-com, 404",
      "false, bar.foo.example.com, /wildcard-foo-example-com, v1",
      "false, bar.foo.example.com, /abc-foo-example-com, 404",
      "false, abc.foo.example.com, /empty-hostname, 404", "false, abc.foo.example.com, /wildcard-example-com, 404",
      "false, abc.foo.example.com, /wildcard-foo-example-com, 404",
      "false, abc.foo.example.com, /abc-foo-example-com, v1",
      "true, bar.com, /empty-hostname, v1", "true, bar.com, /wildcard-example-com, 404",
      "true, bar.com, /wildcard-foo-example-com, 404", "true, bar.com, /abc-foo-example-com, 404",
      "true, bar.example.com, /empty-hostname, 404", "true, bar.example.com, /wildcard-example-com, v1",
      "true, bar.example.com, /wildcard-foo-example-com, 404", "true, bar.example.com, /abc-foo-example-com, 404",
      "true, bar.foo.example.com, /empty-hostname, 404", "true, bar.foo.example.com, /wildcard-example-com, 404",
      "true, bar.foo.example.com, /wildcard-foo-example-com, v1",
      "true, bar.foo.example.com, /abc-foo-example-com, 404",
      "true, abc.foo.example.com, /empty-hostname, 404", "true, abc.foo.example.com, /wildcard-example-com, 404",
      "true, abc.foo.example.com, /wildcard-foo-example-com, 404",
      "true, abc.foo.example.com, /abc-foo-example-com, v1"})
  void httpListenerIsolation(boolean withHostnames, String host, String path, String expected) {
    String gw = "http-listener-isolation";
    List<String> hosts = withHostnames ? List.of("bar.com", "*.example.com", "*.foo.example.com",
        "abc.foo.example.com") : List.of();
    String[][] listeners = {{"empty-hostname", ""}, {"wildcard-example-com", "*.example.com"},
        {"wildcard-foo-example-com", "*.foo.example.com"}, {"abc-foo-example-com", "abc.foo.example.com"}};
    Listener[] ls = new Listener[4];
    HTTPRoute[] rs = new HTTPRoute[4];
    for (int i = 0; i < 4; i++) {
      ls[i] = http(listeners[i][0], 80, listeners[i][1], FromNamespaces.All);
      rs[i] = route(INFRA, "attaches-to-" + listeners[i][0], List.of(parent(gw, listeners[i][0], null)), hosts,
          rule("/" + listeners[i][0], backend("infra-backend-v1")));
    }
    GatewayAttachment a = attach(List.of(gateway(gw, ls)), rs);
    for (HTTPRoute r : rs) {
      assertThat(a.route(r.metadata().key())).allMatch(RouteParent::accepted);
    }
    assertThat(ask(a, gw, 80, host, path)).isEqualTo(expected);
  }

  /** httproute-simple-same-namespace.go / .yaml. */
  @Test
  void simpleSameNamespace_acceptedResolvedAndServed() {
    GatewayAttachment a = attach(List.of(), route(INFRA, "gateway-conformance-infra-test",
        List.of(parent("same-namespace")), List.of(), rule(null, backend("infra-backend-v1"))));
    String r = INFRA + "/gateway-conformance-infra-test";
    assertCondition(parentCondition(a, r, INFRA + "/same-namespace", Conditions.ACCEPTED), true, "Accepted");
    assertCondition(parentCondition(a, r, INFRA + "/same-namespace", Conditions.RESOLVED_REFS), true, "");
    assertThat(a.gateway(INFRA + "/same-namespace").listener("http").attachedRoutes()).isEqualTo(1);
    assertThat(ask(a, "same-namespace", 80, "example.com", "/")).isEqualTo("v1");
  }
}
