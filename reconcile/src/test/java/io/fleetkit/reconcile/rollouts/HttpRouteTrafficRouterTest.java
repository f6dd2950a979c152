package io.fleetkit.reconcile.rollouts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.PodTemplateSpec;
import io.fleetkit.api.gateway.HTTPBackendRef;
import io.fleetkit.api.gateway.HTTPHeader;
import io.fleetkit.api.gateway.HTTPHeaderFilter;
import io.fleetkit.api.gateway.HTTPHeaderMatch;
import io.fleetkit.api.gateway.HTTPRoute;
import io.fleetkit.api.gateway.HTTPRouteFilter;
import io.fleetkit.api.gateway.HTTPRouteMatch;
import io.fleetkit.api.gateway.HTTPRouteRule;
import io.fleetkit.api.gateway.HTTPRouteSpec;
import io.fleetkit.api.gateway.HTTPRouteTimeouts;
import io.fleetkit.api.gateway.ParentReference;
import io.fleetkit.api.gateway.HTTPPathMatch;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.rollouts.CanaryStep;
import io.fleetkit.api.rollouts.CanaryStrategy;
import io.fleetkit.api.rollouts.Rollout;
import io.fleetkit.api.rollouts.TrafficRouting;
import io.fleetkit.api.store.ObjectStore;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Cases of Argo Rollouts' {@code rollout/trafficrouting/gatewayapi/gatewayapi_test.go} (TestSetWeight) and of the
 * {@code argoproj-labs/rollouts-plugin-trafficrouter-gatewayapi} {@code pkg/plugin/plugin_test.go}
 * (SetHTTPRouteWeight, SetHTTPRouteWeightAddsAndRemovesLabel, TestGetRouteRuleOnlyReturnsRuleWithAllBackends,
 * TestGetRouteRuleReturnsErrorWhenBackendNotFound, TestSetWeightPreservesUnmanagedHTTPBackends), against routes in the
 * object store.
 */
final class HttpRouteTrafficRouterTest {
  static final String STABLE = "argo-rollouts-stable-service";
  static final String CANARY = "argo-rollouts-canary-service";
  static final String ROUTE = "argo-rollouts-http-route";

  private final ObjectStore store = ObjectStore.builder().directDelivery().build();
  private final HttpRouteTrafficRouter router = HttpRouteTrafficRouter.of(store);

  static Rollout rollout(String stable, String canary, String route) {
    CanaryStrategy c = new CanaryStrategy(List.of(new CanaryStep.SetWeight(30)), io.fleetkit.api.meta.IntOrPercent.TWENTY_FIVE_PERCENT,
        io.fleetkit.api.meta.IntOrPercent.TWENTY_FIVE_PERCENT, null, stable, canary,
        new TrafficRouting(route), false, null, null);
    return Rollout.builder().namespace("default").name("rollout").replicas(1).matchLabels(Map.of("app", "web"))
        .template(new PodTemplateSpec(ObjectMeta.builder().labels(Map.of("app", "web")).build(),
            PodSpec.builder().container("app", "shop:1", ResourceList.ofCpuMemory(100, 0)).build()))
        .canary(c).build();
  }

  /** The fixture route: one rule, stable then canary, both at weight 0, port 80. */
  static HTTPRoute route(List<HTTPRouteRule> rules) {
    return new HTTPRoute(ObjectMeta.of("default", ROUTE), new HTTPRouteSpec(
        List.of(new ParentReference("argo-rollouts-gateway", "", "")), List.of(), rules));
  }

  static HTTPRouteRule rule(HTTPBackendRef... refs) {
    return new HTTPRouteRule(List.of(), List.of(refs));
  }

  private HTTPRoute stored() {
    return store.require(HTTPRoute.class, "default", ROUTE);
  }

  private static TrafficRouting routing(Rollout r) {
    return r.canary().trafficRouting();
  }

