package io.fleetkit.networking.routing;

import static io.fleetkit.networking.routing.GatewayFilterConformanceTest.get;
import static io.fleetkit.networking.routing.GatewayFilterConformanceTest.map;
import static io.fleetkit.networking.routing.GatewayFilterConformanceTest.rule;
import static io.fleetkit.networking.routing.GatewayFilterConformanceTest.sameNamespaceRoute;
import static io.fleetkit.networking.routing.GatewayFixtures.INFRA;
import static io.fleetkit.networking.routing.GatewayFixtures.WEB;
import static io.fleetkit.networking.routing.GatewayFixtures.attach;
import static io.fleetkit.networking.routing.GatewayFixtures.backend;
import static io.fleetkit.networking.routing.GatewayFixtures.grant;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.gateway.BackendObjectReference;
import io.fleetkit.api.gateway.Gateway;
import io.fleetkit.api.gateway.HTTPRequestMirrorFilter;
import io.fleetkit.api.gateway.HTTPRoute;
import io.fleetkit.api.gateway.HTTPRouteFilter;
import io.fleetkit.api.gateway.ReferenceGrant;
import io.fleetkit.api.meta.Condition;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.networking.gateway.Conditions;
import io.fleetkit.networking.gateway.GatewayAttachment;
import io.fleetkit.networking.gateway.RouteParent;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * ResolvedRefs for the {@code backendRef} of {@code RequestMirror} filters, in a rule's filters and in
 * {@code backendRefs[].filters}: the API's rule on {@code HTTPRequestMirrorFilter.backendRef} (kubernetes-sigs/gateway-api
 * {@code apis/v1/httproute_types.go}, commit 4564255a): a referent that cannot be found makes the route's ResolvedRefs
 * False (BackendNotFound here, as for a backendRef), a cross-namespace reference without a ReferenceGrant makes it
 * False with RefNotPermitted, and in either case the backend is not configured: the mirror sends no copies. The
 * request itself is still forwarded (the route stays Accepted). upstream's conformance suite has no case for an
 * unresolved mirror; its mirror cases (valid references, ResolvedRefs True) are in
 * {@link GatewayExtendedFilterConformanceTest}.
 */
final class GatewayMirrorRefsTest {
  private static final String ROUTE = "mirror-refs";

  private static HTTPRouteFilter mirrorTo(String service, String namespace, int port) {
    return HTTPRouteFilter.requestMirror(HTTPRequestMirrorFilter.of(BackendObjectReference.service(service,
        namespace, port)));
  }

  private static HTTPRoute route(List<HTTPRouteFilter> ruleFilters) {
    return sameNamespaceRoute(ROUTE, rule("/", ruleFilters, backend("infra-backend-v1", INFRA)));
  }

  private static Condition resolvedRefs(GatewayAttachment a) {
    List<RouteParent> parents = a.route(INFRA + "/" + ROUTE);
    assertThat(parents).hasSize(1);
    assertThat(parents.get(0).accepted()).as("the route stays accepted").isTrue();
    return parents.get(0).status().condition(Conditions.RESOLVED_REFS);
  }

  private static void assertResolvedRefs(GatewayAttachment a, boolean status, String reason, String... messageParts) {
    Condition c = resolvedRefs(a);
    assertThat(c.status()).as(c.toString()).isEqualTo(status ? ConditionStatus.True : ConditionStatus.False);
    assertThat(c.reason()).as(c.toString()).isEqualTo(reason);
    if (messageParts.length > 0) {
      assertThat(c.message()).contains(messageParts);
    } else if (status) {
      assertThat(c.message()).isEmpty();
    }
  }

  /** The request reaches infra-backend-v1 and the mirrors (service:port) are exactly {@code mirrors}. */
  private static void assertServed(GatewayAttachment a, String... mirrors) {
    RouteResult r = get(a, "/", map());
    assertThat(r.status()).as(r.toString()).isEqualTo(200);
    assertThat(r.service()).isEqualTo(INFRA + "/infra-backend-v1");
    assertThat(r.mirrors()).extracting(m -> m.service() + ":" + m.port()).containsExactly(mirrors);
  }

  @Test
  void ruleMirror_missingService_backendNotFound_noCopies() {
    HTTPRoute r = route(List.of(mirrorTo("nonexistent", "", 8080)));
    GatewayAttachment a = attach(List.of(), r);
    assertResolvedRefs(a, false, Conditions.BACKEND_NOT_FOUND,
        "rule 0 RequestMirror filter 0: mirror backend Service " + INFRA + "/nonexistent not found");
    assertThat(a.mirrorProblem(r, 0, -1, 0)).startsWith(Conditions.BACKEND_NOT_FOUND + ": ");
    assertThat(a.backendProblem(r, 0, 0)).as("the forwarding backend is fine").isNull();
    assertServed(a);
  }

  @Test
  void ruleMirror_otherNamespaceWithoutGrant_refNotPermitted_noCopies() {
    GatewayAttachment a = attach(List.of(), route(List.of(mirrorTo("web-backend", WEB, 8080))));
    assertResolvedRefs(a, false, Conditions.REF_NOT_PERMITTED, "mirror backend Service " + WEB + "/web-backend",
        "no ReferenceGrant in " + WEB);
    assertServed(a);
  }

