package io.fleetkit.networking.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Namespace;
import io.fleetkit.api.core.Service;
import io.fleetkit.api.core.ServicePort;
import io.fleetkit.api.core.ServiceSpec;
import io.fleetkit.api.gateway.AllowedRoutes;
import io.fleetkit.api.gateway.FromNamespaces;
import io.fleetkit.api.gateway.Gateway;
import io.fleetkit.api.gateway.GatewayClass;
import io.fleetkit.api.gateway.GatewaySpec;
import io.fleetkit.api.gateway.HTTPBackendRef;
import io.fleetkit.api.gateway.HTTPRoute;
import io.fleetkit.api.gateway.HTTPRouteRule;
import io.fleetkit.api.gateway.HTTPRouteSpec;
import io.fleetkit.api.gateway.Listener;
import io.fleetkit.api.gateway.ListenerStatus;
import io.fleetkit.api.gateway.ParentReference;
import io.fleetkit.api.gateway.RouteGroupKind;
import io.fleetkit.api.gateway.RouteParentStatus;
import io.fleetkit.api.gateway.SecretObjectReference;
import io.fleetkit.api.meta.Condition;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import java.util.List;
import java.util.Map;

/**
 * A store holding the objects of kubernetes-sigs/gateway-api {@code conformance/base/manifests.yaml} the status cases
 * use (the three namespaces, the infra backends, the Gateway {@code same-namespace}) and the two certificate Secrets
 * the suite creates ({@code certificate} in the web-backend namespace, {@code tls-validity-checks-certificate} in the
 * infra namespace; {@code conformance/utils/suite/suite.go}), with a stepping {@link GatewayStatusController} on it;
 * and the suite's status checks ({@code conformance/utils/kubernetes/helpers.go}) on the stored objects.
 */
final class StatusConformance implements AutoCloseable {
  static final String INFRA = "gateway-conformance-infra";
  static final String WEB = "gateway-conformance-web-backend";
  static final String APP = "gateway-conformance-app-backend";
  static final String CLASS = "gateway-conformance";
  static final String HTTP_ROUTE = "HTTPRoute";

  final ManualClock clock = ManualClock.atEpoch2026();
  final ObjectStore store = ObjectStore.builder().directDelivery().build();
  final GatewayStatusController controller;

  StatusConformance() {
    store.create(new GatewayClass(ObjectMeta.of(CLASS), GatewayStatusController.DEFAULT_CONTROLLER_NAME));
    store.create(Namespace.of(INFRA, Map.of("gateway-conformance", "infra")));
    store.create(Namespace.of(WEB, Map.of("gateway-conformance", "backend")));
    store.create(Namespace.of(APP, Map.of("gateway-conformance", "backend")));
    for (String s : List.of("infra-backend-v1", "infra-backend-v2", "infra-backend-v3")) {
      store.create(Service.of(ObjectMeta.of(INFRA, s), ServiceSpec.builder().port(ServicePort.of(8080)).build()));
    }
    store.create(TestCertificates.tls(WEB, "certificate"));
    store.create(TestCertificates.tls(INFRA, "tls-validity-checks-certificate"));
    store.create(gateway("same-namespace", http("http", "", 80, FromNamespaces.Same)));
    controller = GatewayStatusController.builder(store).clock(clock).stepping().build();
    controller.start().join();
    controller.runUntilIdle();
  }

  /** Applies what the steps wrote: reconciles until idle. */
  int settle() {
    return controller.runUntilIdle();
  }

  static Listener http(String name, String hostname, int port, FromNamespaces from) {
    return new Listener(name, hostname, port, "HTTP", new AllowedRoutes(from, null, List.of()), List.of());
  }

  static Listener https(String name, String hostname, SecretObjectReference... certs) {
    return new Listener(name, hostname, 443, "HTTPS", new AllowedRoutes(FromNamespaces.All, null, List.of()),
        List.of(certs));
  }

  static Gateway gateway(String name, Listener... listeners) {
    return new Gateway(ObjectMeta.of(INFRA, name), new GatewaySpec(CLASS, List.of(listeners)));
  }

  /** A route in the infra namespace with one rule forwarding to {@code backend} port 8080. */
  static HTTPRoute route(String name, ParentReference parent, String backend) {
    return new HTTPRoute(ObjectMeta.of(INFRA, name), new HTTPRouteSpec(List.of(parent), List.of(),
        List.of(new HTTPRouteRule(List.of(), List.of(new HTTPBackendRef(backend, "", 8080, 1))))));
  }

  Gateway gateway(String name) {
    return store.require(Gateway.class, INFRA, name);
  }

  HTTPRoute route(String name) {
    return store.require(HTTPRoute.class, INFRA, name);
  }

  /** An expected condition: {@code reason} empty for any reason, as upstream's {@code findConditionInList}. */
  record Cond(String type, ConditionStatus status, String reason) {}

  static Cond cond(String type, boolean status, String reason) {
    return new Cond(type, status ? ConditionStatus.True : ConditionStatus.False, reason);
  }

