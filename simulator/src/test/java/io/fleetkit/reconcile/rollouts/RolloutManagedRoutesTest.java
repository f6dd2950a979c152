package io.fleetkit.reconcile.rollouts;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.gateway.HTTPBackendRef;
import io.fleetkit.api.gateway.HTTPRoute;
import io.fleetkit.api.gateway.HTTPRouteRule;
import io.fleetkit.api.gateway.HTTPRouteSpec;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.meta.IntOrPercent;
import io.fleetkit.api.rollouts.CanaryStep;
import io.fleetkit.api.rollouts.CanaryStrategy;
import io.fleetkit.api.rollouts.HeaderRoutingMatch;
import io.fleetkit.api.rollouts.Rollout;
import io.fleetkit.api.rollouts.RolloutPhase;
import io.fleetkit.api.rollouts.RouteMatch;
import io.fleetkit.api.rollouts.StringMatch;
import io.fleetkit.api.rollouts.TrafficRouting;
import io.fleetkit.api.store.Watch;
import io.fleetkit.networking.routing.HttpRequest;
import io.fleetkit.networking.routing.HttpRouteRouter;
import io.fleetkit.networking.routing.RouteResult;
import io.fleetkit.reconcile.node.HealthSource;
import io.fleetkit.simulator.Simulation;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The {@code setHeaderRoute} and {@code setMirrorRoute} steps through the rollout controller and the Gateway API
 * router, and the removal of the managed routes (Argo Rollouts' {@code rollout/trafficrouting.go},
 * {@code reconcileTrafficRouting}; cases of {@code rollout/trafficrouting_test.go} at commit
 * 9f8d111d8f8e3e88b6d7f8bbdf62fd3cd863ef9d where named), with requests routed by the networking module's
 * {@link HttpRouteRouter}.
 */
final class RolloutManagedRoutesTest {
  private static final CanaryStep.SetHeaderRoute HEADER = new CanaryStep.SetHeaderRoute("header-1",
      List.of(HeaderRoutingMatch.of("X-Canary", StringMatch.exact("true"))));
  private static final CanaryStep.SetMirrorRoute MIRROR = new CanaryStep.SetMirrorRoute("mirror-1",
      List.of(new RouteMatch(StringMatch.exact("POST"), null, Map.of())), 40);

  private static Rollout routed(CanaryStep... steps) {
    CanaryStrategy c = new CanaryStrategy(List.of(steps), IntOrPercent.TWENTY_FIVE_PERCENT,
        IntOrPercent.TWENTY_FIVE_PERCENT, null, "web-stable", "web-canary",
        new TrafficRouting("web-route", List.of("header-1", "mirror-1")), false, null, null);
    return RolloutSimulationTest.canary(10, c);
  }

  private static Simulation sim(int seed, Rollout r) {
    return Simulation.builder().objects(RolloutSimulationTest.nodes(3)).seed(seed)
        .object(RolloutTrafficRoutingTest.service("web-stable")).object(RolloutTrafficRoutingTest.service("web-canary"))
        .object(RolloutTrafficRoutingTest.route()).object(r).build();
  }

  private static List<String> ruleNames(Simulation sim) {
    return sim.store().require(HTTPRoute.class, "default", "web-route").spec().rules().stream()
        .map(HTTPRouteRule::name).toList();
  }

  private static RouteResult route(Simulation sim, String method, Map<String, String> headers) {
    return new HttpRouteRouter(sim.store().list(HTTPRoute.class, "default").items())
        .route(HttpRequest.of(method, "web.example", "/", headers));
  }

  /** Each distinct list of rule names the route had, in order. */
  private static Watch record(Simulation sim, List<List<String>> seen) {
    return sim.store().watch(HTTPRoute.class, "0", e -> {
      List<String> names = e.object().spec().rules().stream().map(HTTPRouteRule::name).toList();
      if (seen.isEmpty() || !seen.get(seen.size() - 1).equals(names)) {
        seen.add(names);
      }
    });
  }