  @Test
  void ruleMirror_otherNamespaceWithGrant_resolved_mirrored() {
    GatewayAttachment a = attach(List.of(), List.of(route(List.of(mirrorTo("web-backend", WEB, 8080)))),
        List.of(grant(WEB, "mirror", new ReferenceGrant.From(Gateway.GROUP, "HTTPRoute", INFRA),
            new ReferenceGrant.To("", "Service", "web-backend"))), List.of());
    assertResolvedRefs(a, true, "ResolvedRefs");
    assertServed(a, WEB + "/web-backend:8080");
  }

  @Test
  void ruleMirror_grantForAnotherService_refNotPermitted() {
    GatewayAttachment a = attach(List.of(), List.of(route(List.of(mirrorTo("web-backend", WEB, 8080)))),
        List.of(grant(WEB, "mirror", new ReferenceGrant.From(Gateway.GROUP, "HTTPRoute", INFRA),
            new ReferenceGrant.To("", "Service", "another-service"))), List.of());
    assertResolvedRefs(a, false, Conditions.REF_NOT_PERMITTED);
    assertServed(a);
  }

  @Test
  void backendMirror_missingService_backendNotFound_noCopies() {
    HTTPRoute r = sameNamespaceRoute(ROUTE, rule("/", List.of(),
        backend("infra-backend-v1", INFRA).withFilters(List.of(mirrorTo("nonexistent", INFRA, 8080)))));
    GatewayAttachment a = attach(List.of(), r);
    assertResolvedRefs(a, false, Conditions.BACKEND_NOT_FOUND,
        "rule 0 backend 0 RequestMirror filter 0: mirror backend Service " + INFRA + "/nonexistent not found");
    assertThat(a.mirrorProblem(r, 0, 0, 0)).startsWith(Conditions.BACKEND_NOT_FOUND + ": ");
    assertThat(a.mirrorProblem(r, 0, -1, 0)).isNull();
    assertServed(a);
  }

  @Test
  void backendMirror_otherNamespaceWithoutGrant_refNotPermitted() {
    HTTPRoute r = sameNamespaceRoute(ROUTE, rule("/", List.of(),
        backend("infra-backend-v1", INFRA).withFilters(List.of(mirrorTo("web-backend", WEB, 8080)))));
    GatewayAttachment a = attach(List.of(), r);
    assertResolvedRefs(a, false, Conditions.REF_NOT_PERMITTED, "rule 0 backend 0 RequestMirror filter 0");
    assertServed(a);
  }

  @Test
  void ruleMirror_portTheServiceLacks_backendNotFound() {
    GatewayAttachment a = attach(List.of(), route(List.of(mirrorTo("infra-backend-v2", "", 9999))));
    assertResolvedRefs(a, false, Conditions.BACKEND_NOT_FOUND, INFRA + "/infra-backend-v2 has no port 9999");
    assertServed(a);
  }

  @Test
  void ruleMirror_unknownKind_invalidKind() {
    HTTPRouteFilter f = HTTPRouteFilter.requestMirror(HTTPRequestMirrorFilter.of(new BackendObjectReference(
        "unknownkind.example.com", "NonExistent", "infra-backend-v2", "", 8080)));
    GatewayAttachment a = attach(List.of(), route(List.of(f)));
    assertResolvedRefs(a, false, Conditions.INVALID_KIND, "only Service backends are supported");
    assertServed(a);
  }

  /** Only the unresolved mirror is dropped; the other still gets its copies, in filter order. */
  @Test
  void twoMirrors_oneUnresolved_theOtherStillMirrors() {
    HTTPRoute r = route(List.of(mirrorTo("nonexistent", "", 8080), mirrorTo("infra-backend-v2", "", 8080)));
    GatewayAttachment a = attach(List.of(), r);
    assertResolvedRefs(a, false, Conditions.BACKEND_NOT_FOUND, "filter 0");
    assertThat(resolvedRefs(a).message()).doesNotContain("filter 1");
    assertThat(a.mirrorProblem(r, 0, -1, 0)).isNotNull();
    assertThat(a.mirrorProblem(r, 0, -1, 1)).isNull();
    assertServed(a, INFRA + "/infra-backend-v2:8080");
    assertThat(get(a, "/", map()).message()).contains("unresolved mirrors dropped");
  }

  /** A backend's problem and a mirror's: the backends come first (the reason), every message is kept. */
  @Test
  void backendAndMirrorProblems_backendReasonFirst_bothMessages() {
    HTTPRoute r = sameNamespaceRoute(ROUTE, rule("/", List.of(mirrorTo("nonexistent", "", 8080)),
        backend("web-backend", WEB)));
    GatewayAttachment a = attach(List.of(), r);
    Condition c = resolvedRefs(a);
    assertThat(c.status()).isEqualTo(ConditionStatus.False);
    assertThat(c.reason()).isEqualTo(Conditions.REF_NOT_PERMITTED);
    assertThat(c.message()).contains("backend Service " + WEB + "/web-backend").contains(INFRA + "/nonexistent");
    assertThat(get(a, "/", map()).status()).isEqualTo(500);
  }

  /** A valid mirror of each kind resolves: ResolvedRefs True, copies sent (the conformance yamls' shape). */
  @Test
  void validMirrors_ruleAndBackend_resolved() {
    HTTPRoute r = sameNamespaceRoute(ROUTE, rule("/", List.of(mirrorTo("infra-backend-v2", "", 8080)),
        backend("infra-backend-v1", INFRA).withFilters(List.of(mirrorTo("infra-backend-v3", INFRA, 8080)))));
    GatewayAttachment a = attach(List.of(), r);
    assertResolvedRefs(a, true, "ResolvedRefs");
    assertServed(a, INFRA + "/infra-backend-v2:8080", INFRA + "/infra-backend-v3:8080");
  }
}
