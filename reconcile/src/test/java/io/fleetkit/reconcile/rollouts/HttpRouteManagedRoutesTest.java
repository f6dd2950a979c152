package io.fleetkit.reconcile.rollouts;

import static io.fleetkit.reconcile.rollouts.HttpRouteTrafficRouterTest.CANARY;
import static io.fleetkit.reconcile.rollouts.HttpRouteTrafficRouterTest.ROUTE;
import static io.fleetkit.reconcile.rollouts.HttpRouteTrafficRouterTest.STABLE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.gateway.BackendObjectReference;
import io.fleetkit.api.gateway.HTTPBackendRef;
import io.fleetkit.api.gateway.HTTPHeader;
import io.fleetkit.api.gateway.HTTPHeaderFilter;
import io.fleetkit.api.gateway.HTTPHeaderMatch;
import io.fleetkit.api.gateway.HTTPPathMatch;
import io.fleetkit.api.gateway.HTTPQueryParamMatch;
import io.fleetkit.api.gateway.HTTPRequestMirrorFilter;
import io.fleetkit.api.gateway.HTTPRoute;
import io.fleetkit.api.gateway.HTTPRouteFilter;
import io.fleetkit.api.gateway.HTTPRouteFilterType;
import io.fleetkit.api.gateway.HTTPRouteMatch;
import io.fleetkit.api.gateway.HTTPRouteRule;
import io.fleetkit.api.gateway.PathMatchType;
import io.fleetkit.api.gateway.ValueMatchType;
import io.fleetkit.api.meta.IntOrPercent;
import io.fleetkit.api.rollouts.CanaryStep;
import io.fleetkit.api.rollouts.CanaryStrategy;
import io.fleetkit.api.rollouts.HeaderRoutingMatch;
import io.fleetkit.api.rollouts.Rollout;
import io.fleetkit.api.rollouts.RouteMatch;
import io.fleetkit.api.rollouts.StringMatch;
import io.fleetkit.api.rollouts.TrafficRouting;
import io.fleetkit.api.store.ObjectStore;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Managed routes of the Gateway API router. Header routes: cases of
 * {@code argoproj-labs/rollouts-plugin-trafficrouter-gatewayapi} {@code pkg/plugin/plugin_test.go} (commit
 * 96c63fd7666a7cc9ab1fe19477cd0751550230ab), HTTPRoute ones: TestRunSuccessfully's SetHTTPHeaderRoute,
 * SetHTTPHeaderRouteWithFilters, SetHTTPHeaderRouteWithoutFilters, RemoveHTTPManagedRoutes,
 * SetWeightDoesNotClobberHTTPHeaderRouteWeight, and TestSetHTTPHeaderRouteWithExistingHeaders, …WithExistingMethod,
 * …WithExistingQueryParams, …WithMultipleExistingHeaders, …WithCombinedMatches, …NoDuplicateOnRepeatedCall,
 * …TwoDistinctNamesAppendsBoth, …MultiRuleHTTPRoute. The plugin leaves the header rule's weight unset; here it is
 * the API's default, {@link HTTPBackendRef#DEFAULT_WEIGHT}. Mirror routes are FleetKit's (the plugin's
 * {@code SetMirrorRoute} does nothing).
 */
final class HttpRouteManagedRoutesTest {
  /** The plugin's {@code mocks.ManagedRouteName}. */
  static final String MANAGED = "test-header-route";

  private final ObjectStore store = ObjectStore.builder().directDelivery().build();
  private final HttpRouteTrafficRouter router = HttpRouteTrafficRouter.of(store);

  /** The plugin's {@code newRollout}: managed routes {@code [test-header-route]} (and here a mirror one). */
  private static Rollout rollout(String... managed) {
    Rollout base = HttpRouteTrafficRouterTest.rollout(STABLE, CANARY, ROUTE);
    CanaryStrategy c = base.canary();
    CanaryStrategy with = new CanaryStrategy(c.steps(), IntOrPercent.TWENTY_FIVE_PERCENT,
        IntOrPercent.TWENTY_FIVE_PERCENT, null, STABLE, CANARY,
        new TrafficRouting(ROUTE, managed.length == 0 ? List.of(MANAGED) : List.of(managed)), false, null, null);
    return Rollout.builder().metadata(base.metadata()).replicas(1).selector(base.spec().selector())
        .template(base.spec().template()).canary(with).build();
  }

