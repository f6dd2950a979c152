package io.fleetkit.api.rollouts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.fleetkit.api.ValidationException;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.meta.IntOrPercent;
import io.fleetkit.api.resource.ResourceList;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * The {@code setHeaderRoute} and {@code setMirrorRoute} checks: cases of Argo Rollouts'
 * {@code pkg/apis/rollouts/validation/validation_test.go} (commit 9f8d111d8f8e3e88b6d7f8bbdf62fd3cd863ef9d), each
 * expecting upstream's first error detail (Istio and plugin routing are the Gateway API routing here), and
 * FleetKit's own checks for what the Gateway API route needs.
 */
final class ManagedRouteValidationTest {
  private static final String AT = "spec.strategy.canary";

  private static Rollout rollout(@Nullable TrafficRouting routing, CanaryStep... steps) {
    return Rollout.builder().name("web").matchLabels(Map.of("app", "web"))
        .podSpec(PodSpec.builder().container("app", "web:1", ResourceList.ofCpuMemory(100, 0)).build())
        .canary(new CanaryStrategy(List.of(steps), IntOrPercent.TWENTY_FIVE_PERCENT, IntOrPercent.TWENTY_FIVE_PERCENT,
            null, "stable", "canary", routing, false, null, null)).build();
  }

  private static List<String> errors(@Nullable TrafficRouting routing, CanaryStep... steps) {
    ValidationException e = catchThrowableOfType(ValidationException.class, () -> rollout(routing, steps));
    assertThat(e).as("expected a validation error").isNotNull();
    return e.violations().stream().map(v -> v.field() + ": " + v.rule()).toList();
  }

  private static TrafficRouting routing(String... managed) {
    return new TrafficRouting("route", List.of(managed));
  }

  private static CanaryStep.SetHeaderRoute header(String name, @Nullable StringMatch value) {
    return new CanaryStep.SetHeaderRoute(name, List.of(new HeaderRoutingMatch("agent", value)));
  }

  private static CanaryStep.SetMirrorRoute mirror(String name, RouteMatch... match) {
    return new CanaryStep.SetMirrorRoute(name, List.of(match), null);
  }

  // TestValidateRolloutStrategyCanarySetHeaderRoute/using SetHeaderRoute step without the traffic routing
  @Test
  void setHeaderRoute_withoutTrafficRouting_refused() {
    assertThat(errors(null, header("", StringMatch.exact("chrome")))).first()
        .isEqualTo(AT + ".steps[0].setHeaderRoute: " + ManagedRouteChecks.HEADER_ROUTE_NEEDS_ROUTING);
  }

  // TestValidateRolloutStrategyCanarySetHeaderRoutePlugins/using SetHeaderRoute step with plugins
  @Test
  void setHeaderRoute_withRoutingAndManagedRoute_valid() {
    Rollout r = rollout(routing("test"), header("test", StringMatch.exact("chrome")));
    assertThat(r.canary().steps()).hasSize(1);
  }

  // TestValidateRolloutStrategyCanarySetMirrorRoute/using SetMirrorRoute step without the traffic routing
  // TestValidateRolloutStrategyCanarySetMirrorRouteIstio/using SetMirrorRoute step without the traffic routing
  @Test
  void setMirrorRoute_withoutTrafficRouting_refused() {
    assertThat(errors(null, mirror("test-mirror-1"))).first()
        .isEqualTo(AT + ".steps[0].setMirrorRoute: " + ManagedRouteChecks.MIRROR_ROUTE_NEEDS_ROUTING);
  }

  // TestValidateRolloutStrategyCanarySetMirrorRoutePlugins/using SetMirrorRoute step with plugins
  // TestValidateRolloutStrategyCanarySetMirrorRouteIstio/using SetMirrorRoute step with managedRoutes defined
  @Test
  void setMirrorRoute_withRoutingAndManagedRoute_valid() {
    Rollout r = rollout(routing("test-mirror-1"), new CanaryStep.SetMirrorRoute("test-mirror-1", List.of(
        new RouteMatch(StringMatch.exact("GET"), StringMatch.prefix("/api"), Map.of())), 50));
    assertThat(r.canary().steps()).hasSize(1);
    Rollout r2 = rollout(routing("test-mirror-1"), mirror("test-mirror-1",
        new RouteMatch(StringMatch.exact("GET"), StringMatch.prefix("/"), Map.of())));
    assertThat(r2.canary().steps()).hasSize(1);
  }

  // TestValidateRolloutStrategyCanarySetHeaderRouteIstio/using SetHeaderRoute step with multiple values
  // (TestValidateRolloutStrategyCanarySetHeaderRoutingALB's same case expects ALB's message: no ALB here)
  @Test
  void setHeaderRoute_multipleValues_refused() {
    assertThat(errors(routing("test"), header("test", new StringMatch("chrome", "", "chrome(.*)")))).first()
        .isEqualTo(AT + ".steps[0].setHeaderRoute.match[0].headerValue: " + ManagedRouteChecks.MULTIPLE_VALUES);
  }