  // gatewayapi_test.go TestSetWeight/SetWeight; plugin_test.go SetHTTPRouteWeight
  @Test
  void setWeight_30_canary30Stable70() {
    store.create(route(List.of(rule(HTTPBackendRef.of(STABLE, 80, 0), HTTPBackendRef.of(CANARY, 80, 0)))));
    Rollout r = rollout(STABLE, CANARY, ROUTE);

    assertThat(router.setWeight(r, routing(r), 30)).isEqualTo(30);

    List<HTTPBackendRef> refs = stored().spec().rules().get(0).backendRefs();
    assertThat(refs.get(0)).isEqualTo(HTTPBackendRef.of(STABLE, 80, 70));
    assertThat(refs.get(1)).isEqualTo(HTTPBackendRef.of(CANARY, 80, 30));
    assertThat(stored().spec().parentRefs()).containsExactly(new ParentReference("argo-rollouts-gateway", "", ""));
  }

  @Test
  void setWeight_ruleWithFilters_filtersKept() {
    HTTPRouteFilter headers = HTTPRouteFilter.requestHeaderModifier(new HTTPHeaderFilter(
        List.of(HTTPHeader.of("X-Canary", "1")), List.of(), List.of()));
    store.create(route(List.of(rule(HTTPBackendRef.of(STABLE, 80, 0), HTTPBackendRef.of(CANARY, 80, 0))
        .withFilters(List.of(headers)))));
    Rollout r = rollout(STABLE, CANARY, ROUTE);

    assertThat(router.setWeight(r, routing(r), 30)).isEqualTo(30);

    assertThat(stored().spec().rules().get(0).filters()).containsExactly(headers);
    assertThat(stored().spec().rules().get(0).backendRefs()).extracting(HTTPBackendRef::weight).containsExactly(70,
        30);
  }

  // TestSetWeight/SetWeightWithError: the route cannot be read
  @Test
  void setWeight_routeMissing_errorNamingRouteAndRollout() {
    Rollout r = rollout(STABLE, CANARY, ROUTE);

    assertThatThrownBy(() -> router.setWeight(r, routing(r), 30)).isInstanceOf(IllegalStateException.class)
        .hasMessage("HTTPRoute default/" + ROUTE + " not found (named by Rollout default/rollout"
            + " spec.strategy.canary.trafficRouting)");
  }

  // TestSetWeight/SetWeightWithErrorManifest: a route without rules
  @Test
  void setWeight_routeWithoutRules_backendNotFound() {
    store.create(route(List.of()));
    Rollout r = rollout(STABLE, CANARY, ROUTE);

    assertThatThrownBy(() -> router.setWeight(r, routing(r), 30)).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("backendRef was not found in httpRoute");
    assertThat(stored().metadata().resourceVersion()).isEqualTo(store.require(HTTPRoute.class, "default", ROUTE)
        .metadata().resourceVersion());
  }

  // TestSetWeight/SetWeightWithErrorStableName, SetWeightWithErrorCanaryName
  @Test
  void setWeight_unknownStableOrCanaryService_errorNamingTheServiceAndRouteUnchanged() {
    HTTPRoute created = store.create(route(List.of(rule(HTTPBackendRef.of(STABLE, 80, 0),
        HTTPBackendRef.of(CANARY, 80, 0)))));
    Rollout badStable = rollout("fake-" + STABLE, CANARY, ROUTE);
    Rollout badCanary = rollout(STABLE, "fake-" + CANARY, ROUTE);

    assertThatThrownBy(() -> router.setWeight(badStable, routing(badStable), 30))
        .hasMessage("HTTPRoute default/" + ROUTE + ": backendRef was not found in httpRoute (Service fake-" + STABLE
            + " of Rollout default/rollout)");
    assertThatThrownBy(() -> router.setWeight(badCanary, routing(badCanary), 30))
        .hasMessage("HTTPRoute default/" + ROUTE + ": backendRef was not found in httpRoute (Service fake-" + CANARY
            + " of Rollout default/rollout)");
    assertThat(stored()).isEqualTo(created);
  }

  // plugin_test.go SetHTTPRouteWeightAddsAndRemovesLabel
  @Test
  void setWeight_aboveZeroLabelsTheRoute_zeroRemovesTheLabel() {
    store.create(route(List.of(rule(HTTPBackendRef.of(STABLE, 80, 0), HTTPBackendRef.of(CANARY, 80, 0)))));
    Rollout r = rollout(STABLE, CANARY, ROUTE);

    router.setWeight(r, routing(r), 25);
    assertThat(stored().metadata().labels()).containsEntry("rollouts.argoproj.io/gatewayapi-canary", "in-progress");

    router.setWeight(r, routing(r), 0);
    assertThat(stored().metadata().labels()).doesNotContainKey("rollouts.argoproj.io/gatewayapi-canary");
    assertThat(stored().spec().rules().get(0).backendRefs()).extracting(HTTPBackendRef::weight)
        .containsExactly(100, 0);
  }

