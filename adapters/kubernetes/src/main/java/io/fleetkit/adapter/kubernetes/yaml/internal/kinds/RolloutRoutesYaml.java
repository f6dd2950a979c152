package io.fleetkit.adapter.kubernetes.yaml.internal.kinds;

import io.fleetkit.adapter.kubernetes.yaml.internal.DocumentContext;
import io.fleetkit.adapter.kubernetes.yaml.internal.Untyped;
import io.fleetkit.api.rollouts.CanaryStep;
import io.fleetkit.api.rollouts.HeaderRoutingMatch;
import io.fleetkit.api.rollouts.RouteMatch;
import io.fleetkit.api.rollouts.StringMatch;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The managed routes of a Rollout manifest: {@code trafficRouting.managedRoutes} ({@code [{name: ...}]}) and the
 * steps {@code setHeaderRoute {name, match: [{headerName, headerValue: {exact|prefix|regex}}]}} and
 * {@code setMirrorRoute {name, percentage, match: [{method, path, headers}]}}, read with unknown fields reported at
 * their path and written back in the same shape. Argo's rules on them are checked by
 * {@link io.fleetkit.api.rollouts.Rollout}.
 */
final class RolloutRoutesYaml {
  private static final Set<String> STRING_MATCH = Set.of("exact", "prefix", "regex");

  private RolloutRoutesYaml() {}

  static List<String> managedRoutes(Map<String, Object> tr, String p, DocumentContext ctx) {
    return Untyped.entries(tr, "managedRoutes", p + ".managedRoutes", ctx, (e, ep, c) -> {
      Untyped.known(e, Set.of("name"), ep, c);
      return Untyped.string(e, "name", "", ep + ".name", c);
    });
  }

  static @Nullable List<Object> managedRoutes(List<String> names) {
    List<Object> out = new ArrayList<>();
    for (String n : names) {
      out.add(Map.of("name", n));
    }
    return out.isEmpty() ? null : out;
  }

  static CanaryStep.SetHeaderRoute headerRoute(Map<String, Object> s, String p, DocumentContext ctx) {
    Untyped.known(s, Set.of("name", "match"), p, ctx);
    List<HeaderRoutingMatch> match = Untyped.entries(s, "match", p + ".match", ctx, (e, ep, c) -> {
      Untyped.known(e, Set.of("headerName", "headerValue"), ep, c);
      return new HeaderRoutingMatch(Untyped.string(e, "headerName", "", ep + ".headerName", c),
          e.containsKey("headerValue") ? stringMatch(e, "headerValue", ep + ".headerValue", c) : null);
    });
    return new CanaryStep.SetHeaderRoute(Untyped.string(s, "name", "", p + ".name", ctx), match);
  }

  static CanaryStep.SetMirrorRoute mirrorRoute(Map<String, Object> s, String p, DocumentContext ctx) {
    Untyped.known(s, Set.of("name", "match", "percentage"), p, ctx);
    List<RouteMatch> match = Untyped.entries(s, "match", p + ".match", ctx, (e, ep, c) -> {
      Untyped.known(e, Set.of("method", "path", "headers"), ep, c);
      Map<String, StringMatch> headers = new LinkedHashMap<>();
      Map<String, Object> hm = Untyped.map(e, "headers", ep + ".headers", c);
      for (String name : hm.keySet()) {
        headers.put(name, stringMatch(hm, name, ep + ".headers." + name, c));
      }
      return new RouteMatch(e.containsKey("method") ? stringMatch(e, "method", ep + ".method", c) : null,
          e.containsKey("path") ? stringMatch(e, "path", ep + ".path", c) : null, headers);
    });
    return new CanaryStep.SetMirrorRoute(Untyped.string(s, "name", "", p + ".name", ctx), match,
        Untyped.int32(s, "percentage", p + ".percentage", ctx));
  }

  private static StringMatch stringMatch(Map<String, Object> m, String key, String p, DocumentContext ctx) {
    Map<String, Object> sm = Untyped.map(m, key, p, ctx);
    Untyped.known(sm, STRING_MATCH, p, ctx);
    return new StringMatch(Untyped.string(sm, "exact", "", p + ".exact", ctx),
        Untyped.string(sm, "prefix", "", p + ".prefix", ctx), Untyped.string(sm, "regex", "", p + ".regex", ctx));
  }

  static Map<String, Object> headerRoute(CanaryStep.SetHeaderRoute h) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("name", h.name());
    List<Object> match = new ArrayList<>();
    for (HeaderRoutingMatch hm : h.match()) {
      Map<String, Object> e = new LinkedHashMap<>();
      e.put("headerName", hm.headerName());
      Untyped.put(e, "headerValue", stringMatch(hm.headerValue()));
      match.add(e);
    }
    Untyped.put(m, "match", match);
    return m;
  }

  static Map<String, Object> mirrorRoute(CanaryStep.SetMirrorRoute s) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("name", s.name());
    List<Object> match = new ArrayList<>();
    for (RouteMatch rm : s.match()) {
      Map<String, Object> e = new LinkedHashMap<>();
      Untyped.put(e, "method", stringMatch(rm.method()));
      Untyped.put(e, "path", stringMatch(rm.path()));
      Map<String, Object> headers = new LinkedHashMap<>();
      rm.headers().forEach((k, v) -> headers.put(k, stringMatch(v)));
      Untyped.put(e, "headers", headers);
      match.add(e);
    }
    Untyped.put(m, "match", match);
    Untyped.put(m, "percentage", s.percentage());
    return m;
  }

  private static @Nullable Map<String, Object> stringMatch(@Nullable StringMatch v) {
    if (v == null) {
      return null;
    }
    Map<String, Object> m = new LinkedHashMap<>();
    Untyped.put(m, "exact", v.exact());
    Untyped.put(m, "prefix", v.prefix());
    Untyped.put(m, "regex", v.regex());
    return m;
  }
}
