package io.fleetkit.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.adapter.kubernetes.yaml.KubernetesYaml;
import io.fleetkit.api.gateway.Gateway;
import io.fleetkit.api.gateway.GatewayClass;
import io.fleetkit.api.gateway.HTTPRoute;
import io.fleetkit.api.gateway.ListenerStatus;
import io.fleetkit.api.gateway.RouteParentStatus;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.Condition;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import io.fleetkit.networking.ClusterNetworking;
import io.fleetkit.networking.gateway.GatewayStatusController;
import io.fleetkit.reconcile.SimulatedController;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link ClusterNetworking#simulatedControllers()} includes the Gateway API's status controller: a simulation with the
 * networking controllers writes GatewayClass, Gateway and HTTPRoute status on its clock.
 */
final class GatewayStatusInSimulationTest {
  private static final Instant START = Instant.parse("2026-03-01T08:00:00Z");

  private static final String YAML = """
      apiVersion: v1
      kind: Namespace
      metadata: {name: shop}
      ---
      apiVersion: gateway.networking.k8s.io/v1
      kind: GatewayClass
      metadata: {name: fleetkit}
      spec: {controllerName: fleetkit.io/gateway-controller}
      ---
      apiVersion: gateway.networking.k8s.io/v1
      kind: GatewayClass
      metadata: {name: other}
      spec: {controllerName: example.com/other-controller}
      ---
      apiVersion: gateway.networking.k8s.io/v1
      kind: Gateway
      metadata: {name: edge, namespace: shop}
      spec:
        gatewayClassName: fleetkit
        listeners:
        - {name: http, port: 80, protocol: HTTP}
      ---
      apiVersion: gateway.networking.k8s.io/v1
      kind: Gateway
      metadata: {name: foreign, namespace: shop}
      spec:
        gatewayClassName: other
        listeners:
        - {name: http, port: 80, protocol: HTTP}
      ---
      apiVersion: v1
      kind: Service
      metadata: {name: web, namespace: shop}
      spec:
        selector: {app: web}
        ports: [{port: 8080}]
      ---
      apiVersion: gateway.networking.k8s.io/v1
      kind: HTTPRoute
      metadata: {name: web, namespace: shop}
      spec:
        parentRefs: [{name: edge}, {name: foreign}]
        rules:
        - backendRefs: [{name: web, port: 8080}]
      ---
      apiVersion: gateway.networking.k8s.io/v1
      kind: HTTPRoute
      metadata: {name: missing, namespace: shop}
      spec:
        parentRefs: [{name: edge}]
        rules:
        - backendRefs: [{name: nowhere, port: 80}]
      """;

  private static Simulation simulation() {
    Simulation.Builder b = Simulation.builder().start(START)
        .objects(KubernetesYaml.parse(YAML, "gateway-status.yaml").objects());
    ClusterNetworking.defaults().simulatedControllers().forEach(b::controller);
    return b.build();
  }

  @Test
  void simulatedControllers_includeGatewayStatus() {
    List<String> names = ClusterNetworking.defaults().simulatedControllers().stream()
        .map(f -> {
          try (ObjectStore store = ObjectStore.builder().directDelivery().build();
              SimulatedController c = f.create(store, ManualClock.atEpoch2026(), 1)) {
            return c.name();
          }
        }).toList();
    assertThat(names).containsExactly("node-ipam", "pod-addresses", "service-addresses", "endpointslice",
        "endpointslice-mirroring", "gateway-status", "service-lb");
  }

