package io.fleetkit.reconcile.rollouts.internal;

import io.fleetkit.api.gateway.BackendObjectReference;
import io.fleetkit.api.gateway.HTTPBackendRef;
import io.fleetkit.api.gateway.HTTPHeaderMatch;
import io.fleetkit.api.gateway.HTTPPathMatch;
import io.fleetkit.api.gateway.HTTPRequestMirrorFilter;
import io.fleetkit.api.gateway.HTTPRouteFilter;
import io.fleetkit.api.gateway.HTTPRouteMatch;
import io.fleetkit.api.gateway.HTTPRouteRule;
import io.fleetkit.api.gateway.PathMatchType;
import io.fleetkit.api.gateway.ValueMatchType;
import io.fleetkit.api.rollouts.CanaryStep;
import io.fleetkit.api.rollouts.HeaderRoutingMatch;
import io.fleetkit.api.rollouts.RouteMatch;
import io.fleetkit.api.rollouts.StringMatch;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * The HTTPRoute rules of a canary's managed routes, as the {@code argoproj-labs/gatewayAPI} plugin writes them
 * ({@code pkg/plugin/httproute.go}: {@code setHTTPHeaderRoute}, {@code removeHTTPManagedRoutes},
 * {@code isHTTPManagedRule}, {@code isManagedRuleName}). Every source rule (an unmanaged rule listing both the stable
 * and the canary Service) gets one managed rule, named after the managed route ({@code name}, then
 * {@code name-1}, {@code name-2}, ... for further source rules):
 * <ul>
 *   <li>a header route takes the source rule's matches with the step's headers added to each (one match of just
 *       the headers when the source has none), its filters, and the canary Service alone (at the default weight),
 *       and is appended after the other rules (a match with more headers takes precedence in the Gateway API, so
 *       the place only orders it among equals);
 *   <li>a mirror route (the plugin's {@code SetMirrorRoute} is a no-op; this is FleetKit's) takes each source
 *       match combined with each of the step's matches (the step's method and path replace the source's, headers
 *       are added), the source rule's backends and filters, and a {@code RequestMirror} filter copying
 *       {@code percentage} percent of the requests to the canary Service; it is placed before the other rules, as
 *       its matches may equal its source's, where the first rule wins.
 * </ul>
 * A prefix becomes a regular expression, {@code prefix.*} (the prefix quoted when it holds regex syntax). Stateless.
 */
public final class ManagedHttpRules {
  private ManagedHttpRules() {}

  /** The plugin's {@code isManagedRuleName}: {@code name} itself or {@code name-N}. */
  public static boolean isManagedName(String ruleName, Collection<String> managed) {
    for (String base : managed) {
      if (ruleName.equals(base) || (ruleName.startsWith(base + "-")
          && ruleName.substring(base.length() + 1).matches("[0-9]+"))) {
        return true;
      }
    }
    return false;
  }

  /** The plugin's {@code isHTTPManagedRule} without headers: the canary Service is the rule's only backend. */
  public static boolean canaryOnly(HTTPRouteRule rule, String ns, String canary) {
    return rule.backendRefs().size() == 1 && names(rule.backendRefs().get(0), ns, canary);
  }

  /** Whether {@code b} is the Service {@code service} of namespace {@code ns} (the route's and the rollout's). */
  public static boolean names(HTTPBackendRef b, String ns, String service) {
    return (b.namespace().isEmpty() || b.namespace().equals(ns)) && b.name().equals(service);
  }

  /** The unmanaged rules listing both Services (the plugin's {@code getAllRouteRules}). */
  public static List<HTTPRouteRule> sources(List<HTTPRouteRule> rules, Collection<String> managed, String ns,
      String canary, String stable) {
    List<HTTPRouteRule> out = new ArrayList<>();
    for (HTTPRouteRule r : rules) {
      if (isManagedName(r.name(), managed)) {
        continue;
      }
      boolean c = false;
      boolean s = false;
      for (HTTPBackendRef b : r.backendRefs()) {
        c |= names(b, ns, canary);
        s |= names(b, ns, stable);
      }
      if (c && s) {
        out.add(r);
      }
    }
    return out;
  }

  /**
   * The rules without those of managed route {@code name}. Only named rules are managed here: unlike the plugin, an
   * unnamed canary-only rule (which older plugin versions wrote) is taken for one the user wrote and kept.
   */
  public static List<HTTPRouteRule> without(List<HTTPRouteRule> rules, String name) {
    return withoutAll(rules, List.of(name));
  }

  /** The rules without those of every managed route (the plugin's {@code removeHTTPManagedRoutes}). */
  public static List<HTTPRouteRule> withoutAll(List<HTTPRouteRule> rules, Collection<String> managed) {
    List<HTTPRouteRule> out = new ArrayList<>();
    for (HTTPRouteRule r : rules) {
      if (!isManagedName(r.name(), managed)) {
        out.add(r);
      }
    }
    return out;
  }

