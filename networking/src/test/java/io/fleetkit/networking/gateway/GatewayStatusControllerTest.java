package io.fleetkit.networking.gateway;

import static io.fleetkit.networking.gateway.StatusConformance.CLASS;
import static io.fleetkit.networking.gateway.StatusConformance.INFRA;
import static io.fleetkit.networking.gateway.StatusConformance.gateway;
import static io.fleetkit.networking.gateway.StatusConformance.http;
import static io.fleetkit.networking.gateway.StatusConformance.route;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.core.Service;
import io.fleetkit.api.gateway.FromNamespaces;
import io.fleetkit.api.gateway.Gateway;
import io.fleetkit.api.gateway.GatewayClass;
import io.fleetkit.api.gateway.GatewaySpec;
import io.fleetkit.api.gateway.HTTPRoute;
import io.fleetkit.api.gateway.HTTPRouteSpec;
import io.fleetkit.api.gateway.HTTPRouteStatus;
import io.fleetkit.api.gateway.ParentReference;
import io.fleetkit.api.gateway.RouteParentStatus;
import io.fleetkit.api.meta.Condition;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.store.ObjectStore;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The status controller's own rules: it writes only what changed, keeps a condition's transition time while its status
 * holds, serves only its own GatewayClasses and keeps other controllers' route parents.
 */
final class GatewayStatusControllerTest {
  private final StatusConformance s = new StatusConformance();

  @AfterEach
  void close() {
    s.close();
  }

  private static final ParentReference SAME = new ParentReference("same-namespace", "", "");

  @Test
  void settled_changeNoStatusDependsOn_syncsWithoutWriting() {
    s.store.create(route("r", SAME, "infra-backend-v1"));
    s.settle();
    long writes = s.controller.statusWrites();
    String version = s.store.resourceVersion();
    long syncs = s.controller.syncs();

    Service svc = s.store.require(Service.class, INFRA, "infra-backend-v3");
    s.store.update(svc.withMetadata(svc.metadata().withLabels(Map.of("touched", "yes"))));
    s.settle();

    assertThat(s.controller.syncs()).isEqualTo(syncs + 1);
    assertThat(s.controller.statusWrites()).isEqualTo(writes);
    assertThat(Long.parseLong(s.store.resourceVersion())).isEqualTo(Long.parseLong(version) + 1);
  }

  @Test
  void ownStatusWrites_doNotSyncAgain() {
    s.store.create(route("r", SAME, "infra-backend-v1"));
    // one sync for the route's event; the writes it makes (the route's and the Gateway's status) queue nothing that
    // syncs again
    long syncs = s.controller.syncs();
    s.settle();
    assertThat(s.controller.syncs()).isEqualTo(syncs + 1);
    assertThat(s.route("r").status().parents()).hasSize(1);
  }

  @Test
  void lastTransitionTime_keptWhileTheStatusHolds_newWhenItChanges() {
    s.store.create(route("r", SAME, "infra-backend-v1"));
    s.settle();
    Instant first = resolvedRefs().lastTransitionTime();
    assertThat(first).isEqualTo(s.clock.instant());

    s.clock.advance(Duration.ofMinutes(5));
    HTTPRoute r = s.route("r");
    s.store.update(new HTTPRoute(r.metadata(), new HTTPRouteSpec(r.spec().parentRefs(), List.of("a.example.com"),
        r.spec().rules())));
    s.settle();
    assertThat(resolvedRefs().observedGeneration()).isEqualTo(2);
    assertThat(resolvedRefs().lastTransitionTime()).as("status still True").isEqualTo(first);

    s.clock.advance(Duration.ofMinutes(5));
    s.store.delete(Service.class, INFRA, "infra-backend-v1");
    s.settle();
    assertThat(resolvedRefs().status()).isEqualTo(ConditionStatus.False);
    assertThat(resolvedRefs().reason()).isEqualTo(Conditions.BACKEND_NOT_FOUND);
    assertThat(resolvedRefs().lastTransitionTime()).isEqualTo(s.clock.instant());
  }

  private Condition resolvedRefs() {
    return s.route("r").status().parent(SAME, GatewayStatusController.DEFAULT_CONTROLLER_NAME)
        .condition(Conditions.RESOLVED_REFS);
  }