  // TestValidateRolloutStrategyCanarySetHeaderRouteIstio/using SetHeaderRoute step with missed values
  // TestValidateRolloutStrategyCanarySetHeaderRoutingALB/using SetHeaderRouting step with missed values
  @Test
  void setHeaderRoute_missingValue_refused() {
    assertThat(errors(routing("test"), header("test", null))).first()
        .isEqualTo(AT + ".steps[0].setHeaderRoute.match[0].headerValue: " + ManagedRouteChecks.MISSING_VALUE);
  }

  // TestValidateRolloutStrategyCanarySetHeaderRouteIstio/… without managedRoutes defined but missing route
  @Test
  void setHeaderRoute_nameNotInManagedRoutes_refused() {
    assertThat(errors(routing("not-in-steps"), header("", StringMatch.exact("exact")))).first()
        .isEqualTo(AT + ".steps[0].setHeaderRoute.name: " + ManagedRouteChecks.NOT_IN_MANAGED_ROUTES);
  }

  // TestValidateRolloutStrategyCanarySetMirrorRouteIstio/using SetMirrorRoute step with multiple values
  @Test
  void setMirrorRoute_methodWithMultipleValues_refused() {
    assertThat(errors(routing("test-mirror-1"), mirror("test-mirror-1",
        new RouteMatch(new StringMatch("test", "test", ""), null, Map.of())))).first()
        .isEqualTo(AT + ".steps[0].setMirrorRoute.match[0].method: " + ManagedRouteChecks.MULTIPLE_VALUES);
  }

  // TestValidateRolloutStrategyCanarySetMirrorRouteIstio/using SetMirrorRoute step with missed match and no kind
  @Test
  void setMirrorRoute_emptyMethodMatch_refused() {
    assertThat(errors(routing("test-mirror-1"), mirror("test-mirror-1",
        new RouteMatch(new StringMatch("", "", ""), null, Map.of())))).first()
        .isEqualTo(AT + ".steps[0].setMirrorRoute.match[0].method: " + ManagedRouteChecks.MISSING_VALUE);
  }

  // TestValidateRolloutStrategyCanarySetMirrorRouteIstio/using SetMirrorRoute step without managedRoutes not defined
  @Test
  void setMirrorRoute_noManagedRoutes_refused() {
    assertThat(errors(routing(), mirror("test-mirror-1", new RouteMatch(StringMatch.exact("exact"), null,
        Map.of())))).contains(AT + ".trafficRouting.managedRoutes: Rollout has missing field "
        + "'spec.strategy.canary.trafficRouting.managedRoutes'");
  }

  // TestValidateRolloutStrategyCanarySetMirrorRouteIstio/… without managedRoutes defined but missing route
  @Test
  void setMirrorRoute_nameNotInManagedRoutes_refused() {
    assertThat(errors(routing("not-in-steps"), mirror("test-mirror-1", new RouteMatch(StringMatch.exact("GET"),
        StringMatch.prefix("/"), Map.of())))).first()
        .isEqualTo(AT + ".steps[0].setMirrorRoute.name: " + ManagedRouteChecks.NOT_IN_MANAGED_ROUTES);
  }

  @Test
  void gatewayApiRules_methodPathHeadersPercentageAndNames() {
    List<String> e = errors(routing("m", "m", "Bad_Name"),
        new CanaryStep.SetMirrorRoute("m", List.of(new RouteMatch(StringMatch.prefix("GE"), StringMatch.exact("api"),
            Map.of("bad header", StringMatch.regex("(")))), 101),
        new CanaryStep.SetMirrorRoute("m", List.of(new RouteMatch(StringMatch.exact("FETCH"), null, Map.of())), 0),
        new CanaryStep.SetHeaderRoute("m", List.of(new HeaderRoutingMatch("", StringMatch.exact("x")))));
    String m0 = AT + ".steps[0].setMirrorRoute";
    assertThat(e).contains(
        m0 + ".match[0].method: the Gateway API matches a method exactly: only exact is supported",
        m0 + ".match[0].path.exact: must be an absolute path",
        m0 + ".match[0].headers: must be an HTTP header name (matching ^[A-Za-z0-9!#$%&'*+\\-.^_`|~]+$)",
        m0 + ".match[0].headers[bad header].regex: must be a valid regular expression: Unclosed group",
        m0 + ".percentage: must be between 0 and 100",
        AT + ".steps[1].setMirrorRoute.match[0].method.exact: must be one of CONNECT, DELETE, GET, HEAD, OPTIONS, "
            + "PATCH, POST, PUT, TRACE",
        AT + ".steps[2].setHeaderRoute.match[0].headerName: Required value",
        AT + ".trafficRouting.managedRoutes[1].name: must be unique among the managed routes");
    assertThat(e).anyMatch(s -> s.startsWith(AT + ".trafficRouting.managedRoutes[2].name: "));
  }
}
