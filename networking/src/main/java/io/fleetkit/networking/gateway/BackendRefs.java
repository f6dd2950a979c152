package io.fleetkit.networking.gateway;

import io.fleetkit.api.core.Service;
import io.fleetkit.api.core.ServicePort;
import io.fleetkit.api.gateway.Gateway;
import io.fleetkit.api.gateway.HTTPBackendRef;
import io.fleetkit.api.gateway.HTTPRoute;
import io.fleetkit.api.gateway.ReferenceGrant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Resolves a route's {@code backendRefs} as upstream's ResolvedRefs condition does: a kind other than Service is
 * {@code InvalidKind}; a Service in another namespace needs a ReferenceGrant there ({@code RefNotPermitted}); a
 * missing Service, or a port the Service does not have, is {@code BackendNotFound}.
 */
final class BackendRefs {
  /** Why one backend cannot receive traffic. */
  record Problem(String reason, String message) {}

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

  private @Nullable Problem check(String routeNs, HTTPBackendRef b) {
    if (!b.isService()) {
      return new Problem(Conditions.INVALID_KIND, "backend " + b.group() + "/" + b.kind() + " " + b.name()
          + ": only Service backends are supported");
    }
    String ns = b.namespace().isEmpty() ? routeNs : b.namespace();
    String key = ns + "/" + b.name();
    if (!ns.equals(routeNs) && !permitted(routeNs, ns, b.name())) {
      return new Problem(Conditions.REF_NOT_PERMITTED, "backend Service " + key
          + " is in another namespace and no ReferenceGrant in " + ns + " allows HTTPRoutes of " + routeNs);
    }
    Service s = services.get(key);
    if (s == null) {
      return new Problem(Conditions.BACKEND_NOT_FOUND, "backend Service " + key + " not found");
    }
    Integer port = b.port();
    if (port != null && !s.spec().ports().isEmpty()) {
      for (ServicePort p : s.spec().ports()) {
        if (p.port() == port) {
          return null;
        }
      }
      return new Problem(Conditions.BACKEND_NOT_FOUND, "backend Service " + key + " has no port " + port);
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