  // trafficrouting_test.go TestRolloutReplicaIsAvailableAndGenerationNotBeModifiedShouldModifyVirtualServiceSHeaderRoute:
  // the router receives the step's setHeaderRoute (name and match) once the rollout reaches it; then the steps go on
  // to completion, and the managed routes are removed once fully promoted.
  @Test
  void canary_headerAndMirrorRoutesApplied_thenRemovedWhenComplete() {
    try (Simulation sim = sim(11, routed(new CanaryStep.SetWeight(20), HEADER, MIRROR, CanaryStep.Pause.indefinite(),
        new CanaryStep.SetWeight(60)))) {
      sim.runFor(Duration.ofSeconds(5));
      assertThat(ruleNames(sim)).containsExactly(""); // a first deploy: nothing managed
      List<List<String>> seen = new ArrayList<>();
      try (Watch w = record(sim, seen)) {
        RolloutSimulationTest.update(sim, "shop:2", Map.of(HealthSource.READY_AFTER, "3"));
        assertThat(sim.runUntil(s -> RolloutSimulationTest.rollout(s).status().phase() == RolloutPhase.Paused,
            Duration.ofMinutes(3))).isTrue();
        Rollout r = RolloutSimulationTest.rollout(sim);
        assertThat(r.status().currentStepIndex()).isEqualTo(3);
        assertThat(r.status().canaryWeight()).isEqualTo(20);
        assertThat(ruleNames(sim)).containsExactly("mirror-1", "", "header-1");

        // requests with the header go to the canary alone; POSTs are mirrored to it at 40%; others split 80/20
        RouteResult tagged = route(sim, "GET", Map.of("X-Canary", "true"));
        assertThat(tagged.backends()).extracting(RouteResult.Backend::service).containsExactly("default/web-canary");
        RouteResult post = route(sim, "POST", Map.of());
        assertThat(post.backends()).extracting(RouteResult.Backend::weight).containsExactly(80, 20);
        assertThat(post.mirrors()).hasSize(1);
        assertThat(post.mirrors().get(0).service()).isEqualTo("default/web-canary");
        assertThat(post.mirrors().get(0).numerator() * 100 / post.mirrors().get(0).denominator()).isEqualTo(40);
        RouteResult plain = route(sim, "GET", Map.of());
        assertThat(plain.backends()).extracting(RouteResult.Backend::weight).containsExactly(80, 20);
        assertThat(plain.mirrors()).isEmpty();

        RolloutController.promote(sim.store(), "default", "web", false);
        assertThat(sim.runUntil(s -> RolloutSimulationTest.rollout(s).status().phase() == RolloutPhase.Healthy,
            Duration.ofMinutes(3))).isTrue();
      }
      assertThat(ruleNames(sim)).containsExactly("");
      assertThat(seen).containsSubsequence(List.of("", "header-1"), List.of("mirror-1", "", "header-1"),
          List.of(""));
      assertThat(route(sim, "GET", Map.of("X-Canary", "true")).backends())
          .extracting(RouteResult.Backend::weight).containsExactly(100, 0);
    }
  }

  // Argo's abort branch of reconcileTrafficRouting: RemoveManagedRoutes; the weight back to 0
  @Test
  void canary_aborted_managedRoutesRemoved() {
    try (Simulation sim = sim(12, routed(new CanaryStep.SetWeight(20), HEADER, MIRROR,
        CanaryStep.Pause.indefinite()))) {
      sim.runFor(Duration.ofSeconds(5));
      RolloutSimulationTest.update(sim, "shop:2", Map.of(HealthSource.READY_AFTER, "3"));
      assertThat(sim.runUntil(s -> RolloutSimulationTest.rollout(s).status().phase() == RolloutPhase.Paused,
          Duration.ofMinutes(3))).isTrue();
      assertThat(ruleNames(sim)).containsExactly("mirror-1", "", "header-1");

      RolloutController.abort(sim.store(), "default", "web");
      sim.runFor(Duration.ofSeconds(30));

      assertThat(RolloutSimulationTest.rollout(sim).status().phase()).isEqualTo(RolloutPhase.Degraded);
      assertThat(ruleNames(sim)).containsExactly("");
      assertThat(route(sim, "GET", Map.of("X-Canary", "true")).backends())
          .extracting(RouteResult.Backend::weight).containsExactly(100, 0);
    }
  }