  /** The header conditions of a {@code setHeaderRoute} step (the plugin's {@code getHTTPHeaderRouteRuleList}). */
  public static List<HTTPHeaderMatch> headers(List<HeaderRoutingMatch> match) {
    List<HTTPHeaderMatch> out = new ArrayList<>();
    for (HeaderRoutingMatch m : match) {
      out.add(header(m.headerName(), m.headerValue()));
    }
    return out;
  }

  /** One header rule per source rule. */
  public static List<HTTPRouteRule> headerRules(List<HTTPRouteRule> sources, CanaryStep.SetHeaderRoute step,
      String ns, String canary) {
    List<HTTPHeaderMatch> added = headers(step.match());
    List<HTTPRouteRule> out = new ArrayList<>();
    for (int idx = 0; idx < sources.size(); idx++) {
      HTTPRouteRule src = sources.get(idx);
      HTTPBackendRef canaryRef = canaryRef(src, ns, canary);
      HTTPBackendRef ref = new HTTPBackendRef("", "Service", canary, "", canaryRef.port(),
          HTTPBackendRef.DEFAULT_WEIGHT);
      List<HTTPRouteMatch> matches = new ArrayList<>();
      if (src.matches().isEmpty()) {
        matches.add(new HTTPRouteMatch(HTTPPathMatch.EVERYTHING, added, List.of(), ""));
      } else {
        for (HTTPRouteMatch m : src.matches()) {
          List<HTTPHeaderMatch> merged = new ArrayList<>(m.headers());
          merged.addAll(added);
          matches.add(new HTTPRouteMatch(m.path(), merged, m.queryParams(), m.method()));
        }
      }
      out.add(new HTTPRouteRule(matches, List.of(ref), src.filters(), ruleName(step.name(), idx), null));
    }
    return out;
  }

  /** One mirror rule per source rule. */
  public static List<HTTPRouteRule> mirrorRules(List<HTTPRouteRule> sources, CanaryStep.SetMirrorRoute step,
      String ns, String canary) {
    List<HTTPRouteRule> out = new ArrayList<>();
    for (int idx = 0; idx < sources.size(); idx++) {
      HTTPRouteRule src = sources.get(idx);
      HTTPBackendRef canaryRef = canaryRef(src, ns, canary);
      List<HTTPRouteMatch> matches = new ArrayList<>();
      if (step.match().isEmpty()) {
        matches.addAll(src.matches());
      } else {
        for (HTTPRouteMatch m : src.effectiveMatches()) {
          for (RouteMatch rm : step.match()) {
            matches.add(combine(m, rm));
          }
        }
      }
      List<HTTPRouteFilter> filters = new ArrayList<>(src.filters());
      filters.add(HTTPRouteFilter.requestMirror(new HTTPRequestMirrorFilter(new BackendObjectReference("", "Service",
          canary, "", canaryRef.port()), step.percentage(), null)));
      out.add(new HTTPRouteRule(matches, src.backendRefs(), filters, ruleName(step.name(), idx), src.timeouts(),
          src.retry()));
    }
    return out;
  }

  private static HTTPRouteMatch combine(HTTPRouteMatch m, RouteMatch rm) {
    HTTPPathMatch path = m.path();
    StringMatch p = rm.path();
    if (p != null) {
      path = !p.exact().isEmpty() ? new HTTPPathMatch(PathMatchType.Exact, p.exact())
          : !p.prefix().isEmpty() ? new HTTPPathMatch(PathMatchType.RegularExpression, prefixRegex(p.prefix()))
          : new HTTPPathMatch(PathMatchType.RegularExpression, p.regex());
    }
    String method = rm.method() != null ? rm.method().exact() : m.method();
    List<HTTPHeaderMatch> headers = new ArrayList<>(m.headers());
    for (Map.Entry<String, StringMatch> e : rm.headers().entrySet()) {
      headers.add(header(e.getKey(), e.getValue()));
    }
    return new HTTPRouteMatch(path, headers, m.queryParams(), method);
  }

  private static HTTPHeaderMatch header(String name, @Nullable StringMatch v) {
    if (v == null || v.setCount() != 1) {
      throw new IllegalArgumentException("header " + name + ": invalid header match type");
    }
    if (!v.exact().isEmpty()) {
      return new HTTPHeaderMatch(ValueMatchType.Exact, name, v.exact());
    }
    return new HTTPHeaderMatch(ValueMatchType.RegularExpression, name,
        v.prefix().isEmpty() ? v.regex() : prefixRegex(v.prefix()));
  }

  /** {@code prefix.*}, as the plugin writes it; quoted when the prefix holds regular-expression syntax. */
  static String prefixRegex(String prefix) {
    return (prefix.matches("[A-Za-z0-9/_\\- ]*") ? prefix : Pattern.quote(prefix)) + ".*";
  }

  private static String ruleName(String name, int idx) {
    return idx == 0 ? name : name + "-" + idx;
  }

  private static HTTPBackendRef canaryRef(HTTPRouteRule rule, String ns, String canary) {
    for (HTTPBackendRef b : rule.backendRefs()) {
      if (names(b, ns, canary)) {
        return b;
      }
    }
    throw new IllegalStateException("canary backend missing from a source rule");
  }

}
