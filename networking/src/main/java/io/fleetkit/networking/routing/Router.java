package io.fleetkit.networking.routing;

import io.fleetkit.api.gateway.HTTPRoute;
import io.fleetkit.api.networking.Ingress;
import io.fleetkit.api.networking.IngressClass;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * Both routing APIs over one set of objects: an HTTPRoute match wins; otherwise the Ingresses decide (a rule, a
 * default backend, or 404). HTTPRoutes are either all served (no Gateways: every route, whatever its parents) or
 * those accepted on the listener of one Gateway that takes the request ({@link GatewayRouter}). A request the Gateway
 * answers as misdirected (421: the TLS server name chose another listener than the Host would) is not offered to the
 * Ingresses: the Gateway refused it before looking at routes.
 */
public final class Router {
  private final Function<HttpRequest, RouteResult> routes;
  private final IngressRouter ingresses;
  private final boolean viaGateway;

  public Router(List<IngressClass> classes, List<Ingress> ingresses, List<HTTPRoute> routes) {
    this.routes = new HttpRouteRouter(routes)::route;
    this.ingresses = new IngressRouter(classes, ingresses, null);
    this.viaGateway = false;
  }

  /**
   * HTTPRoutes as served by Gateway {@code gateway} ({@code namespace/name}) on {@code port}, then Ingresses.
   *
   * @throws IllegalArgumentException when the Gateway is unknown (on the first request)
   */
  public Router(List<IngressClass> classes, List<Ingress> ingresses, GatewayRouter gateways, String gateway,
      int port) {
    this(classes, ingresses, request -> gateways.route(gateway, port, request));
  }

  /**
   * HTTPRoutes as served by Gateway {@code gateway} ({@code namespace/name}) to requests sent over TLS to {@code port}
   * with server name (SNI) {@code serverName} ({@link GatewayRouter#route(String, int, String, HttpRequest)}), then
   * Ingresses.
   *
   * @throws IllegalArgumentException when the Gateway is unknown (on the first request)
   */
  public Router(List<IngressClass> classes, List<Ingress> ingresses, GatewayRouter gateways, String gateway,
      int port, String serverName) {
    this(classes, ingresses, sni(gateways, gateway, port, Objects.requireNonNull(serverName, "serverName")));
  }

  private Router(List<IngressClass> classes, List<Ingress> ingresses, Function<HttpRequest, RouteResult> viaGateway) {
    this.routes = viaGateway;
    this.ingresses = new IngressRouter(classes, ingresses, null);
    this.viaGateway = true;
  }

  private static Function<HttpRequest, RouteResult> sni(GatewayRouter gateways, String gateway, int port,
      String serverName) {
    return request -> gateways.route(gateway, port, serverName, request);
  }

  public RouteResult route(HttpRequest request) {
    RouteResult r = routes.apply(request);
    if (r.matched() || r.status() == RouteResult.MISDIRECTED) {
      return r;
    }
    RouteResult i = ingresses.route(request);
    if (i.matched()) {
      return i;
    }
    if (viaGateway) {
      return RouteResult.notFound(r.message() + "; no Ingress rule matches either");
    }
    return RouteResult.notFound("no HTTPRoute or Ingress rule matches host \"" + request.hostname() + "\" path \""
        + request.path() + "\" (404)");
  }
}
