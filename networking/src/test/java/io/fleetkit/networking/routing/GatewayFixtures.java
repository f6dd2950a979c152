package io.fleetkit.networking.routing;

import io.fleetkit.api.core.Namespace;
import io.fleetkit.api.core.Secret;
import io.fleetkit.api.core.Service;
import io.fleetkit.api.core.ServicePort;
import io.fleetkit.api.core.ServiceSpec;
import io.fleetkit.api.gateway.AllowedRoutes;
import io.fleetkit.api.gateway.FromNamespaces;
import io.fleetkit.api.gateway.Gateway;
import io.fleetkit.api.gateway.GatewayClass;
import io.fleetkit.api.gateway.GatewaySpec;
import io.fleetkit.api.gateway.HTTPBackendRef;
import io.fleetkit.api.gateway.HTTPRoute;
import io.fleetkit.api.gateway.HTTPRouteMatch;
import io.fleetkit.api.gateway.HTTPRouteRule;
import io.fleetkit.api.gateway.HTTPRouteSpec;
import io.fleetkit.api.gateway.Listener;
import io.fleetkit.api.gateway.ParentReference;
import io.fleetkit.api.gateway.PathMatchType;
import io.fleetkit.api.gateway.ReferenceGrant;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.networking.gateway.GatewayAttachment;
import io.fleetkit.networking.gateway.GatewayObjects;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The objects of kubernetes-sigs/gateway-api {@code conformance/base/manifests.yaml} that the ported cases use: the
 * three namespaces with their labels, the backend Services (port 8080), and the Gateways {@code same-namespace}
 * (from Same), {@code all-namespaces} (from All) and {@code backend-namespaces} (from Selector
 * {@code gateway-conformance: backend}), each with one HTTP listener {@code http} on port 80.
 */
final class GatewayFixtures {
  static final String INFRA = "gateway-conformance-infra";
  static final String WEB = "gateway-conformance-web-backend";
  static final String APP = "gateway-conformance-app-backend";
  static final String CLASS = "fleetkit";

  private GatewayFixtures() {}

  static Listener http(String name, int port, String hostname, FromNamespaces from) {
    LabelSelector sel = from == FromNamespaces.Selector
        ? new LabelSelector(Map.of("gateway-conformance", "backend"), List.of()) : null;
    return new Listener(name, hostname, port, "HTTP", new AllowedRoutes(from, sel, List.of()), List.of());
  }

  static Gateway gateway(String name, Listener... listeners) {
    return new Gateway(ObjectMeta.of(INFRA, name), new GatewaySpec(CLASS, List.of(listeners)));
  }

  static ParentReference parent(String gateway) {
    return new ParentReference(gateway, INFRA, "");
  }

  static ParentReference parent(String gateway, String sectionName, @Nullable Integer port) {
    return new ParentReference("", "", gateway, INFRA, sectionName, port);
  }

  static HTTPRoute route(String ns, String name, List<ParentReference> parents, List<String> hostnames,
      HTTPRouteRule... rules) {
    return new HTTPRoute(ObjectMeta.of(ns, name), new HTTPRouteSpec(parents, hostnames, List.of(rules)));
  }

  static HTTPRouteRule rule(@Nullable String pathPrefix, HTTPBackendRef... backends) {
    List<HTTPRouteMatch> m = pathPrefix == null ? List.of() : List.of(HTTPRouteMatch.path(PathMatchType.PathPrefix,
        pathPrefix));
    return new HTTPRouteRule(m, List.of(backends));
  }

  static HTTPBackendRef backend(String name) {
    return new HTTPBackendRef(name, "", 8080, 1);
  }

  static HTTPBackendRef backend(String name, String namespace) {
    return new HTTPBackendRef(name, namespace, 8080, 1);
  }

  static ReferenceGrant grant(String ns, String name, ReferenceGrant.From from, ReferenceGrant.To to) {
    return new ReferenceGrant(ObjectMeta.of(ns, name), List.of(from), List.of(to));
  }

  private static Service service(String ns, String name) {
    return Service.of(ObjectMeta.of(ns, name), ServiceSpec.builder().port(ServicePort.of(8080)).build());
  }

  static List<Gateway> baseGateways() {
    return List.of(gateway("same-namespace", http("http", 80, "", FromNamespaces.Same)),
        gateway("all-namespaces", http("http", 80, "", FromNamespaces.All)),
        gateway("backend-namespaces", http("http", 80, "", FromNamespaces.Selector)));
  }

  static GatewayAttachment attach(List<Gateway> gateways, List<HTTPRoute> routes, List<ReferenceGrant> grants,
      List<Secret> secrets) {
    List<Gateway> all = new ArrayList<>(baseGateways());
    all.addAll(gateways);
    List<Service> services = List.of(service(INFRA, "infra-backend-v1"), service(INFRA, "infra-backend-v2"),
        service(INFRA, "infra-backend-v3"), service(WEB, "web-backend"), service(APP, "app-backend-v1"),
        service(APP, "app-backend-v2"));
    List<Namespace> namespaces = List.of(Namespace.of(INFRA, Map.of("gateway-conformance", "infra")),
        Namespace.of(WEB, Map.of("gateway-conformance", "backend")),
        Namespace.of(APP, Map.of("gateway-conformance", "backend")));
    return GatewayAttachment.compute(new GatewayObjects(
        List.of(new GatewayClass(ObjectMeta.of(CLASS), "fleetkit.io/gateway")), all, routes, services, namespaces,
        grants, secrets));
  }

  static GatewayAttachment attach(List<Gateway> gateways, HTTPRoute... routes) {
    return attach(gateways, List.of(routes), List.of(), List.of());
  }

  /**
   * What a client of {@code gateway} on {@code port} gets for {@code host} and {@code path}: the backend's short
   * name ({@code v1} for {@code infra-backend-v1}, else the Service name) or the status code.
   */
  static String ask(GatewayAttachment a, String gateway, int port, String host, String path) {
    RouteResult r = new GatewayRouter(a).route(INFRA + "/" + gateway, port, HttpRequest.get(host, path));
    if (r.status() != 200) {
      return String.valueOf(r.status());
    }
    String s = r.service().substring(r.service().indexOf('/') + 1);
    return s.startsWith("infra-backend-") ? s.substring("infra-backend-".length()) : s;
  }
}