  /** An expected listener status, as upstream's {@code v1.ListenerStatus} literals. */
  record ExpectedListener(String name, List<RouteGroupKind> supportedKinds, int attachedRoutes, List<Cond> conditions) {}

  static ExpectedListener listener(String name, int attachedRoutes, Cond... conditions) {
    return new ExpectedListener(name, List.of(RouteGroupKind.of(HTTP_ROUTE)), attachedRoutes, List.of(conditions));
  }

  /** {@code ConditionsHaveLatestObservedGeneration}: every condition has the object's generation. */
  static void conditionsHaveLatestObservedGeneration(ObjectMeta m, List<Condition> conditions) {
    assertThat(conditions).as("conditions of %s", m.key()).isNotEmpty()
        .allSatisfy(c -> assertThat(c.observedGeneration()).as("%s observedGeneration of %s", c.type(), m.key())
            .isEqualTo(m.generation()));
  }

  /** {@code findConditionInList}: a condition of the type with the status and (unless empty) the reason. */
  static void conditionsMatch(String what, List<Condition> actual, List<Cond> expected) {
    for (Cond e : expected) {
      assertThat(actual).as("%s: %s", what, e).anySatisfy(c -> {
        assertThat(c.type()).isEqualTo(e.type());
        assertThat(c.status()).isEqualTo(e.status());
        if (!e.reason().isEmpty()) {
          assertThat(c.reason()).isEqualTo(e.reason());
        }
      });
    }
  }

  /**
   * {@code GatewayStatusMustHaveListeners}: the Gateway's conditions are of its generation; it has exactly the
   * expected listeners, each with the expected kinds among its supported kinds, the expected attached routes and
   * conditions. Beyond upstream: each listener condition also has the Gateway's generation.
   */
  void gatewayStatusMustHaveListeners(String gateway, ExpectedListener... expected) {
    Gateway g = gateway(gateway);
    conditionsHaveLatestObservedGeneration(g.metadata(), g.status().conditions());
    assertThat(g.status().listeners()).as("listeners of %s", gateway).hasSize(expected.length);
    for (ExpectedListener e : expected) {
      ListenerStatus l = g.status().listener(e.name());
      assertThat(l).as("status of listener %s of %s", e.name(), gateway).isNotNull();
      assertThat(l.supportedKinds()).containsAll(e.supportedKinds());
      assertThat(l.attachedRoutes()).as("attachedRoutes of %s", e.name()).isEqualTo(e.attachedRoutes());
      conditionsMatch("listener " + e.name() + " of " + gateway, l.conditions(), e.conditions());
      conditionsHaveLatestObservedGeneration(g.metadata(), l.conditions());
    }
  }

  /** {@code GatewayMustHaveLatestConditions}. */
  void gatewayMustHaveLatestConditions(String gateway) {
    Gateway g = gateway(gateway);
    conditionsHaveLatestObservedGeneration(g.metadata(), g.status().conditions());
  }

  /**
   * {@code NamespacesMustBeReady} for the Gateways (the suite also waits for pods, which FleetKit's store does not
   * run here): every Gateway of the namespace not annotated {@code gateway-api/skip-this-for-readiness} has
   * conditions of its generation and is Accepted and Programmed.
   */
  void namespaceGatewaysMustBeReady(String namespace) {
    for (Gateway g : store.list(Gateway.class, namespace).items()) {
      if ("true".equals(g.metadata().annotations().get("gateway-api/skip-this-for-readiness"))) {
        continue;
      }
      conditionsHaveLatestObservedGeneration(g.metadata(), g.status().conditions());
      conditionsMatch("Gateway " + g.metadata().key(), g.status().conditions(),
          List.of(cond(Conditions.ACCEPTED, true, ""), cond(Conditions.PROGRAMMED, true, "")));
    }
  }

  /** {@code HTTPRouteMustHaveLatestConditions}: every parent's conditions are of the route's generation. */
  void httpRouteMustHaveLatestConditions(String route) {
    HTTPRoute r = route(route);
    assertThat(r.status().parents()).as("parents of %s", route).isNotEmpty();
    for (RouteParentStatus p : r.status().parents()) {
      conditionsHaveLatestObservedGeneration(r.metadata(), p.conditions());
    }
  }

  /** {@code HTTPRouteMustHaveCondition}: the parent entries for Gateway {@code gateway} have the condition. */
  void httpRouteMustHaveCondition(String route, String gateway, Cond condition) {
    HTTPRoute r = route(route);
    List<RouteParentStatus> parents = r.status().parentsFor(INFRA, INFRA, gateway);
    assertThat(parents).as("parents of %s for Gateway %s", route, gateway).isNotEmpty();
    for (RouteParentStatus p : parents) {
      assertThat(p.controllerName()).isEqualTo(GatewayStatusController.DEFAULT_CONTROLLER_NAME);
      conditionsMatch("route " + route, p.conditions(), List.of(condition));
    }
  }

  @Override
  public void close() {
    controller.close();
    store.close();
  }
}
