package io.fleetkit.reconcile.rollouts;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.apps.ReplicaSet;
import io.fleetkit.api.core.Service;
import io.fleetkit.api.core.ServicePort;
import io.fleetkit.api.core.ServiceSpec;
import io.fleetkit.api.core.ServiceStatus;
import io.fleetkit.api.gateway.HTTPBackendRef;
import io.fleetkit.api.gateway.HTTPRoute;
import io.fleetkit.api.gateway.HTTPRouteRule;
import io.fleetkit.api.gateway.HTTPRouteSpec;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.rollouts.CanaryStep;
import io.fleetkit.api.rollouts.CanaryStrategy;
import io.fleetkit.api.rollouts.Rollout;
import io.fleetkit.api.rollouts.RolloutAnalysis;
import io.fleetkit.api.rollouts.RolloutPhase;
import io.fleetkit.api.rollouts.TrafficRouting;
import io.fleetkit.api.store.Watch;
import io.fleetkit.reconcile.node.HealthSource;
import io.fleetkit.simulator.Simulation;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Canaries with {@code trafficRouting} in the simulation: the default {@link HttpRouteTrafficRouter} moves the
 * HTTPRoute's backend weights with the steps (Argo's {@code reconcileTrafficRouting}) and back to stable on an abort.
 */
final class RolloutTrafficRoutingTest {

  static Service service(String name) {
    return new Service(ObjectMeta.of("default", name), ServiceSpec.builder().selector(Map.of("app", "web"))
        .ports(List.of(ServicePort.of(80))).build(), ServiceStatus.EMPTY);
  }

  static HTTPRoute route() {
    return new HTTPRoute(ObjectMeta.of("default", "web-route"), new HTTPRouteSpec(List.of(), List.of(),
        List.of(new HTTPRouteRule(List.of(), List.of(HTTPBackendRef.of("web-stable", 80, 100),
            HTTPBackendRef.of("web-canary", 80, 0))))));
  }

  static Rollout routed(int replicas, CanaryStep... steps) {
    CanaryStrategy c = new CanaryStrategy(List.of(steps), io.fleetkit.api.meta.IntOrPercent.TWENTY_FIVE_PERCENT,
        io.fleetkit.api.meta.IntOrPercent.TWENTY_FIVE_PERCENT, null, "web-stable", "web-canary",
        new TrafficRouting("web-route"), false, null, null);
    return RolloutSimulationTest.canary(replicas, c);
  }

  /** (canary, stable) weights of the route each time it changes, and the canary's available pods then. */
  record Change(int canary, int stable, int canaryAvailable, boolean labelled) {}

  private static Watch record(Simulation sim, List<Change> changes) {
    return sim.store().watch(HTTPRoute.class, "0", e -> {
      List<HTTPBackendRef> refs = e.object().spec().rules().get(0).backendRefs();
      Rollout r = RolloutSimulationTest.rollout(sim);
      int available = sim.store().get(ReplicaSet.class, "default", "web-" + r.status().currentPodHash())
          .map(rs -> rs.status().availableReplicas()).orElse(0);
      changes.add(new Change(refs.get(1).weight(), refs.get(0).weight(), available,
          e.object().metadata().labels().containsKey(HttpRouteTrafficRouter.IN_PROGRESS_LABEL)));
    });
  }

