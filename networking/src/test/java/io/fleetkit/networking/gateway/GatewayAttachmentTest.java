package io.fleetkit.networking.gateway;

import static io.fleetkit.networking.gateway.StatusConformance.CLASS;
import static io.fleetkit.networking.gateway.StatusConformance.INFRA;
import static io.fleetkit.networking.gateway.StatusConformance.gateway;
import static io.fleetkit.networking.gateway.StatusConformance.http;
import static io.fleetkit.networking.gateway.StatusConformance.route;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.core.Service;
import io.fleetkit.api.core.ServicePort;
import io.fleetkit.api.core.ServiceSpec;
import io.fleetkit.api.gateway.FromNamespaces;
import io.fleetkit.api.gateway.GatewayClass;
import io.fleetkit.api.gateway.GatewayStatus;
import io.fleetkit.api.gateway.HTTPRoute;
import io.fleetkit.api.gateway.ParentReference;
import io.fleetkit.api.gateway.RouteGroupKind;
import io.fleetkit.api.meta.Condition;
import io.fleetkit.api.meta.ObjectMeta;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What {@link GatewayAttachment} hands out: the API's status types, keyed by the objects' {@code namespace/name}. */
final class GatewayAttachmentTest {
  private static final ParentReference GW = new ParentReference("gw", "", "");
  private static final ParentReference MISSING = new ParentReference("missing", "", "");

  private static GatewayObjects objects(List<HTTPRoute> routes) {
    return new GatewayObjects(List.of(new GatewayClass(ObjectMeta.of(CLASS), "example.com/gateway")),
        List.of(gateway("gw", http("http", "", 80, FromNamespaces.Same))), routes,
        List.of(Service.of(ObjectMeta.of(INFRA, "backend"), ServiceSpec.builder().port(ServicePort.of(8080)).build())),
        List.of(), List.of(), List.of());
  }

  @Test
  void compute_withoutControllerName_routeParentsInTheDefaultControllersName() {
    GatewayAttachment a = GatewayAttachment.compute(objects(List.of(route("r", GW, "backend"))));
    assertThat(a.route(INFRA + "/r")).singleElement().satisfies(p -> {
      assertThat(p.route()).isEqualTo(INFRA + "/r");
      assertThat(p.gateway()).isEqualTo(INFRA + "/gw");
      assertThat(p.accepted()).isTrue();
      assertThat(p.status().parentRef()).isEqualTo(GW);
      assertThat(p.status().controllerName()).isEqualTo(GatewayStatusController.DEFAULT_CONTROLLER_NAME);
    });
  }

  @Test
  void compute_withControllerName_everyRouteParentCarriesIt_foundOrNot() {
    GatewayAttachment a = GatewayAttachment.compute(objects(List.of(route("r", GW, "backend"),
        route("lost", MISSING, "backend"))), "example.com/gateway");
    assertThat(a.routes()).extracting(p -> p.status().controllerName()).containsOnly("example.com/gateway");
    RouteParent lost = a.route(INFRA + "/lost").get(0);
    assertThat(lost.gateway()).isEqualTo(INFRA + "/missing");
    assertThat(lost.accepted()).isFalse();
    assertThat(lost.status().condition(Conditions.ACCEPTED).reason()).isEqualTo(Conditions.NO_MATCHING_PARENT);
  }

  @Test
  void gateways_byKey_listenersWithGroupedKinds_conditionsNotYetStamped() {
    GatewayAttachment a = GatewayAttachment.compute(objects(List.of(route("r", GW, "backend"))));
    assertThat(a.gateways()).containsOnlyKeys(INFRA + "/gw");
    GatewayStatus g = a.gateway(INFRA + "/gw");
    assertThat(a.gateways().get(INFRA + "/gw")).isSameAs(g);
    assertThat(g.listener("http").supportedKinds()).containsExactly(RouteGroupKind.of(HTTPRoute.KIND));
    assertThat(g.listener("http").attachedRoutes()).isEqualTo(1);
    assertThat(g.conditions()).extracting(Condition::type)
        .containsExactly(Conditions.ACCEPTED, Conditions.PROGRAMMED, Conditions.RESOLVED_REFS);
    assertThat(g.conditions()).allSatisfy(c -> {
      assertThat(c.observedGeneration()).isZero();
      assertThat(c.lastTransitionTime()).isNull();
    });
    assertThat(a.gateway(INFRA + "/other")).isNull();
  }

  @Test
  void results_areUnmodifiable() {
    GatewayAttachment a = GatewayAttachment.compute(objects(List.of(route("r", GW, "backend"))));
    assertThatThrownBy(() -> a.route(INFRA + "/r").clear()).isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> a.gateways().clear()).isInstanceOf(UnsupportedOperationException.class);
  }
}
