package io.fleetkit.networking.gateway;

import io.fleetkit.api.core.Service;
import io.fleetkit.api.core.ServicePort;
import io.fleetkit.api.gateway.BackendObjectReference;
import io.fleetkit.api.gateway.Gateway;
import io.fleetkit.api.gateway.HTTPBackendRef;
import io.fleetkit.api.gateway.HTTPRequestMirrorFilter;
import io.fleetkit.api.gateway.HTTPRoute;
import io.fleetkit.api.gateway.HTTPRouteFilter;
import io.fleetkit.api.gateway.HTTPRouteFilterType;
import io.fleetkit.api.gateway.HTTPRouteRule;
import io.fleetkit.api.gateway.ReferenceGrant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Resolves a route's {@code backendRefs}, and the {@code backendRef} of each {@code RequestMirror} filter (the rule's
 * and each backend's), as upstream's ResolvedRefs condition does: a kind other than Service is {@code InvalidKind};
 * a Service in another namespace needs a ReferenceGrant there ({@code RefNotPermitted}); a missing Service, or a port
 * the Service does not have, is {@code BackendNotFound}. Both kinds of reference go through the same check (the
 * API's {@code HTTPRequestMirrorFilter.backendRef} has the rules of a {@code backendRef}).
 */
final class BackendRefs {
  /** Why one backend cannot receive traffic. */
  record Problem(String reason, String message) {}

  /**
   * Where a {@code RequestMirror} filter sits: rule {@code rule}'s own filter {@code filter} when {@code backend} is
   * -1, else filter {@code filter} of that rule's backend {@code backend}.
   */
  record MirrorAt(int rule, int backend, int filter) {}

  private final Map<String, Service> services;
  private final List<ReferenceGrant> grants;

  BackendRefs(Map<String, Service> services, List<ReferenceGrant> grants) {
    this.services = services;
    this.grants = grants;
  }

  /** Per rule, per backend: its problem or {@code null}. */
  List<List<@Nullable Problem>> resolve(HTTPRoute route) {
    String ns = route.metadata().namespace();
    List<List<@Nullable Problem>> out = new ArrayList<>();
    for (var rule : route.spec().rules()) {
      List<@Nullable Problem> ps = new ArrayList<>();
      for (HTTPBackendRef b : rule.backendRefs()) {
        ps.add(check(ns, b));
      }
      out.add(ps);
    }
    return out;
  }

  /**
   * The problems of the route's {@code RequestMirror} backends, by where the filter sits, in the route's order (per
   * rule: its own filters, then each backend's); filters whose backend resolves are absent.
   */
  Map<MirrorAt, Problem> resolveMirrors(HTTPRoute route) {
    String ns = route.metadata().namespace();
    Map<MirrorAt, Problem> out = new LinkedHashMap<>();
    List<HTTPRouteRule> rules = route.spec().rules();
    for (int r = 0; r < rules.size(); r++) {
      HTTPRouteRule rule = rules.get(r);
      mirrors(ns, rule.filters(), r, -1, "rule " + r, out);
      for (int b = 0; b < rule.backendRefs().size(); b++) {
        mirrors(ns, rule.backendRefs().get(b).filters(), r, b, "rule " + r + " backend " + b, out);
      }
    }
    return out;
  }

  private void mirrors(String routeNs, List<HTTPRouteFilter> filters, int rule, int backend, String where,
      Map<MirrorAt, Problem> out) {
    for (int f = 0; f < filters.size(); f++) {
      HTTPRequestMirrorFilter m = filters.get(f).requestMirror();
      if (filters.get(f).type() != HTTPRouteFilterType.RequestMirror || m == null) {
        continue;
      }
      BackendObjectReference b = m.backendRef();
      Problem p = check(routeNs, b.isService(), b.group(), b.kind(), b.name(), b.namespace(), b.port(),
          where + " RequestMirror filter " + f + ": mirror backend");
      if (p != null) {
        out.put(new MirrorAt(rule, backend, f), p);
      }
    }
  }

  private @Nullable Problem check(String routeNs, HTTPBackendRef b) {
    return check(routeNs, b.isService(), b.group(), b.kind(), b.name(), b.namespace(), b.port(), "backend");
  }

  /**
   * One reference, a backend's or a mirror's.
   *
   * @param what how the message names the reference ({@code backend}, or where a mirror's filter is)
   */
  private @Nullable Problem check(String routeNs, boolean isService, String group, String kind, String name,
      String namespace, @Nullable Integer port, String what) {
    if (!isService) {
      return new Problem(Conditions.INVALID_KIND, what + " " + group + "/" + kind + " " + name
          + ": only Service backends are supported");
    }
    String ns = namespace.isEmpty() ? routeNs : namespace;
    String key = ns + "/" + name;
    if (!ns.equals(routeNs) && !permitted(routeNs, ns, name)) {
      return new Problem(Conditions.REF_NOT_PERMITTED, what + " Service " + key
          + " is in another namespace and no ReferenceGrant in " + ns + " allows HTTPRoutes of " + routeNs);
    }
    Service s = services.get(key);
    if (s == null) {
      return new Problem(Conditions.BACKEND_NOT_FOUND, what + " Service " + key + " not found");
    }
    if (port != null && !s.spec().ports().isEmpty()) {
      for (ServicePort p : s.spec().ports()) {
        if (p.port() == port) {
          return null;
        }
      }
      return new Problem(Conditions.BACKEND_NOT_FOUND, what + " Service " + key + " has no port " + port);
    }
    return null;
  }

  private boolean permitted(String fromNs, String toNs, String name) {
    for (ReferenceGrant g : grants) {
      if (g.metadata().namespace().equals(toNs)
          && g.permits(Gateway.GROUP, HTTPRoute.KIND, fromNs, "", "Service", name)) {
        return true;
      }
    }
    return false;
  }
}
