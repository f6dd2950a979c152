package io.fleetkit.networking.routing;

import io.fleetkit.api.gateway.HTTPRoute;
import io.fleetkit.api.networking.Ingress;
import io.fleetkit.api.networking.IngressClass;
import java.util.List;

/**
 * Both routing APIs over one set of objects: an HTTPRoute match wins; otherwise the Ingresses decide (a rule, a
 * default backend, or 404).
 */
public final class Router {
  private final HttpRouteRouter routes;
  private final IngressRouter ingresses;

  public Router(List<IngressClass> classes, List<Ingress> ingresses, List<HTTPRoute> routes) {
    this.routes = new HttpRouteRouter(routes);
    this.ingresses = new IngressRouter(classes, ingresses, null);
  }

  public RouteResult route(HttpRequest request) {
    RouteResult r = routes.route(request);
    if (r.matched()) {
      return r;
    }
    RouteResult i = ingresses.route(request);
    if (i.matched()) {
      return i;
    }
    return RouteResult.notFound("no HTTPRoute or Ingress rule matches host \"" + request.hostname() + "\" path \""
        + request.path() + "\" (404)");
  }
}
