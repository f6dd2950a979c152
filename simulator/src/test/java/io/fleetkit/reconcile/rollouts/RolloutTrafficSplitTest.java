package io.fleetkit.reconcile.rollouts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.PodTemplateSpec;
import io.fleetkit.api.core.Service;
import io.fleetkit.api.core.ServicePort;
import io.fleetkit.api.core.ServiceSpec;
import io.fleetkit.api.core.ServiceStatus;
import io.fleetkit.api.gateway.HTTPBackendRef;
import io.fleetkit.api.gateway.HTTPRoute;
import io.fleetkit.api.gateway.HTTPRouteRule;
import io.fleetkit.api.gateway.HTTPRouteSpec;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.IntOrPercent;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.rollouts.CanaryStep;
import io.fleetkit.api.rollouts.CanaryStrategy;
import io.fleetkit.api.rollouts.Rollout;
import io.fleetkit.api.rollouts.RolloutPhase;
import io.fleetkit.api.rollouts.TrafficRouting;
import io.fleetkit.networking.routing.HttpRequest;
import io.fleetkit.networking.routing.HttpRouteRouter;
import io.fleetkit.networking.routing.RouteResult;
import io.fleetkit.simulator.Simulation;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * A canary's traffic split end to end: the rollout controller's HTTPRoute router writes the route's backend weights,
 * and the networking module's {@link HttpRouteRouter} spreads requests by them.
 */
final class RolloutTrafficSplitTest {
  private static final int REQUESTS = 20_000;

  private static Rollout rollout(String image) {
    CanaryStrategy c = new CanaryStrategy(List.of(new CanaryStep.SetWeight(20), CanaryStep.Pause.indefinite(),
        new CanaryStep.SetWeight(60), CanaryStep.Pause.indefinite()), IntOrPercent.TWENTY_FIVE_PERCENT,
        IntOrPercent.TWENTY_FIVE_PERCENT, null, "shop-stable", "shop-canary", new TrafficRouting("shop"), false, null,
        null);
    return Rollout.builder().namespace("default").name("shop").replicas(10).matchLabels(Map.of("app", "shop"))
        .template(new PodTemplateSpec(ObjectMeta.builder().labels(Map.of("app", "shop")).build(),
            PodSpec.builder().container("app", image, ResourceList.ofCpuMemory(100, 0)).build()))
        .canary(c).build();
  }

  private static List<ApiObject<?>> objects() {
    List<ApiObject<?>> out = new ArrayList<>();
    for (int i = 1; i <= 2; i++) {
      out.add(Node.builder().name("node-" + i).capacity(ResourceList.builder().put("cpu", "16").put("memory", "32Gi")
          .put("pods", "110").build()).build());
    }
    for (String s : List.of("shop-stable", "shop-canary")) {
      out.add(new Service(ObjectMeta.of("default", s), ServiceSpec.builder().selector(Map.of("app", "shop"))
          .ports(List.of(ServicePort.of(80))).build(), ServiceStatus.EMPTY));
    }
    out.add(new HTTPRoute(ObjectMeta.of("default", "shop"), new HTTPRouteSpec(List.of(), List.of("shop.example"),
        List.of(new HTTPRouteRule(List.of(), List.of(HTTPBackendRef.of("shop-stable", 80, 100),
            HTTPBackendRef.of("shop-canary", 80, 0)))))));
    out.add(rollout("shop:1"));
    return out;
  }

  /** The share of {@link #REQUESTS} requests the router sends to the canary Service, by the route in the store. */
  private static double canaryShare(Simulation sim) {
    HttpRouteRouter router = new HttpRouteRouter(sim.store().list(HTTPRoute.class, "default").items());
    RouteResult result = router.route(HttpRequest.get("shop.example", "/cart"));
    assertThat(result.matched()).isTrue();
    SplittableRandom random = new SplittableRandom(7);
    int canary = 0;
    for (int i = 0; i < REQUESTS; i++) {
      String service = HttpRouteRouter.pickBackend(result, random).service();
      assertThat(service).isIn("default/shop-stable", "default/shop-canary");
      if (service.equals("default/shop-canary")) {
        canary++;
      }
    }
    return (double) canary / REQUESTS;
  }

  private static Rollout shop(Simulation sim) {
    return sim.store().require(Rollout.class, "default", "shop");
  }

  @Test
  void canary_requestsFollowTheStepWeights_andAllGoToStableAfterAbort() {
    try (Simulation sim = Simulation.builder().seed(1).objects(objects()).build()) {
      sim.runFor(Duration.ofSeconds(10));
      assertThat(canaryShare(sim)).isZero();
      Rollout r = shop(sim);
      sim.store().update(r.withSpec(r.spec().withTemplate(rollout("shop:2").spec().template())));

      assertThat(sim.runUntil(s -> shop(s).status().phase() == RolloutPhase.Paused, Duration.ofMinutes(2))).isTrue();
      assertThat(canaryShare(sim)).isCloseTo(0.20, offset(0.015));

      RolloutController.promote(sim.store(), "default", "shop", false);
      assertThat(sim.runUntil(s -> shop(s).status().phase() == RolloutPhase.Paused
          && shop(s).status().canaryWeight() == 60, Duration.ofMinutes(2))).isTrue();
      assertThat(canaryShare(sim)).isCloseTo(0.60, offset(0.015));

      RolloutController.abort(sim.store(), "default", "shop");
      sim.runFor(Duration.ofSeconds(30));
      assertThat(shop(sim).status().phase()).isEqualTo(RolloutPhase.Degraded);
      assertThat(canaryShare(sim)).isZero();
    }
  }
}