  private static TrafficRouting routing(Rollout r) {
    return r.canary().trafficRouting();
  }

  /** The plugin's {@code mocks.HTTPRouteObj}: one rule, PathPrefix /, stable and canary at weight 0, port 80. */
  private static HTTPRouteRule mockRule() {
    return new HTTPRouteRule(List.of(new HTTPRouteMatch(HTTPPathMatch.EVERYTHING, List.of(), List.of(), "")),
        List.of(HTTPBackendRef.of(STABLE, 80, 0), HTTPBackendRef.of(CANARY, 80, 0)));
  }

  /** The plugin's {@code createHTTPRouteWithMatches}: stable 100, canary 0, one match. */
  private static HTTPRouteRule ruleWithMatch(HTTPRouteMatch m) {
    return new HTTPRouteRule(List.of(m), List.of(HTTPBackendRef.of(STABLE, 80, 100), HTTPBackendRef.of(CANARY, 80,
        0)));
  }

  private static CanaryStep.SetHeaderRoute header(String name, String header, StringMatch value) {
    return new CanaryStep.SetHeaderRoute(name, List.of(HeaderRoutingMatch.of(header, value)));
  }

  private HTTPRoute stored() {
    return store.require(HTTPRoute.class, "default", ROUTE);
  }

  private void create(HTTPRouteRule... rules) {
    store.create(HttpRouteTrafficRouterTest.route(List.of(rules)));
  }

  // TestRunSuccessfully/SetHTTPHeaderRoute: prefix "test" becomes RegularExpression "test.*", in rule 1
  @Test
  void setHeaderRoute_prefix_regexRuleAppended() {
    create(mockRule());
    Rollout r = rollout();

    router.setHeaderRoute(r, routing(r), header(MANAGED, "X-Test", StringMatch.prefix("test")));

    HTTPRouteRule managed = stored().spec().rules().get(1);
    assertThat(managed.name()).isEqualTo(MANAGED);
    HTTPHeaderMatch h = managed.matches().get(0).headers().get(0);
    assertThat(h.name()).isEqualTo("X-Test");
    assertThat(h.value()).isEqualTo("test.*");
    assertThat(h.type()).isEqualTo(ValueMatchType.RegularExpression);
    assertThat(managed.backendRefs()).containsExactly(new HTTPBackendRef("", "Service", CANARY, "", 80,
        HTTPBackendRef.DEFAULT_WEIGHT));
    assertThat(stored().spec().rules().get(0)).isEqualTo(mockRule());
  }

  // TestRunSuccessfully/SetHTTPHeaderRouteWithFilters: the header rule gets the source rule's filters, in order
  @Test
  void setHeaderRoute_sourceWithFilters_filtersCopied() {
    HTTPRouteFilter request = HTTPRouteFilter.requestHeaderModifier(new HTTPHeaderFilter(List.of(),
        List.of(HTTPHeader.of("X-Custom-Header", "custom-value")), List.of()));
    HTTPRouteFilter response = HTTPRouteFilter.responseHeaderModifier(new HTTPHeaderFilter(
        List.of(HTTPHeader.of("X-Response-Header", "response-value")), List.of(), List.of()));
    create(mockRule().withFilters(List.of(request, response)));
    Rollout r = rollout();

    router.setHeaderRoute(r, routing(r), header(MANAGED, "X-Test", StringMatch.prefix("test")));

    HTTPRouteRule managed = stored().spec().rules().get(1);
    assertThat(managed.name()).isEqualTo(MANAGED);
    assertThat(managed.filters()).hasSize(2);
    assertThat(managed.filters().get(0).type()).isEqualTo(HTTPRouteFilterType.RequestHeaderModifier);
    assertThat(managed.filters().get(0).requestHeaderModifier().add().get(0))
        .isEqualTo(HTTPHeader.of("X-Custom-Header", "custom-value"));
    assertThat(managed.filters().get(1).type()).isEqualTo(HTTPRouteFilterType.ResponseHeaderModifier);
    assertThat(managed.filters().get(1).responseHeaderModifier().set().get(0))
        .isEqualTo(HTTPHeader.of("X-Response-Header", "response-value"));
  }