  // RolloutController.promote(full): Argo's PromoteFull branch removes the managed routes
  @Test
  void canary_promotedFully_managedRoutesRemoved() {
    try (Simulation sim = sim(13, routed(new CanaryStep.SetWeight(20), HEADER, CanaryStep.Pause.indefinite(),
        new CanaryStep.SetWeight(50), CanaryStep.Pause.indefinite()))) {
      sim.runFor(Duration.ofSeconds(5));
      RolloutSimulationTest.update(sim, "shop:2", Map.of(HealthSource.READY_AFTER, "3"));
      assertThat(sim.runUntil(s -> RolloutSimulationTest.rollout(s).status().phase() == RolloutPhase.Paused,
          Duration.ofMinutes(3))).isTrue();
      assertThat(ruleNames(sim)).containsExactly("", "header-1");

      RolloutController.promote(sim.store(), "default", "web", true);
      sim.runFor(Duration.ofSeconds(1));
      assertThat(ruleNames(sim)).containsExactly("");
      assertThat(sim.runUntil(s -> RolloutSimulationTest.rollout(s).status().phase() == RolloutPhase.Healthy,
          Duration.ofMinutes(3))).isTrue();
      assertThat(ruleNames(sim)).containsExactly("");
    }
  }

  // trafficrouting_test.go TestDontWeightOrHaveManagedRoutesDuringInterruptedUpdate: a V3 applied while V2 holds a
  // header route, V3 without an available pod: the managed routes are removed and no weight goes to the canary
  @Test
  void canary_interruptedUpdate_newVersionWithoutAvailablePods_managedRoutesRemoved() {
    try (Simulation sim = sim(14, routed(new CanaryStep.SetWeight(20), HEADER, CanaryStep.Pause.indefinite()))) {
      sim.runFor(Duration.ofSeconds(5));
      RolloutSimulationTest.update(sim, "shop:2", Map.of(HealthSource.READY_AFTER, "3"));
      assertThat(sim.runUntil(s -> RolloutSimulationTest.rollout(s).status().phase() == RolloutPhase.Paused,
          Duration.ofMinutes(3))).isTrue();
      assertThat(ruleNames(sim)).containsExactly("", "header-1");

      RolloutSimulationTest.update(sim, "shop:3", Map.of(HealthSource.READY_AFTER, "100000"));
      sim.runFor(Duration.ofSeconds(30));

      Rollout r = RolloutSimulationTest.rollout(sim);
      assertThat(r.status().currentStepIndex()).isZero();
      assertThat(r.status().canaryWeight()).isZero();
      assertThat(ruleNames(sim)).containsExactly("");
    }
  }

  // Argo returns SetHeaderRoute's error from reconcileTrafficRouting: the step is not passed, the sync retried
  @Test
  void canary_headerRouteCannotBeBuilt_trafficRoutingErrorAndStepHeld() {
    // stable and canary in different rules: the weights can be set, but no rule lists both Services
    HTTPRoute split = new HTTPRoute(ObjectMeta.of("default", "web-route"), new HTTPRouteSpec(List.of(), List.of(),
        List.of(new HTTPRouteRule(List.of(), List.of(HTTPBackendRef.of("web-stable", 80, 100))),
            new HTTPRouteRule(List.of(), List.of(HTTPBackendRef.of("web-canary", 80, 0),
                HTTPBackendRef.of("web-other", 80, 1))))));
    try (Simulation sim = Simulation.builder().objects(RolloutSimulationTest.nodes(3)).seed(15)
        .object(RolloutTrafficRoutingTest.service("web-stable")).object(RolloutTrafficRoutingTest.service("web-canary"))
        .object(split).object(routed(new CanaryStep.SetWeight(20), HEADER, CanaryStep.Pause.indefinite())).build()) {
      sim.runFor(Duration.ofSeconds(5));
      RolloutSimulationTest.update(sim, "shop:2", Map.of(HealthSource.READY_AFTER, "3"));
      sim.runFor(Duration.ofSeconds(60));

      Rollout r = RolloutSimulationTest.rollout(sim);
      assertThat(r.status().currentStepIndex()).isEqualTo(1);
      assertThat(r.status().phase()).isEqualTo(RolloutPhase.Progressing);
      assertThat(r.status().message()).startsWith("TrafficRoutingError: HTTPRoute default/web-route: "
          + HttpRouteTrafficRouter.BACKEND_NOT_FOUND).contains("web-stable and web-canary");
      assertThat(ruleNames(sim)).containsExactly("", "");
    }
  }
}
