package io.fleetkit.api.rollouts;

import io.fleetkit.api.Violations;
import io.fleetkit.api.internal.HttpHeaderNames;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.jspecify.annotations.Nullable;

/**
 * The checks of the {@code setHeaderRoute} and {@code setMirrorRoute} steps and of {@code managedRoutes}: Argo
 * Rollouts' ({@code pkg/apis/rollouts/validation/validation.go}, with its messages), plus what the Gateway API
 * router needs to write the route (a header name, an exact method, an absolute exact path, regular expressions
 * that compile, a percentage within 0..100, managed route names usable as rule names). Stateless.
 */
final class ManagedRouteChecks {
  static final String HEADER_ROUTE_NEEDS_ROUTING =
      "SetHeaderRoute requires TrafficRouting, supports Istio and ALB and Apisix";
  static final String MIRROR_ROUTE_NEEDS_ROUTING = "SetMirrorRoute requires TrafficRouting, supports Istio and Plugins";
  static final String MULTIPLE_VALUES =
      "StringMatch match value must have exactly one of the following: exact, regex, prefix";
  static final String MISSING_VALUE =
      "StringMatch value missed, match value must have one of the following: exact, regex, prefix";
  static final String NOT_IN_MANAGED_ROUTES =
      "Steps define a route that does not exist in spec.strategy.canary.trafficRouting.managedRoutes";
  static final String MANAGED_ROUTES_MISSING =
      "Rollout has missing field 'spec.strategy.canary.trafficRouting.managedRoutes'";

  private static final Set<String> METHODS = Set.of("GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS",
      "TRACE", "PATCH");

  private ManagedRouteChecks() {}

  static void headerRoute(CanaryStep.SetHeaderRoute h, @Nullable TrafficRouting tr, String sp, String at,
      Violations v) {
    if (tr == null) {
      v.add(sp, HEADER_ROUTE_NEEDS_ROUTING, h.name());
    } else {
      for (int j = 0; j < h.match().size(); j++) {
        HeaderRoutingMatch m = h.match().get(j);
        String mp = sp + ".match[" + j + "]";
        HttpHeaderNames.check(v, mp + ".headerName", m.headerName());
        value(v, mp + ".headerValue", m.headerValue());
      }
    }
    inManagedRoutes(h.name(), tr, sp, at, v);
  }

  static void mirrorRoute(CanaryStep.SetMirrorRoute m, @Nullable TrafficRouting tr, String sp, String at,
      Violations v) {
    if (tr == null) {
      v.add(sp, MIRROR_ROUTE_NEEDS_ROUTING, m.name());
    }
    for (int j = 0; j < m.match().size(); j++) {
      RouteMatch rm = m.match().get(j);
      String mp = sp + ".match[" + j + "]";
      if (rm.method() != null && value(v, mp + ".method", rm.method())) {
        if (rm.method().exact().isEmpty()) {
          v.add(mp + ".method", "the Gateway API matches a method exactly: only exact is supported", null);
        } else if (!METHODS.contains(rm.method().exact())) {
          v.add(mp + ".method.exact", "must be one of " + String.join(", ", new java.util.TreeSet<>(METHODS)),
              rm.method().exact());
        }
      }
      if (rm.path() != null && value(v, mp + ".path", rm.path()) && !rm.path().exact().isEmpty()
          && !rm.path().exact().startsWith("/")) {
        v.add(mp + ".path.exact", "must be an absolute path", rm.path().exact());
      }
      for (Map.Entry<String, StringMatch> e : rm.headers().entrySet()) {
        HttpHeaderNames.check(v, mp + ".headers", e.getKey());
        value(v, mp + ".headers[" + e.getKey() + "]", e.getValue());
      }
    }
    if (m.percentage() != null && (m.percentage() < 0 || m.percentage() > 100)) {
      v.add(sp + ".percentage", "must be between 0 and 100", m.percentage());
    }
    inManagedRoutes(m.name(), tr, sp, at, v);
  }

  static void managedRoutes(List<String> names, String field, Violations v) {
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < names.size(); i++) {
      String n = names.get(i);
      v.dnsSubdomain(field + "[" + i + "].name", n);
      if (!n.isEmpty() && !seen.add(n)) {
        v.add(field + "[" + i + "].name", "must be unique among the managed routes", n);
      }
    }
  }

  /** Argo's: with traffic routing, {@code managedRoutes} must be given and name the step's route. */
  private static void inManagedRoutes(String name, @Nullable TrafficRouting tr, String sp, String at, Violations v) {
    if (tr == null) {
      return;
    }
    if (tr.managedRoutes().isEmpty()) {
      v.add(at + ".trafficRouting.managedRoutes", MANAGED_ROUTES_MISSING, null);
    } else if (!tr.managedRoutes().contains(name)) {
      v.add(sp + ".name", NOT_IN_MANAGED_ROUTES, name);
    }
  }

  /** Argo's {@code hasMultipleMatchValues}; returns whether exactly one is set (then also that it compiles). */
  private static boolean value(Violations v, String field, @Nullable StringMatch m) {
    int n = m == null ? 0 : m.setCount();
    if (n == 0) {
      v.add(field, MISSING_VALUE, null);
      return false;
    }
    if (n > 1) {
      v.add(field, MULTIPLE_VALUES, m);
      return false;
    }
    if (!m.regex().isEmpty()) {
      try {
        Pattern.compile(m.regex());
      } catch (PatternSyntaxException e) {
        v.add(field + ".regex", "must be a valid regular expression: " + e.getDescription(), m.regex());
      }
    }
    return true;
  }
}