  // TestRunSuccessfully/SetHTTPHeaderRouteWithoutFilters
  @Test
  void setHeaderRoute_sourceWithoutFilters_noFilters() {
    create(mockRule());
    Rollout r = rollout();

    router.setHeaderRoute(r, routing(r), header(MANAGED, "X-Test", StringMatch.prefix("test")));

    assertThat(stored().spec().rules().get(0).filters()).isEmpty();
    assertThat(stored().spec().rules().get(1).name()).isEqualTo(MANAGED);
    assertThat(stored().spec().rules().get(1).filters()).isEmpty();
  }

  // TestRunSuccessfully/RemoveHTTPManagedRoutes: after a header route, one rule is left
  @Test
  void removeManagedRoutes_afterHeaderRoute_oneRuleLeft() {
    create(mockRule());
    Rollout r = rollout();
    router.setHeaderRoute(r, routing(r), header(MANAGED, "X-Test", StringMatch.prefix("test")));
    assertThat(stored().spec().rules()).hasSize(2);

    router.removeManagedRoutes(r, routing(r));

    assertThat(stored().spec().rules()).containsExactly(mockRule());
  }

  // TestRunSuccessfully/SetWeightDoesNotClobberHTTPHeaderRouteWeight: setWeight(0) after the header route
  @Test
  void setWeight_afterHeaderRoute_headerRuleWeightUntouched() {
    create(mockRule());
    Rollout r = rollout();
    router.setHeaderRoute(r, routing(r), header(MANAGED, "X-Canary", StringMatch.exact("true")));
    assertThat(stored().spec().rules()).hasSize(2);
    assertThat(stored().spec().rules().get(1).name()).isEqualTo(MANAGED);

    router.setWeight(r, routing(r), 0);

    List<HTTPRouteRule> rules = stored().spec().rules();
    assertThat(rules.get(0).backendRefs()).extracting(HTTPBackendRef::weight).containsExactly(100, 0);
    assertThat(rules.get(1).backendRefs()).extracting(HTTPBackendRef::weight)
        .containsExactly(HTTPBackendRef.DEFAULT_WEIGHT);
  }

  // TestSetHTTPHeaderRouteWithExistingHeaders: Host: example.com kept beside X-Canary
  @Test
  void setHeaderRoute_existingHeaders_merged() {
    create(ruleWithMatch(new HTTPRouteMatch(HTTPPathMatch.EVERYTHING,
        List.of(HTTPHeaderMatch.exact("Host", "example.com")), List.of(), "")));
    Rollout r = rollout();

    router.setHeaderRoute(r, routing(r), header(MANAGED, "X-Canary", StringMatch.exact("true")));

    HTTPRouteRule managed = stored().spec().rules().get(1);
    assertThat(managed.name()).isEqualTo(MANAGED);
    assertThat(managed.matches()).isNotEmpty();
    assertThat(managed.matches().get(0).headers()).containsExactlyInAnyOrder(
        HTTPHeaderMatch.exact("Host", "example.com"), HTTPHeaderMatch.exact("X-Canary", "true"));
  }