  @Test
  void otherControllersClassAndParents_leftAlone() {
    s.store.create(new GatewayClass(ObjectMeta.of("theirs"), "example.com/other-controller"));
    s.store.create(new Gateway(ObjectMeta.of(INFRA, "their-gateway"), new GatewaySpec("theirs",
        List.of(http("http", "", 80, FromNamespaces.Same)))));
    ParentReference theirs = new ParentReference("their-gateway", "", "");
    HTTPRoute r = s.store.create(new HTTPRoute(ObjectMeta.of(INFRA, "both"), new HTTPRouteSpec(List.of(SAME, theirs),
        List.of(), List.of())));
    RouteParentStatus written = new RouteParentStatus(theirs, "example.com/other-controller",
        List.of(new Condition(Conditions.ACCEPTED, ConditionStatus.True, 1, null, "Accepted", "")));
    s.store.updateStatus(r.withStatus(new HTTPRouteStatus(List.of(written))));
    s.settle();

    assertThat(s.store.require(GatewayClass.class, "", "theirs").status().conditions()).isEmpty();
    assertThat(s.gateway("their-gateway").status().conditions()).isEmpty();
    HTTPRouteStatus status = s.route("both").status();
    assertThat(status.parents()).hasSize(2).contains(written);
    assertThat(status.parent(SAME, GatewayStatusController.DEFAULT_CONTROLLER_NAME)).isNotNull();
    assertThat(status.parent(theirs, GatewayStatusController.DEFAULT_CONTROLLER_NAME)).isNull();
    assertThat(s.store.require(GatewayClass.class, "", CLASS).status().condition(Conditions.ACCEPTED).isTrue())
        .isTrue();
  }

  @Test
  void parentRefRemoved_itsEntryRemoved() {
    s.store.create(gateway("second", http("http", "", 80, FromNamespaces.Same)));
    ParentReference second = new ParentReference("second", "", "");
    s.store.create(new HTTPRoute(ObjectMeta.of(INFRA, "r"), new HTTPRouteSpec(List.of(SAME, second), List.of(),
        List.of())));
    s.settle();
    assertThat(s.route("r").status().parents()).extracting(p -> p.parentRef().name())
        .containsExactly("same-namespace", "second");
    assertThat(s.gateway("second").status().listener("http").attachedRoutes()).isEqualTo(1);

    HTTPRoute r = s.route("r");
    s.store.update(new HTTPRoute(r.metadata(), new HTTPRouteSpec(List.of(SAME), List.of(), List.of())));
    s.settle();
    assertThat(s.route("r").status().parents()).extracting(p -> p.parentRef().name())
        .containsExactly("same-namespace");
    assertThat(s.gateway("second").status().listener("http").attachedRoutes()).isZero();
  }

  @Test
  void gatewayDeleted_routeEntryForItRemoved() {
    s.store.create(route("r", SAME, "infra-backend-v1"));
    s.settle();
    s.store.delete(Gateway.class, INFRA, "same-namespace");
    s.settle();
    assertThat(s.route("r").status().parents()).isEmpty();
  }

  @Test
  void threaded_writesStatusWithoutStepping() throws InterruptedException {
    try (ObjectStore store = ObjectStore.inMemory();
         GatewayStatusController c = GatewayStatusController.builder(store).build()) {
      store.create(new GatewayClass(ObjectMeta.of(CLASS), GatewayStatusController.DEFAULT_CONTROLLER_NAME));
      c.start().join();
      store.create(gateway("g", http("http", "", 80, FromNamespaces.Same)));
      long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
      while (store.require(Gateway.class, INFRA, "g").status().conditions().isEmpty()
          && System.nanoTime() < deadline) {
        Thread.sleep(5);
      }
      Gateway g = store.require(Gateway.class, INFRA, "g");
      assertThat(g.status().condition(Conditions.PROGRAMMED)).isNotNull();
      assertThat(g.status().condition(Conditions.PROGRAMMED).isTrue()).isTrue();
    }
  }

  @Test
  void builder_controllerNameNotDomainPrefixed_refused() {
    assertThatThrownBy(() -> GatewayStatusController.builder(s.store).controllerName("gateway"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("controllerName must be a domain-prefixed path").hasMessageContaining("\"gateway\"");
  }
}
