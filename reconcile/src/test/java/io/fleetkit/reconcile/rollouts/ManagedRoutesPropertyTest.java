package io.fleetkit.reconcile.rollouts;

import static io.fleetkit.reconcile.rollouts.HttpRouteTrafficRouterTest.CANARY;
import static io.fleetkit.reconcile.rollouts.HttpRouteTrafficRouterTest.ROUTE;
import static io.fleetkit.reconcile.rollouts.HttpRouteTrafficRouterTest.STABLE;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.gateway.HTTPBackendRef;
import io.fleetkit.api.gateway.HTTPRoute;
import io.fleetkit.api.gateway.HTTPRouteMatch;
import io.fleetkit.api.gateway.HTTPRouteRule;
import io.fleetkit.api.gateway.PathMatchType;
import io.fleetkit.api.meta.IntOrPercent;
import io.fleetkit.api.rollouts.CanaryStep;
import io.fleetkit.api.rollouts.CanaryStrategy;
import io.fleetkit.api.rollouts.HeaderRoutingMatch;
import io.fleetkit.api.rollouts.Rollout;
import io.fleetkit.api.rollouts.RouteMatch;
import io.fleetkit.api.rollouts.StringMatch;
import io.fleetkit.api.rollouts.TrafficRouting;
import io.fleetkit.api.store.ObjectStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Invariants of the Gateway API router's managed routes over random sequences of header routes, mirror routes and
 * weights: each managed rule is named after a managed route; a header rule holds the canary alone; every weighted
 * rule's stable and canary weights sum to 100; repeating an operation changes nothing; and removing the managed
 * routes gives back the route's own rules, weighted.
 */
final class ManagedRoutesPropertyTest {
  /** One operation: 0 header route, 1 header route without match, 2 mirror route, 3 weight. */
  record Op(int kind, int route, int value) {}

  @Provide
  Arbitrary<List<Op>> ops() {
    return Arbitraries.integers().between(0, 3).flatMap(k -> Arbitraries.integers().between(0, 1).flatMap(r ->
        Arbitraries.integers().between(0, 100).map(v -> new Op(k, r, v)))).list().ofMaxSize(12);
  }

  private static final List<String> NAMES = List.of("route-a", "route-b");

  @Property(tries = 150)
  void managedRules_invariantsHold_andRemovalRestoresTheRoute(@ForAll("ops") List<Op> ops,
      @ForAll("sources") int sources) {
    ObjectStore store = ObjectStore.builder().directDelivery().build();
    HttpRouteTrafficRouter router = HttpRouteTrafficRouter.of(store);
    List<HTTPRouteRule> own = new ArrayList<>();
    for (int i = 0; i < sources; i++) {
      own.add(new HTTPRouteRule(List.of(HTTPRouteMatch.path(PathMatchType.PathPrefix, "/p" + i)),
          List.of(HTTPBackendRef.of(STABLE, 80, 100), HTTPBackendRef.of(CANARY, 80, 0))));
    }
    store.create(HttpRouteTrafficRouterTest.route(own));
    Rollout base = HttpRouteTrafficRouterTest.rollout(STABLE, CANARY, ROUTE);
    TrafficRouting routing = new TrafficRouting(ROUTE, NAMES);
    Rollout r = Rollout.builder().metadata(base.metadata()).replicas(1).selector(base.spec().selector())
        .template(base.spec().template()).canary(new CanaryStrategy(List.of(), IntOrPercent.TWENTY_FIVE_PERCENT,
            IntOrPercent.TWENTY_FIVE_PERCENT, null, STABLE, CANARY, routing, false, null, null)).build();
    int weight = 0;
    for (Op op : ops) {
      String name = NAMES.get(op.route());
      Runnable apply = switch (op.kind()) {
        case 0 -> () -> router.setHeaderRoute(r, routing, new CanaryStep.SetHeaderRoute(name,
            List.of(HeaderRoutingMatch.of("X-V" + op.value(), StringMatch.exact("v" + op.value())))));
        case 1 -> () -> router.setHeaderRoute(r, routing, new CanaryStep.SetHeaderRoute(name, List.of()));
        case 2 -> () -> router.setMirrorRoute(r, routing, new CanaryStep.SetMirrorRoute(name,
            List.of(new RouteMatch(StringMatch.exact("POST"), null, Map.of())), op.value()));
        default -> () -> router.setWeight(r, routing, op.value());
      };
      if (op.kind() == 3) {
        weight = op.value();
      }
      apply.run();
      HTTPRoute once = stored(store);
      apply.run();
      assertThat(stored(store).spec()).as("idempotent: %s", op).isEqualTo(once.spec());
      for (HTTPRouteRule rule : once.spec().rules()) {
        if (rule.name().isEmpty()) {
          assertThat(weights(rule)).as("own rule").isEqualTo(100);
        } else {
          assertThat(NAMES.stream().anyMatch(n -> rule.name().equals(n) || rule.name().startsWith(n + "-")))
              .isTrue();
          if (rule.backendRefs().size() == 1) {
            assertThat(rule.backendRefs().get(0).name()).isEqualTo(CANARY);
          } else {
            assertThat(weights(rule)).as("mirror rule").isEqualTo(100);
          }
        }
      }
      assertThat(once.spec().rules().stream().filter(x -> x.name().isEmpty()).count()).isEqualTo(sources);
    }
    router.removeManagedRoutes(r, routing);
    List<HTTPRouteRule> left = stored(store).spec().rules();
    assertThat(left).hasSize(sources);
    int w = weight;
    assertThat(left).allSatisfy(rule -> assertThat(rule.backendRefs()).extracting(HTTPBackendRef::weight)
        .containsExactly(100 - w, w));
  }

  @Provide
  Arbitrary<Integer> sources() {
    return Arbitraries.integers().between(1, 3);
  }

  private static HTTPRoute stored(ObjectStore store) {
    return store.require(HTTPRoute.class, "default", ROUTE);
  }

  private static int weights(HTTPRouteRule rule) {
    return rule.backendRefs().stream().mapToInt(HTTPBackendRef::weight).sum();
  }
}