  // TestSetHTTPHeaderRouteWithExistingMethod: POST kept
  @Test
  void setHeaderRoute_existingMethod_kept() {
    create(ruleWithMatch(new HTTPRouteMatch(HTTPPathMatch.EVERYTHING, List.of(), List.of(), "POST")));
    Rollout r = rollout();

    router.setHeaderRoute(r, routing(r), header(MANAGED, "X-Canary", StringMatch.exact("true")));

    HTTPRouteRule managed = stored().spec().rules().get(1);
    assertThat(managed.name()).isEqualTo(MANAGED);
    assertThat(managed.matches().get(0).method()).isEqualTo("POST");
    assertThat(managed.matches().get(0).headers()).isNotEmpty();
  }

  // TestSetHTTPHeaderRouteWithExistingQueryParams: version=v2 kept
  @Test
  void setHeaderRoute_existingQueryParams_kept() {
    create(ruleWithMatch(new HTTPRouteMatch(HTTPPathMatch.EVERYTHING, List.of(),
        List.of(HTTPQueryParamMatch.exact("version", "v2")), "")));
    Rollout r = rollout();

    router.setHeaderRoute(r, routing(r), header(MANAGED, "X-Canary", StringMatch.exact("true")));

    HTTPRouteRule managed = stored().spec().rules().get(1);
    assertThat(managed.name()).isEqualTo(MANAGED);
    assertThat(managed.matches().get(0).queryParams()).isNotEmpty();
    assertThat(managed.matches().get(0).queryParams().get(0).name()).isEqualTo("version");
    assertThat(managed.matches().get(0).queryParams().get(0).value()).isEqualTo("v2");
    assertThat(managed.matches().get(0).headers()).isNotEmpty();
  }

  // TestSetHTTPHeaderRouteWithMultipleExistingHeaders: 2 original headers plus the canary one
  @Test
  void setHeaderRoute_multipleExistingHeaders_allThree() {
    create(ruleWithMatch(new HTTPRouteMatch(HTTPPathMatch.EVERYTHING, List.of(HTTPHeaderMatch.exact("Host",
        "example.com"), new HTTPHeaderMatch(ValueMatchType.RegularExpression, "User-Agent", ".*Mobile.*")), List.of(),
        "")));
    Rollout r = rollout();

    router.setHeaderRoute(r, routing(r), header(MANAGED, "X-Canary", StringMatch.exact("true")));

    HTTPRouteRule managed = stored().spec().rules().get(1);
    assertThat(managed.name()).isEqualTo(MANAGED);
    assertThat(managed.matches().get(0).headers()).hasSize(3).extracting(HTTPHeaderMatch::name)
        .containsExactlyInAnyOrder("Host", "User-Agent", "X-Canary");
  }

  // TestSetHTTPHeaderRouteWithCombinedMatches: headers, method, query parameters and path all kept
  @Test
  void setHeaderRoute_combinedMatches_allKept() {
    create(ruleWithMatch(new HTTPRouteMatch(new HTTPPathMatch(PathMatchType.PathPrefix, "/api"),
        List.of(HTTPHeaderMatch.exact("Host", "example.com")), List.of(HTTPQueryParamMatch.exact("version", "v2")),
        "POST")));
    Rollout r = rollout();

    router.setHeaderRoute(r, routing(r), header(MANAGED, "X-Canary", StringMatch.exact("true")));

    HTTPRouteRule managed = stored().spec().rules().get(1);
    assertThat(managed.name()).isEqualTo(MANAGED);
    HTTPRouteMatch m = managed.matches().get(0);
    assertThat(m.headers()).hasSize(2);
    assertThat(m.method()).isEqualTo("POST");
    assertThat(m.queryParams()).containsExactly(HTTPQueryParamMatch.exact("version", "v2"));
    assertThat(m.path().value()).isEqualTo("/api");
  }