  @Test
  void canary_weightsInTheRouteFollowTheSteps_thenBackToStableOnTheNewVersion() {
    try (Simulation sim = Simulation.builder().objects(RolloutSimulationTest.nodes(3)).seed(3)
        .object(service("web-stable")).object(service("web-canary")).object(route())
        .object(routed(10, new CanaryStep.SetWeight(20), CanaryStep.Pause.of(Duration.ofSeconds(30)),
            new CanaryStep.SetWeight(50), CanaryStep.Pause.of(Duration.ofSeconds(30)))).build()) {
      sim.runFor(Duration.ofSeconds(5));
      Rollout r = RolloutSimulationTest.rollout(sim);
      assertThat(r.status().phase()).isEqualTo(RolloutPhase.Healthy);
      String v1 = r.status().stableRs();
      List<Change> changes = new ArrayList<>();
      try (Watch w = record(sim, changes)) {
        RolloutSimulationTest.update(sim, "shop:2", Map.of(HealthSource.READY_AFTER, "5"));
        List<Integer> statusWeights = new ArrayList<>();
        RolloutSimulationTest.run(sim, 150, s -> statusWeights.add(RolloutSimulationTest.rollout(s).status()
            .canaryWeight()));
        assertThat(changes).extracting(Change::canary).containsExactly(20, 50, 100, 0);
        for (Change c : changes) {
          assertThat(c.canary() + c.stable()).isEqualTo(100);
          assertThat(c.labelled()).isEqualTo(c.canary() > 0);
          if (c.canary() > 0) {
            assertThat(c.canaryAvailable()).as("traffic only to an available canary: %s", c).isPositive();
          }
        }
        assertThat(statusWeights).contains(20, 50);
      }
      r = RolloutSimulationTest.rollout(sim);
      assertThat(r.status().phase()).isEqualTo(RolloutPhase.Healthy);
      assertThat(r.status().stableRs()).isNotEqualTo(v1).isEqualTo(r.status().currentPodHash());
      assertThat(r.status().canaryWeight()).isZero();
      HTTPRoute route = sim.store().require(HTTPRoute.class, "default", "web-route");
      assertThat(route.spec().rules().get(0).backendRefs()).extracting(HTTPBackendRef::weight)
          .containsExactly(100, 0);
      // both Services now select the new version
      assertThat(sim.store().require(Service.class, "default", "web-stable").spec().selector())
          .containsEntry(Rollout.POD_TEMPLATE_HASH_LABEL, r.status().stableRs());
      assertThat(RolloutSimulationTest.readyPods(sim, "shop:2")).hasSize(10);
    }
  }

  @Test
  void canary_failingAnalysis_routeBackToStableAndCanaryScaledDown() {
    try (Simulation sim = Simulation.builder().objects(RolloutSimulationTest.nodes(3)).seed(4)
        .object(RolloutSimulationTest.errorRate()).object(service("web-stable")).object(service("web-canary"))
        .object(route()).object(routed(10, new CanaryStep.SetWeight(20), new CanaryStep.SetWeight(50),
            new CanaryStep.Analysis(RolloutAnalysis.of("error-rate")), new CanaryStep.SetWeight(80))).build()) {
      sim.runFor(Duration.ofSeconds(5));
      List<Change> changes = new ArrayList<>();
      try (Watch w = record(sim, changes)) {
        RolloutSimulationTest.update(sim, "shop:2", Map.of(HealthSource.READY_AFTER, "3",
            SimulatedMeasurementProvider.ERROR_RATE, "0.2"));
        RolloutSimulationTest.run(sim, 120, s -> { });
        assertThat(changes).extracting(Change::canary).containsExactly(20, 50, 0);
        assertThat(changes.get(changes.size() - 1).labelled()).isFalse();
      }
      Rollout r = RolloutSimulationTest.rollout(sim);
      assertThat(r.status().phase()).isEqualTo(RolloutPhase.Degraded);
      assertThat(r.status().abort()).isTrue();
      assertThat(r.status().canaryWeight()).isZero();
      assertThat(r.status().message()).startsWith("RolloutAborted: AnalysisRun").contains("Failed");
      assertThat(sim.store().require(HTTPRoute.class, "default", "web-route").spec().rules().get(0).backendRefs())
          .extracting(HTTPBackendRef::weight).containsExactly(100, 0);
      assertThat(RolloutSimulationTest.readyPods(sim, "shop:1")).hasSize(10);
    }
  }

  @Test
  void canary_routeMissing_trafficRoutingErrorUntilItExists() {
    try (Simulation sim = Simulation.builder().objects(RolloutSimulationTest.nodes(3)).seed(5)
        .object(service("web-stable")).object(service("web-canary"))
        .object(routed(4, new CanaryStep.SetWeight(50))).build()) {
      sim.runFor(Duration.ofSeconds(30));
      Rollout r = RolloutSimulationTest.rollout(sim);
      assertThat(r.status().message()).isEqualTo("TrafficRoutingError: HTTPRoute default/web-route not found (named"
          + " by Rollout default/web spec.strategy.canary.trafficRouting)");
      assertThat(RolloutSimulationTest.readyPods(sim, "shop:1")).isEmpty(); // as Argo: no scaling meanwhile
      sim.store().create(route());
      sim.runFor(Duration.ofSeconds(30));
      r = RolloutSimulationTest.rollout(sim);
      assertThat(r.status().phase()).isEqualTo(RolloutPhase.Healthy);
      assertThat(r.status().message()).isEmpty();
      assertThat(RolloutSimulationTest.readyPods(sim, "shop:1")).hasSize(4);
    }
  }
}