  // getBackendRefs: every backend naming a Service, in every rule; other backends untouched
  @Test
  void setWeight_servicesInSeveralRules_allSetOthersUntouched() {
    store.create(route(List.of(
        rule(HTTPBackendRef.of(STABLE, 80, 1), HTTPBackendRef.of(CANARY, 80, 1)),
        rule(HTTPBackendRef.of("legacy", 8080, 5)),
        rule(HTTPBackendRef.of(CANARY, 443, 0), HTTPBackendRef.of(STABLE, 443, 0)))));
    Rollout r = rollout(STABLE, CANARY, ROUTE);

    router.setWeight(r, routing(r), 40);

    List<HTTPRouteRule> rules = stored().spec().rules();
    assertThat(rules.get(0).backendRefs()).extracting(HTTPBackendRef::weight).containsExactly(60, 40);
    assertThat(rules.get(1).backendRefs()).containsExactly(HTTPBackendRef.of("legacy", 8080, 5));
    assertThat(rules.get(2).backendRefs()).extracting(HTTPBackendRef::weight).containsExactly(40, 60);
  }

  @Test
  void setWeight_sameWeightTwice_routeWrittenOnce() {
    store.create(route(List.of(rule(HTTPBackendRef.of(STABLE, 80, 0), HTTPBackendRef.of(CANARY, 80, 0)))));
    Rollout r = rollout(STABLE, CANARY, ROUTE);
    router.setWeight(r, routing(r), 50);
    String rv = stored().metadata().resourceVersion();

    router.setWeight(r, routing(r), 50);

    assertThat(stored().metadata().resourceVersion()).isEqualTo(rv);
  }

  @Test
  void setWeight_backendInAnotherNamespace_notTheRolloutsService() {
    store.create(route(List.of(rule(new HTTPBackendRef(STABLE, "other", 80, 1), HTTPBackendRef.of(CANARY, 80, 0)))));
    Rollout r = rollout(STABLE, CANARY, ROUTE);

    assertThatThrownBy(() -> router.setWeight(r, routing(r), 10)).hasMessageContaining("(Service " + STABLE);
  }