  // TestSetHTTPHeaderRouteNoDuplicateOnRepeatedCall (route of CreateHTTPRouteWithLabels: stable 100, canary 0)
  @Test
  void setHeaderRoute_twice_oneManagedRule() {
    create(ruleWithMatch(new HTTPRouteMatch(HTTPPathMatch.EVERYTHING, List.of(), List.of(), "")));
    Rollout r = rollout();
    CanaryStep.SetHeaderRoute step = header(MANAGED, "X-Canary", StringMatch.exact("true"));

    router.setHeaderRoute(r, routing(r), step);
    assertThat(stored().spec().rules()).hasSize(2);
    assertThat(stored().spec().rules().get(1).name()).isEqualTo(MANAGED);
    long version = Long.parseLong(stored().metadata().resourceVersion());

    router.setHeaderRoute(r, routing(r), step);
    assertThat(stored().spec().rules()).hasSize(2);
    assertThat(stored().spec().rules().get(1).name()).isEqualTo(MANAGED);
    assertThat(Long.parseLong(stored().metadata().resourceVersion())).isEqualTo(version); // nothing to write
  }

  // TestSetHTTPHeaderRouteTwoDistinctNamesAppendsBoth
  @Test
  void setHeaderRoute_twoNames_bothAppendedInOrder() {
    create(ruleWithMatch(new HTTPRouteMatch(HTTPPathMatch.EVERYTHING, List.of(), List.of(), "")));
    Rollout r = rollout("header-route-one", "header-route-two");

    router.setHeaderRoute(r, routing(r), header("header-route-one", "X-Canary", StringMatch.exact("true")));
    assertThat(stored().spec().rules()).hasSize(2);
    assertThat(stored().spec().rules().get(1).name()).isEqualTo("header-route-one");

    router.setHeaderRoute(r, routing(r), header("header-route-two", "X-Version", StringMatch.exact("beta")));
    assertThat(stored().spec().rules()).extracting(HTTPRouteRule::name)
        .containsExactly("", "header-route-one", "header-route-two");
  }

  // TestSetHTTPHeaderRouteMultiRuleHTTPRoute: two source rules (/a, /b) get a header rule each
  @Test
  void setHeaderRoute_twoSourceRules_oneManagedRuleEach() {
    create(ruleWithMatch(HTTPRouteMatch.path(PathMatchType.PathPrefix, "/a")),
        ruleWithMatch(HTTPRouteMatch.path(PathMatchType.PathPrefix, "/b")));
    Rollout r = rollout();

    router.setHeaderRoute(r, routing(r), header(MANAGED, "X-Version", StringMatch.exact("v2")));

    List<HTTPRouteRule> rules = stored().spec().rules();
    assertThat(rules).hasSize(4);
    List<HTTPRouteRule> managed = rules.stream().filter(x -> x.name().startsWith(MANAGED)).toList();
    assertThat(managed).hasSize(2);
    assertThat(managed).extracting(HTTPRouteRule::name).containsExactly(MANAGED, MANAGED + "-1");
    for (HTTPRouteRule m : managed) {
      assertThat(m.backendRefs()).hasSize(1);
      assertThat(m.backendRefs().get(0).name()).isEqualTo(CANARY);
      assertThat(m.matches().get(0).headers()).contains(HTTPHeaderMatch.exact("X-Version", "v2"));
    }
    assertThat(managed).extracting(m -> m.matches().get(0).path().value()).containsExactlyInAnyOrder("/a", "/b");

    router.removeManagedRoutes(r, routing(r));
    assertThat(stored().spec().rules()).hasSize(2).extracting(HTTPRouteRule::name).containsOnly("");
  }

  @Test
  void setHeaderRoute_noMatch_removesOnlyThatRoute() {
    create(mockRule());
    Rollout r = rollout("one", "two");
    router.setHeaderRoute(r, routing(r), header("one", "X-A", StringMatch.exact("1")));
    router.setHeaderRoute(r, routing(r), header("two", "X-B", StringMatch.exact("2")));

    router.setHeaderRoute(r, routing(r), new CanaryStep.SetHeaderRoute("one", List.of()));

    assertThat(stored().spec().rules()).extracting(HTTPRouteRule::name).containsExactly("", "two");
  }