  @Test
  void simulation_writesGatewayApiStatusOnItsClock() {
    try (Simulation sim = simulation()) {
      sim.runFor(Duration.ofSeconds(10));
      var store = sim.store();
      GatewayClass ours = store.get(GatewayClass.class, "", "fleetkit").orElseThrow();
      Condition accepted = ours.status().condition("Accepted");
      assertThat(accepted).isNotNull();
      assertThat(accepted.status()).isEqualTo(ConditionStatus.True);
      assertThat(accepted.observedGeneration()).isEqualTo(ours.metadata().generation());
      // written on the simulation's clock, at its start (the controllers' first step)
      assertThat(accepted.lastTransitionTime()).isEqualTo(START);
      Condition version = ours.status().condition("SupportedVersion");
      assertThat(version.status()).isEqualTo(ConditionStatus.True);
      assertThat(version.message()).contains(GatewayStatusController.BUNDLE_VERSION);
      // another controller's class and Gateway are left alone
      assertThat(store.get(GatewayClass.class, "", "other").orElseThrow().status().conditions()).isEmpty();
      assertThat(store.get(Gateway.class, "shop", "foreign").orElseThrow().status().conditions()).isEmpty();

      Gateway edge = store.get(Gateway.class, "shop", "edge").orElseThrow();
      assertThat(edge.status().condition("Programmed").status()).isEqualTo(ConditionStatus.True);
      ListenerStatus http = edge.status().listener("http");
      assertThat(http).isNotNull();
      assertThat(http.attachedRoutes()).isEqualTo(2);

      HTTPRoute web = store.get(HTTPRoute.class, "shop", "web").orElseThrow();
      // one entry, for the Gateway this controller serves; none for the other controller's Gateway
      assertThat(web.status().parents()).hasSize(1);
      RouteParentStatus p = web.status().parents().get(0);
      assertThat(p.controllerName()).isEqualTo(GatewayStatusController.DEFAULT_CONTROLLER_NAME);
      assertThat(p.parentRef().name()).isEqualTo("edge");
      assertThat(p.condition("Accepted").status()).isEqualTo(ConditionStatus.True);
      assertThat(p.condition("ResolvedRefs").status()).isEqualTo(ConditionStatus.True);

      RouteParentStatus missing = store.get(HTTPRoute.class, "shop", "missing").orElseThrow().status().parents()
          .get(0);
      assertThat(missing.condition("Accepted").status()).isEqualTo(ConditionStatus.True);
      assertThat(missing.condition("ResolvedRefs").status()).isEqualTo(ConditionStatus.False);
      assertThat(missing.condition("ResolvedRefs").reason()).isEqualTo("BackendNotFound");
    }
  }

  @Test
  void writtenStatus_dumpedAndLoadedBack_equal() {
    try (Simulation sim = simulation()) {
      sim.runFor(Duration.ofSeconds(10));
      List<ApiObject<?>> objects = new ArrayList<>();
      objects.addAll(sim.store().list(GatewayClass.class).items());
      objects.addAll(sim.store().list(Gateway.class).items());
      objects.addAll(sim.store().list(HTTPRoute.class).items());
      String yaml = KubernetesYaml.dump(objects);
      assertThat(yaml).contains("attachedRoutes: 2", "controllerName: \"fleetkit.io/gateway-controller\"",
          "type: \"SupportedVersion\"", "lastTransitionTime: \"2026-03-01T08:00:00Z\"");
      List<ApiObject<?>> back = KubernetesYaml.parse(yaml, "dumped").objects();
      // each object's status, as the controller wrote it, comes back equal (the store's metadata is not what this
      // test is about)
      assertThat(back).hasSize(objects.size());
      for (int i = 0; i < objects.size(); i++) {
        assertThat(status(back.get(i))).as(yaml).isEqualTo(status(objects.get(i)));
      }
    }
  }

  private static Object status(ApiObject<?> o) {
    if (o instanceof GatewayClass c) {
      return c.status();
    }
    if (o instanceof Gateway g) {
      return g.status();
    }
    return ((HTTPRoute) o).status();
  }

  @Test
  void simulation_serviceCreatedLater_routeResolvesAtThatTime() {
    String service = """
        apiVersion: v1
        kind: Service
        metadata: {name: nowhere, namespace: shop}
        spec:
          ports: [{port: 80}]
        """;
    Simulation.Builder b = Simulation.builder().start(START)
        .objects(KubernetesYaml.parse(YAML, "gateway-status.yaml").objects())
        .apply(Duration.ofSeconds(30), KubernetesYaml.parse(service, "later.yaml").objects(), "later.yaml");
    ClusterNetworking.defaults().simulatedControllers().forEach(b::controller);
    try (Simulation sim = b.build()) {
      sim.runFor(Duration.ofMinutes(1));
      Condition resolved = sim.store().get(HTTPRoute.class, "shop", "missing").orElseThrow().status().parents()
          .get(0).condition("ResolvedRefs");
      assertThat(resolved.status()).isEqualTo(ConditionStatus.True);
      // the transition happened when the Service appeared, 30 simulated seconds in
      assertThat(resolved.lastTransitionTime()).isEqualTo(START.plusSeconds(30));
    }
  }
}