  @Test
  void setWeight_outOfRange_refused() {
    Rollout r = rollout(STABLE, CANARY, ROUTE);

    assertThatThrownBy(() -> router.setWeight(r, routing(r), 101)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Rollout default/rollout: canary weight 101 must be between 0 and 100");
  }

  /** The plugin tests' header route: named "header-route", matching {@code X-Canary: true}, the canary alone (port 80
   * added: a Service backend needs a port here, as the Gateway API requires). */
  private static HTTPRouteRule headerRoute() {
    return new HTTPRouteRule(
        List.of(new HTTPRouteMatch(HTTPPathMatch.EVERYTHING, List.of(HTTPHeaderMatch.exact("X-Canary", "true")),
            List.of(), "")),
        List.of(HTTPBackendRef.of(CANARY, 80, HTTPBackendRef.DEFAULT_WEIGHT)), List.of(), "header-route", null);
  }

  // plugin_test.go TestGetRouteRuleOnlyReturnsRuleWithAllBackends: of a header route (canary only) and the main rule
  // (stable 70, canary 30), the main rule is the one holding the weights (getRouteRule; setHTTPRouteWeight skips the
  // canary-only rule as isHTTPManagedRule). Through setWeight: the main rule keeps 2 backends and no name and gets the
  // weights; the header route is left as it is, at every weight.
  @Test
  void setWeight_headerRouteWithCanaryOnly_untouchedMainRuleWeighted() {
    HTTPRouteRule main = rule(HTTPBackendRef.of(STABLE, 80, 70), HTTPBackendRef.of(CANARY, 80, 30));
    store.create(route(List.of(headerRoute(), main)));
    Rollout r = rollout(STABLE, CANARY, ROUTE);

    router.setWeight(r, routing(r), 30);
    List<HTTPRouteRule> rules = stored().spec().rules();
    assertThat(rules.get(0)).isEqualTo(headerRoute());
    assertThat(rules.get(1)).isEqualTo(main);
    assertThat(rules.get(1).name()).isEmpty();

    router.setWeight(r, routing(r), 40);
    rules = stored().spec().rules();
    assertThat(rules.get(0)).isEqualTo(headerRoute());
    assertThat(rules.get(1).backendRefs()).hasSize(2);
    assertThat(rules.get(1).backendRefs()).extracting(HTTPBackendRef::name).containsExactly(STABLE, CANARY);
    assertThat(rules.get(1).backendRefs()).extracting(HTTPBackendRef::weight).containsExactly(60, 40);

    router.setWeight(r, routing(r), 0);
    assertThat(stored().spec().rules().get(0)).isEqualTo(headerRoute());
    assertThat(stored().spec().rules().get(1).backendRefs()).extracting(HTTPBackendRef::weight)
        .containsExactly(100, 0);
  }

  // plugin_test.go TestGetRouteRuleReturnsErrorWhenBackendNotFound: a route holding only the canary-only header
  // route has no rule with both backends: BackendRefWasNotFoundInHTTPRouteError, the route unchanged.
  @Test
  void setWeight_onlyHeaderRoute_backendNotFound() {
    HTTPRoute created = store.create(route(List.of(headerRoute())));
    Rollout r = rollout(STABLE, CANARY, ROUTE);

    assertThatThrownBy(() -> router.setWeight(r, routing(r), 30)).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining(HttpRouteTrafficRouter.BACKEND_NOT_FOUND);
    assertThat(stored()).isEqualTo(created);
  }

  // plugin_test.go TestSetWeightPreservesUnmanagedHTTPBackends: stable 100, canary 0 and an extra backend (weight 1)
  // in one rule; at 30 and back at 0 the extra backend stays, third.
  @Test
  void setWeight_extraBackendInTheRule_keptDuringAndAfterTheCanary() {
    String extra = "extra-pipeline-service";
    store.create(route(List.of(rule(HTTPBackendRef.of(STABLE, 80, 100), HTTPBackendRef.of(CANARY, 80, 0),
        HTTPBackendRef.of(extra, 80, 1)))));
    Rollout r = rollout(STABLE, CANARY, ROUTE);

    router.setWeight(r, routing(r), 30);
    List<HTTPBackendRef> refs = stored().spec().rules().get(0).backendRefs();
    assertThat(refs).hasSize(3);
    assertThat(refs.get(0).weight()).isEqualTo(70);
    assertThat(refs.get(1).weight()).isEqualTo(30);
    assertThat(refs.get(2).name()).isEqualTo(extra);

    router.setWeight(r, routing(r), 0);
    refs = stored().spec().rules().get(0).backendRefs();
    assertThat(refs).hasSize(3);
    assertThat(refs.get(1).weight()).isEqualTo(0);
    assertThat(refs.get(2).name()).isEqualTo(extra);
  }

  @Test
  void setWeight_keepsRuleNameTimeoutsAndBackendFilters() {
    HTTPRouteFilter headers = HTTPRouteFilter.requestHeaderModifier(new HTTPHeaderFilter(
        List.of(HTTPHeader.of("X-Backend", "canary")), List.of(), List.of()));
    HTTPBackendRef canary = new HTTPBackendRef("", "Service", CANARY, "", 80, 0, List.of(headers));
    HTTPRouteRule named = new HTTPRouteRule(List.of(), List.of(HTTPBackendRef.of(STABLE, 80, 0), canary), List.of(),
        "main", new HTTPRouteTimeouts("10s", null));
    store.create(route(List.of(named)));
    Rollout r = rollout(STABLE, CANARY, ROUTE);

    router.setWeight(r, routing(r), 20);

    HTTPRouteRule rule = stored().spec().rules().get(0);
    assertThat(rule.name()).isEqualTo("main");
    assertThat(rule.timeouts()).isEqualTo(new HTTPRouteTimeouts("10s", null));
    assertThat(rule.backendRefs().get(1)).isEqualTo(new HTTPBackendRef("", "Service", CANARY, "", 80, 20,
        List.of(headers)));
  }
}