  @Test
  void setHeaderRoute_regexAndQuotedPrefix() {
    create(mockRule());
    Rollout r = rollout();

    router.setHeaderRoute(r, routing(r), new CanaryStep.SetHeaderRoute(MANAGED, List.of(
        HeaderRoutingMatch.of("X-Re", StringMatch.regex("v[0-9]+")),
        HeaderRoutingMatch.of("X-Pre", StringMatch.prefix("a.b(")))));

    List<HTTPHeaderMatch> h = stored().spec().rules().get(1).matches().get(0).headers();
    assertThat(h).containsExactly(new HTTPHeaderMatch(ValueMatchType.RegularExpression, "X-Re", "v[0-9]+"),
        new HTTPHeaderMatch(ValueMatchType.RegularExpression, "X-Pre", "\\Qa.b(\\E.*"));
  }

  @Test
  void setHeaderRoute_routeMissingOrNoRuleWithBothServices_errorNamingTheRoute() {
    Rollout r = rollout();
    CanaryStep.SetHeaderRoute step = header(MANAGED, "X-Canary", StringMatch.exact("true"));
    assertThatThrownBy(() -> router.setHeaderRoute(r, routing(r), step)).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("HTTPRoute default/" + ROUTE + " not found");

    create(new HTTPRouteRule(List.of(), List.of(HTTPBackendRef.of(STABLE, 80, 100))));
    assertThatThrownBy(() -> router.setHeaderRoute(r, routing(r), step)).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining(HttpRouteTrafficRouter.BACKEND_NOT_FOUND).hasMessageContaining(CANARY);
  }

  @Test
  void setMirrorRoute_mirrorRuleFirst_withSourceBackendsAndMirrorFilter() {
    create(ruleWithMatch(HTTPRouteMatch.path(PathMatchType.PathPrefix, "/")));
    Rollout r = rollout("mirror-1");
    RouteMatch get = new RouteMatch(StringMatch.exact("GET"), StringMatch.prefix("/api"),
        Map.of("X-Debug", StringMatch.exact("1")));

    router.setMirrorRoute(r, routing(r), new CanaryStep.SetMirrorRoute("mirror-1", List.of(get), 35));

    List<HTTPRouteRule> rules = stored().spec().rules();
    assertThat(rules).hasSize(2);
    HTTPRouteRule mirror = rules.get(0);
    assertThat(mirror.name()).isEqualTo("mirror-1");
    assertThat(mirror.matches()).containsExactly(new HTTPRouteMatch(new HTTPPathMatch(
        PathMatchType.RegularExpression, "/api.*"), List.of(HTTPHeaderMatch.exact("X-Debug", "1")), List.of(),
        "GET"));
    assertThat(mirror.backendRefs()).isEqualTo(rules.get(1).backendRefs());
    assertThat(mirror.filters()).containsExactly(HTTPRouteFilter.requestMirror(new HTTPRequestMirrorFilter(
        new BackendObjectReference("", "Service", CANARY, "", 80), 35, null)));

    router.setWeight(r, routing(r), 40); // the mirror rule splits as its source does
    assertThat(stored().spec().rules()).allSatisfy(rule -> assertThat(rule.backendRefs())
        .extracting(HTTPBackendRef::weight).containsExactly(60, 40));

    router.removeManagedRoutes(r, routing(r));
    assertThat(stored().spec().rules()).hasSize(1).extracting(HTTPRouteRule::name).containsExactly("");
  }

  @Test
  void setMirrorRoute_noMatch_sourceMatchesKept_twiceOneRule() {
    create(mockRule());
    Rollout r = rollout("mirror-1");
    CanaryStep.SetMirrorRoute step = new CanaryStep.SetMirrorRoute("mirror-1", List.of(), null);

    router.setMirrorRoute(r, routing(r), step);
    router.setMirrorRoute(r, routing(r), step);

    List<HTTPRouteRule> rules = stored().spec().rules();
    assertThat(rules).extracting(HTTPRouteRule::name).containsExactly("mirror-1", "");
    assertThat(rules.get(0).matches()).isEqualTo(mockRule().matches());
    assertThat(rules.get(0).filters().get(0).requestMirror().share().numerator()).isEqualTo(100);
  }
}
